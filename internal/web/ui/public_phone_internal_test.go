package ui

import (
	"testing"

	"parking/internal/fault"
	"parking/internal/input"
)

// The refusal of a phone abroad typed without its country code, as internal/input
// writes it, is said whole in the page's language on every page that shows a
// refusal (forms, error pages, field errors), with its example and no field name.
func TestHumanizeForeignPhone(t *testing.T) {
	_, err := input.Rules{}.Phone("phone", "07911 123456")
	msg := fault.MessageOf(err, "")
	for lang, want := range map[string]string{
		"es": "Este teléfono no es válido sin el prefijo de su país: escríbalo con él, por ejemplo +44 7911 123456.",
		"en": "This phone number is not valid without its country code: type it with the code, for example +44 7911 123456.",
		"de": "Diese Telefonnummer ist ohne Ländervorwahl ungültig: Geben Sie sie mit der Vorwahl ein, zum Beispiel +44 7911 123456.",
		"fr": "Ce numéro de téléphone n'est pas valide sans l'indicatif de son pays : saisissez-le avec l'indicatif, par exemple +44 7911 123456.",
	} {
		if got := humanize(lang, msg); got != want {
			t.Errorf("humanize(%s, %q) = %q, want %q", lang, msg, got, want)
		}
	}
}
