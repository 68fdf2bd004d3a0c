package input_test

import (
	"testing"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/reservation"
)

// docs/manage-booking.md#booking-reference: a reference is accepted with or without the dash, in any case,
// with spaces around; Crockford's I/L → 1 and O → 0; anything else is a 400.
func TestReference(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"K7Q2-M9XD", "K7Q2M9XD"},
		{"k7q2m9xd", "K7Q2M9XD"},
		{"  k7q2 - m9xd ", "K7Q2M9XD"},
		{"K7Q2-M9XD\t", "K7Q2M9XD"},
		{"AOIL-0000", "A011" + "0000"},
	} {
		got, err := input.Reference("reference", c.in)
		if err != nil || got != c.want {
			t.Errorf("Reference(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "K7Q2-M9X", "K7Q2-M9XDD", "K7Q2-M9XU", "K7Q2_M9XD", "K7Q2\x00M9XD", "ÑÑÑÑ-ÑÑÑÑ", "K7Q2-M9XD-K7Q2-M9XD1"} {
		if _, err := input.Reference("reference", in); fault.KindOf(err) != fault.Invalid {
			t.Errorf("Reference(%q): err %v, want a 400", in, err)
		}
	}
}

// New references are 8 characters of the alphabet, read back unchanged, and not
// repeated in a large sample.
func TestNewReference(t *testing.T) {
	seen := map[string]bool{}
	for range 10000 {
		r := reservation.NewReference()
		if !reservation.IsReference(r) {
			t.Fatalf("NewReference() = %q", r)
		}
		if got, err := input.Reference("reference", reservation.ShowReference(r)); err != nil || got != r {
			t.Fatalf("shown %q read back as %q, %v", reservation.ShowReference(r), got, err)
		}
		if seen[r] {
			t.Fatalf("%q drawn twice in 10000", r)
		}
		seen[r] = true
	}
}
