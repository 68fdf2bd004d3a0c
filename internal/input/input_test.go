package input_test

import (
	"strings"
	"testing"

	"parking/internal/fault"
	"parking/internal/input"
)

func TestPhoneForms(t *testing.T) {
	es := input.Rules{} // zero value: ES
	for _, typed := range []string{"622 333 444", "622333444", "+34 622 333 444", " +34622333444 ", "0034 622-333-444", "(+34) 622.333.444"} {
		got, err := es.Phone("phone", typed)
		if err != nil || got != "+34622333444" {
			t.Errorf("Phone(%q) = %q, %v; want +34622333444", typed, got, err)
		}
	}
	pt, err := input.New("pt")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := pt.Phone("phone", "912 345 678"); err != nil || got != "+351912345678" {
		t.Errorf("PT Phone = %q, %v", got, err)
	}
	// A number with its country code reads the same in any region.
	if got, err := pt.Phone("phone", "+34 622 333 444"); err != nil || got != "+34622333444" {
		t.Errorf("PT Phone(+34…) = %q, %v", got, err)
	}
	for _, bad := range []string{"abc", "6", "622", "12345", "600-ABC", "622 333 444 ext 5", "+", "622333444\x00", "1234567890123456789012", "++34622333444", "622333444#1"} {
		_, err := es.Phone("telefono", bad)
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "telefono") {
			t.Errorf("Phone(%q) error = %v; want a 400 naming telefono", bad, err)
		}
	}
	if _, err := es.Phone("phone", "  "); fault.KindOf(err) != fault.Invalid {
		t.Errorf("empty phone: %v", err)
	}
	if got, ok := es.PhoneLookup("622 333 444"); !ok || got != "+34622333444" {
		t.Errorf("PhoneLookup = %q, %v", got, ok)
	}
	if _, ok := es.PhoneLookup("García"); ok {
		t.Error("PhoneLookup(García) matched")
	}
}

func TestNewRegion(t *testing.T) {
	for _, bad := range []string{"", "XX", "Spain", "E"} {
		if _, err := input.New(bad); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
	r, err := input.New(" es ")
	if err != nil || r.Region() != "ES" {
		t.Errorf("New(es) = %v, %v", r.Region(), err)
	}
}

func TestPlateForms(t *testing.T) {
	for _, typed := range []string{"9988 LMN", "9988-LMN", "9988lmn", " 9988 - lmn "} {
		if got, err := input.Plate("license_plate", typed); err != nil || got != "9988LMN" {
			t.Errorf("Plate(%q) = %q, %v", typed, got, err)
		}
	}
	if got, err := input.Plate("license_plate", "lö-ab 12"); err != nil || got != "LÖAB12" {
		t.Errorf("Plate with a letter beyond ASCII = %q, %v", got, err)
	}
	for _, bad := range []string{"<B>X</B>", "A", "1234.ABC", "ABCDEFGHIJ123456", "AB_12", "AB\x00C", "--", "AB\tC"} {
		_, err := input.Plate("license_plate", bad)
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "license_plate") {
			t.Errorf("Plate(%q) error = %v; want a 400 naming license_plate", bad, err)
		}
	}
	// Look-alikes from other scripts are refused: Cyrillic А and Greek Ο.
	for _, lookalike := range []string{"9988 LMА", "Ο123ABC", "ÁB1234"} {
		if _, err := input.Plate("license_plate", lookalike); err == nil {
			t.Errorf("Plate(%q) accepted a letter outside A–Z and the umlauts", lookalike)
		}
	}
	if got := input.PlateForm(" 99-88 lm"); got != "9988LM" {
		t.Errorf("PlateForm = %q", got)
	}
}

func TestEmail(t *testing.T) {
	if got, err := input.Email("email", "  Ana@Example.es "); err != nil || got != "Ana@Example.es" {
		t.Errorf("Email = %q, %v", got, err)
	}
	for _, bad := range []string{"ana", "ana@", "@x.es", "ana@x", "ana@x.", "ana@.es", "a b@x.es", "a@b@x.es", "<a>@x.es", "a@x..es", "a\x00@x.es", strings.Repeat("a", 250) + "@x.es", ""} {
		_, err := input.Email("email", bad)
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "email") {
			t.Errorf("Email(%q) error = %v; want a 400 naming email", bad, err)
		}
	}
}

func TestTextRules(t *testing.T) {
	if got, err := input.Name("full_name", "  Ana  "); err != nil || got != "Ana" {
		t.Errorf("Name = %q, %v", got, err)
	}
	for _, bad := range []string{"", "   ", strings.Repeat("ñ", 101), "Ana\x00", "Ana\nGarcía", "A\x7fB", "\xff\xfe"} {
		_, err := input.Name("full_name", bad)
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "full_name") {
			t.Errorf("Name(%q) error = %v", bad, err)
		}
	}
	if _, err := input.Name("full_name", strings.Repeat("ñ", 100)); err != nil {
		t.Errorf("100 characters refused: %v", err)
	}
	if got, err := input.Notes("notes", " línea 1\n\tlínea 2\r\n ", input.MaxNotes); err != nil || got != "línea 1\n\tlínea 2" {
		t.Errorf("Notes = %q, %v", got, err)
	}
	if _, err := input.Notes("notes", "a\x00b", input.MaxNotes); fault.KindOf(err) != fault.Invalid {
		t.Errorf("Notes with NUL: %v", err)
	}
	if _, err := input.Text("brand", "a\tb", input.MaxText); fault.KindOf(err) != fault.Invalid {
		t.Errorf("Text with a tab: %v", err)
	}
	if got, err := input.Spot("cod_parking_spot", " a-12 "); err != nil || got != "A-12" {
		t.Errorf("Spot = %q, %v", got, err)
	}
	if _, err := input.Text("brand", strings.Repeat("x", 51), input.MaxText); fault.KindOf(err) != fault.Invalid {
		t.Errorf("51 characters: %v", err)
	}
}

// Bidirectional controls are refused like control characters, in one-line fields
// and in notes; neighbouring characters (U+200E, U+2065, U+206A) are kept.
func TestBidiControlsRefused(t *testing.T) {
	for _, c := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		v := "Ana" + string(c) + "Pérez"
		if err := input.Control("full_name", v); err == nil || !strings.Contains(err.Error(), "full_name") {
			t.Errorf("Control(%U): %v, want a refusal naming the field", c, err)
		}
		if _, err := input.Notes("notes", v, 2000); err == nil {
			t.Errorf("Notes(%U) accepted", c)
		}
	}
	for _, c := range []rune{0x200e, 0x2065, 0x206a, 'é'} {
		if err := input.Control("full_name", "Ana"+string(c)); err != nil {
			t.Errorf("Control(%U): %v", c, err)
		}
	}
}

// A phone typed as at home in another country is refused with a message asking
// for the country code, with the number as it should be typed (docs/input-rules.md#phones).
func TestForeignPhone(t *testing.T) {
	es := input.Rules{}
	for typed, want := range map[string]string{
		"07911 123456":   "+44 7911 123456",
		"0151 23456789":  "+49 1512 3456789",
		"06 12 34 56 78": "+33 6 12 34 56 78",
		"087 123 4567":   "+353 87 123 4567",
	} {
		got, ok := es.ForeignPhone(typed)
		if !ok || got != want {
			t.Errorf("ForeignPhone(%q) = %q, %v; want %q", typed, got, ok, want)
		}
		_, err := es.Phone("phone", typed)
		msg := fault.MessageOf(err, "")
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(msg, "phone") || !strings.Contains(msg, "prefijo") || !strings.Contains(msg, want) {
			t.Errorf("Phone(%q) error = %v; want a 400 naming phone, asking for the country code with %s", typed, err, want)
		}
	}
	// Valid at home, typed with a country code, or valid nowhere nearby: not foreign.
	for _, typed := range []string{"612 345 678", "+44 7911 123456", "0044 7911 123456", "12345", "030 123456", "abc", ""} {
		if got, ok := es.ForeignPhone(typed); ok {
			t.Errorf("ForeignPhone(%q) = %q; want not foreign", typed, got)
		}
	}
	// In the United Kingdom's rules a British mobile is at home.
	gb, err := input.New("GB")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := gb.Phone("phone", "07911 123456"); err != nil || got != "+447911123456" {
		t.Errorf("GB Phone = %q, %v", got, err)
	}
}
