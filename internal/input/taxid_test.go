package input_test

import (
	"testing"

	"parking/internal/input"
)

func TestTaxID(t *testing.T) {
	valid := map[string]string{
		"12345678Z":      "12345678Z", // 12345678 mod 23 = 14 → Z
		"12.345.678-z":   "12345678Z",
		"00000000T":      "00000000T",
		"X1234567L":      "X1234567L", // 01234567 mod 23 = 19 → L
		"Y1234567X":      "Y1234567X", // 11234567 mod 23 = 10 → X
		"Z1234567R":      "Z1234567R", // 21234567 mod 23 = 1 → R
		"B12345674":      "B12345674", // 2+2+6+1+5 + 2+4+6 = 26 → 4
		"es-b1234567-4":  "B12345674",
		"P1234567D":      "P1234567D", // the same sum as letter: 4 → D
		"G12345674":      "G12345674", // G: digit or letter
		"G1234567D":      "G1234567D",
		"K1234567L":      "K1234567L",
		" ESX1234567L  ": "X1234567L",
	}
	for in, want := range valid {
		got, err := input.TaxID("tax_id", in)
		if err != nil || got != want {
			t.Errorf("TaxID(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "12345678A", "1234567Z", "X1234567Z", "B12345675", "B1234567D", "P12345674",
		"A1234567", "I12345674", "12345678Z9", "ñ2345678Z", "12345678\x00"} {
		if got, err := input.TaxID("tax_id", in); err == nil {
			t.Errorf("TaxID(%q) = %q, want a refusal", in, got)
		}
	}
}
