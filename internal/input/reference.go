package input

import (
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/reservation"
)

// MaxReference bounds a typed reference: 8 characters, a dash and some spaces.
const MaxReference = 20

// Reference returns the stored form of a booking reference typed by a person
// (docs/manage-booking.md#booking-reference): with or without the dash (K7Q2-M9XD, k7q2m9xd), spaces ignored,
// any case. Crockford's decoding rules also read I and L as 1 and O as 0, the
// characters the alphabet leaves out because they are mistaken for those digits.
func Reference(field, raw string) (string, error) {
	ref, ok := ReferenceLookup(raw)
	if ok {
		return ref, nil
	}
	p := strings.TrimSpace(raw)
	if p == "" {
		return "", required(field)
	}
	if err := Check(field, p, MaxReference); err != nil {
		return "", err
	}
	return "", fault.Coded(fault.Invalid, "err.input.reference", "Value", p, "Field", i18n.FieldName(field))
}

// ReferenceLookup is the stored form of a text that reads as a reference (history
// search); ok false when it does not.
func ReferenceLookup(raw string) (string, bool) {
	p := strings.TrimSpace(raw)
	if p == "" || len(p) > MaxReference || hasControl(p, false) {
		return "", false
	}
	var b strings.Builder
	for _, c := range strings.ToUpper(p) {
		switch c {
		case '-', ' ':
			continue
		case 'I', 'L':
			c = '1'
		case 'O':
			c = '0'
		}
		b.WriteRune(c)
	}
	ref := b.String()
	if !reservation.IsReference(ref) {
		return "", false
	}
	return ref, true
}
