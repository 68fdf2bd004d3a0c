// Package money holds exact amounts: euros as integer cents, and price multipliers
// as integer ten-thousandths. No binary floating point touches a price (docs/pricing.md#money).
package money

import (
	"errors"
	"strconv"
	"strings"
)

// Cents is an amount of euro cents.
type Cents int64

// MaxCents bounds stored totals: decimal(10,2) in the spec.
const MaxCents Cents = 99_999_999_99

// String formats as euros with two decimals: 1234 -> "12.34", -5 -> "-0.05".
func (c Cents) String() string {
	var b [24]byte
	return string(c.appendText(b[:0]))
}

func (c Cents) appendText(b []byte) []byte {
	v := int64(c)
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	b = strconv.AppendInt(b, v/100, 10)
	b = append(b, '.')
	frac := v % 100
	b = append(b, byte('0'+frac/10), byte('0'+frac%10))
	return b
}

// MarshalJSON writes a JSON number with exactly two decimals.
func (c Cents) MarshalJSON() ([]byte, error) { return c.appendText(nil), nil }

// AppendJSON appends what MarshalJSON writes to b.
func (c Cents) AppendJSON(b []byte) []byte { return c.appendText(b) }

// UnmarshalJSON reads a JSON number (or numeric string) of at most two decimals.
func (c *Cents) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	v, err := ParseCents(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ErrAmount is returned for text that is not an amount of at most two decimals.
var ErrAmount = errors.New("importe no válido: use un número con hasta 2 decimales")

// ParseCents reads "12", "12.3", "12.34", "-1.5" or "12,34" exactly; more than two
// decimals is refused rather than rounded, since the caller typed a price.
func ParseCents(s string) (Cents, error) {
	units, scale, err := parseFixed(s, 2)
	if err != nil || scale != 2 {
		return 0, ErrAmount
	}
	return Cents(units), nil
}

// Multiplier is a price coefficient in ten-thousandths: 1.25 is 12500.
type Multiplier int64

// One is the neutral multiplier.
const One Multiplier = 10_000

// ErrMultiplier is returned for text that is not a multiplier of at most four decimals.
var ErrMultiplier = errors.New("coeficiente no válido: use un número con hasta 4 decimales")

// ParseMultiplier reads "1", "1.25", "0.5" exactly (at most 4 decimals).
func ParseMultiplier(s string) (Multiplier, error) {
	units, scale, err := parseFixed(s, 4)
	if err != nil || scale != 4 {
		return 0, ErrMultiplier
	}
	return Multiplier(units), nil
}

// String formats with the fewest decimals that keep the value: "1.25", "2", "0.5".
func (m Multiplier) String() string {
	var b [24]byte
	return string(m.appendText(b[:0]))
}

func (m Multiplier) appendText(b []byte) []byte {
	whole, frac := int64(m)/10_000, int64(m)%10_000
	if frac < 0 {
		frac = -frac
	}
	if m < 0 && whole == 0 {
		b = append(b, '-')
	}
	b = strconv.AppendInt(b, whole, 10)
	if frac == 0 {
		return b
	}
	b = append(b, '.')
	d := [4]byte{byte('0' + frac/1000), byte('0' + frac/100%10), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := 4
	for d[n-1] == '0' {
		n--
	}
	return append(b, d[:n]...)
}

// MarshalJSON writes a JSON number.
func (m Multiplier) MarshalJSON() ([]byte, error) { return m.appendText(nil), nil }

// AppendJSON appends what MarshalJSON writes to b.
func (m Multiplier) AppendJSON(b []byte) []byte { return m.appendText(b) }

// UnmarshalJSON reads a JSON number (or numeric string) of at most four decimals.
func (m *Multiplier) UnmarshalJSON(b []byte) error {
	v, err := ParseMultiplier(strings.Trim(string(b), `"`))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// parseFixed reads a decimal with at most maxScale fractional digits and returns it
// scaled to exactly maxScale digits. A comma is accepted as the decimal separator.
func parseFixed(s string, maxScale int) (int64, int, error) {
	s = strings.TrimSpace(strings.Replace(s, ",", ".", 1))
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || len(frac) > maxScale || len(whole) > 12 {
		return 0, 0, errors.New("bad number")
	}
	if whole == "" {
		whole = "0"
	}
	var v int64
	for _, r := range whole + frac + strings.Repeat("0", maxScale-len(frac)) {
		if r < '0' || r > '9' {
			return 0, 0, errors.New("bad number")
		}
		v = v*10 + int64(r-'0')
	}
	if neg {
		v = -v
	}
	return v, maxScale, nil
}
