package i18n

import (
	"strings"

	"parking/internal/fault"
)

// Field reads a language sent in a request's field (a booking's or a profile's
// `language`): one of Languages, or an Invalid fault naming the field
// (docs/languages.md#the-bookings-language). An empty value is "" (not chosen).
func Field(field, v string) (string, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" || Supported(v) {
		return v, nil
	}
	return "", fault.Invalidf("El campo %s debe ser uno de: %s.", field, strings.Join(Languages, ", "))
}
