package ui

import (
	"regexp"

	"parking/internal/i18n"
)

// A page never shows an internal field name: the refusals of the operations say
// "el campo phone"; the pages say the field as its form labels it, in the page's
// language (docs/languages.md#what-remains). The labels are i18n.FieldLabel's.

// fieldRE finds a field named in a message: "campo phone", "campo «x»" excluded.
var fieldRE = regexp.MustCompile(`\bcampo ([A-Za-z_][A-Za-z0-9_.]*)`)

// foreignPhoneRE finds internal/input's refusal of a phone abroad typed without its
// country code, and the number as it should be typed (docs/input-rules.md#phones).
var foreignPhoneRE = regexp.MustCompile(`sin el prefijo de su país[^+]*(\+\d[\d \-]*\d)`)

// humanize names the fields of msg as the forms label them, in lang
// ("El campo phone es obligatorio." → "El campo «Teléfono» es obligatorio.").
// A name the forms do not have is left as it is. A phone abroad typed without its
// country code is the one refusal said whole in lang, with its example
// (docs/languages.md#foreign-phones).
func humanize(lang, msg string) string {
	if m := foreignPhoneRE.FindStringSubmatch(msg); m != nil {
		return i18n.T(lang, "js.ui.phone_country_code", "Example", m[1])
	}
	return fieldRE.ReplaceAllStringFunc(msg, func(m string) string {
		name := fieldRE.FindStringSubmatch(m)[1]
		return "campo " + i18n.FieldLabel(lang, name)
	})
}
