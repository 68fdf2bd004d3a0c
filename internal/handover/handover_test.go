package handover_test

import (
	"testing"

	"parking/internal/fault"
	"parking/internal/handover"
	"parking/internal/reservation"
)

// The hand-over's fields are optional and bounded (docs/photos.md); at most one is
// read, and the keys count at the start only through its flag.
func TestParse(t *testing.T) {
	h, keys, err := handover.Parse(reservation.PhaseEntry, nil)
	if err != nil || keys || !h.Empty() || h.Phase != reservation.PhaseEntry {
		t.Fatalf("nothing given: %+v %v %v", h, keys, err)
	}
	h, keys, err = handover.Parse(reservation.PhaseExit, []handover.Input{{MileageKm: "12345", FuelPercent: "50", DamageNotes: " rayón ", KeysHandedOver: true}})
	if err != nil || !keys || h.Phase != reservation.PhaseExit || h.MileageKm == nil || *h.MileageKm != 12345 ||
		h.FuelPercent == nil || *h.FuelPercent != 50 || h.DamageNotes == nil || *h.DamageNotes != "rayón" {
		t.Fatalf("all given: %+v %v %v", h, keys, err)
	}
	for _, in := range []handover.Input{{FuelPercent: "101"}, {MileageKm: "-1"}, {MileageKm: "10000000"}} {
		if _, _, err := handover.Parse(reservation.PhaseEntry, []handover.Input{in}); fault.KindOf(err) != fault.Invalid {
			t.Errorf("%+v: %v, want Invalid", in, err)
		}
	}
}

func TestParsePhase(t *testing.T) {
	for raw, want := range map[string]string{"": reservation.PhaseEntry, " ENTRADA ": reservation.PhaseEntry, "salida": reservation.PhaseExit} {
		if got, err := handover.ParsePhase(raw); err != nil || got != want {
			t.Errorf("ParsePhase(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	if _, err := handover.ParsePhase("dentro"); fault.KindOf(err) != fault.Invalid {
		t.Errorf("ParsePhase(dentro): %v, want Invalid", err)
	}
}
