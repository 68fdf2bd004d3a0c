package ui_test

import (
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/webtest"
)

// POST /booking/check-phone reads the phone with the booking's own rule and
// answers in the page's language: a phone abroad typed without its country code is
// asked for it, with the number as it should be typed; the booking's 400 says the
// same in Spanish (docs/input-rules.md#phones).
func TestCheckPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	check := func(phone, lang string) map[string]any {
		t.Helper()
		res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/booking/check-phone", map[string]any{"phone": phone}, "Accept-Language: "+lang)
		webtest.WantStatus(t, res, 200)
		return webtest.Decode(t, res)
	}
	if got := check("622 333 444", "es"); got["valid"] != true || got["e164"] != "+34622333444" {
		t.Errorf("a Spanish mobile: %v", got)
	}
	for lang, want := range map[string]string{
		"es": "Este teléfono no es válido sin el prefijo de su país: escríbalo con él, por ejemplo +44 7911 123456.",
		"en": "This phone number is not valid without its country code: type it with the code, for example +44 7911 123456.",
		"de": "Diese Telefonnummer ist ohne Ländervorwahl ungültig: Geben Sie sie mit der Vorwahl ein, zum Beispiel +44 7911 123456.",
		"fr": "Ce numéro de téléphone n'est pas valide sans l'indicatif de son pays : saisissez-le avec l'indicatif, par exemple +44 7911 123456.",
	} {
		if got := check("07911 123456", lang); got["valid"] != false || got["message"] != want || got["e164"] != nil {
			t.Errorf("a British mobile typed as at home, in %s: %v; want message %q", lang, got, want)
		}
	}
	if got := check("12345", "en"); got["valid"] != false || !strings.Contains(got["message"].(string), "This phone number is not valid") {
		t.Errorf("a number that does not exist: %v", got)
	}
	if got := check("  ", "en"); got["valid"] != false || got["message"] != "Give a contact phone number." {
		t.Errorf("no phone: %v", got)
	}
	// The booking refuses the same phone with a 400 naming the field, in Spanish,
	// with the number as it should be typed.
	res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Visitante Británico", "phone": "07911 123456", "email": "uk@example.com", "license_plate": "AB12CDE", "vehicle_type": "TURISMO",
		"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00", "id_main_service": 1})
	webtest.WantStatus(t, res, 400)
	if msg, _ := webtest.Decode(t, res)["message"].(string); !strings.Contains(msg, "phone") || !strings.Contains(msg, "prefijo") || !strings.Contains(msg, "+44 7911 123456") {
		t.Errorf("booking refusal = %q", msg)
	}
}
