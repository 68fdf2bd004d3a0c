package input_test

import (
	"errors"
	"testing"

	"parking/internal/fault"
	"parking/internal/input"
)

// A record's number typed in a search or a filter: digits above zero, spaces around
// them ignored; a blank filter is no filter, anything else a refusal that repeats it.
func TestReservationNumbers(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, " 42 ": 42, "9223372036854775807": 9223372036854775807} {
		if got, ok := input.IDLookup(in); !ok || got != want {
			t.Errorf("IDLookup(%q) = %d, %v; want %d", in, got, ok, want)
		}
		if got, err := input.ReservationID("reservation", in); err != nil || got != want {
			t.Errorf("ReservationID(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-3", "12a", "#12", "1 2", "9223372036854775808", "1.5"} {
		if got, ok := input.IDLookup(in); ok {
			t.Errorf("IDLookup(%q) = %d, want none", in, got)
		}
		_, err := input.ReservationID("reservation", in)
		var f *fault.Error
		if !errors.As(err, &f) || f.Code != "err.records.reservation_number" || len(fault.Fields(err)) != 1 {
			t.Errorf("ReservationID(%q): %v, want the refusal naming the field", in, err)
		}
	}
	for _, in := range []string{"", "   "} {
		if got, err := input.ReservationID("reservation", in); err != nil || got != 0 {
			t.Errorf("ReservationID(%q) = %d, %v; want no filter", in, got, err)
		}
	}
}
