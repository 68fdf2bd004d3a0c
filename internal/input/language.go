package input

import (
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
)

// Language reads a language sent in a request's field (a booking's or a profile's
// `language`): one of Languages, or an Invalid fault naming the field
// (docs/languages.md#the-bookings-language). An empty value is "" (not chosen).
func Language(field, v string) (string, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" || i18n.Supported(v) {
		return v, nil
	}
	return "", fault.Coded(fault.Invalid, "err.input.one_of", "Field", i18n.FieldName(field), "Values", strings.Join(i18n.Languages, ", "))
}
