package input

import (
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
)

// Spanish tax identification numbers, for a full invoice (factura completa,
// docs/receipts.md#full-invoice-factura-completa; RD 1619/2012 art. 6: the recipient's NIF). Three forms, each
// with its check character:
//   - NIF of a person (DNI): 8 digits and a letter, the digits modulo 23 indexing
//     "TRWAGMYFPDXBNJZSQVHLCKE"; K, L and M followed by 7 digits and a letter too;
//   - NIE of a foreign resident: X, Y or Z (read as 0, 1, 2), 7 digits, the letter;
//   - NIF of a company (formerly CIF): a letter for the kind of entity, 7 digits,
//     and a check digit or letter from the digits (the Luhn-like sum below).
//
// Spaces, dashes and dots are dropped, letters upper-cased, and an "ES" VAT prefix
// accepted: "es-b1234567-4" is B12345674.

const dniLetters = "TRWAGMYFPDXBNJZSQVHLCKE"

// TaxID returns a Spanish tax id in its stored form or a refusal naming field.
func TaxID(field, raw string) (string, error) {
	if err := Check(field, raw, MaxText); err != nil {
		return "", err
	}
	v := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.':
			return -1
		}
		return r
	}, strings.ToUpper(strings.TrimSpace(raw)))
	if v == "" {
		return "", required(field)
	}
	if len(v) == 11 && strings.HasPrefix(v, "ES") {
		v = v[2:]
	}
	if validTaxID(v) {
		return v, nil
	}
	return "", fault.Coded(fault.Invalid, "err.input.tax_id", "Field", i18n.FieldName(field))
}

func validTaxID(v string) bool {
	if len(v) != 9 {
		return false
	}
	first, last := v[0], v[8]
	switch {
	case isDigit(first): // DNI
		return allDigits(v[:8]) && dniLetter(v[:8]) == last
	case first == 'X' || first == 'Y' || first == 'Z': // NIE
		return allDigits(v[1:8]) && dniLetter(string(rune('0'+strings.IndexByte("XYZ", first)))+v[1:8]) == last
	case first == 'K' || first == 'L' || first == 'M':
		return allDigits(v[1:8]) && dniLetter(v[1:8]) == last
	case strings.IndexByte("ABCDEFGHJNPQRSUVW", first) >= 0: // entity
		if !allDigits(v[1:8]) {
			return false
		}
		c := cifControl(v[1:8])
		digit, letter := byte('0'+c), "JABCDEFGHI"[c]
		switch {
		case strings.IndexByte("PQRSNW", first) >= 0:
			return last == letter
		case strings.IndexByte("ABEH", first) >= 0:
			return last == digit
		default:
			return last == digit || last == letter
		}
	}
	return false
}

func dniLetter(digits string) byte {
	n := 0
	for i := 0; i < len(digits); i++ {
		n = (n*10 + int(digits[i]-'0')) % 23
	}
	return dniLetters[n]
}

// cifControl is the check value of an entity's 7 digits: the digits in even
// places added, those in odd places doubled with their digits added, and the
// complement to ten of the sum's last digit.
func cifControl(d string) int {
	sum := 0
	for i := 0; i < 7; i++ {
		n := int(d[i] - '0')
		if i%2 == 0 {
			n *= 2
			n = n/10 + n%10
		}
		sum += n
	}
	return (10 - sum%10) % 10
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
