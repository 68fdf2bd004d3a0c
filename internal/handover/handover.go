package handover

import (
	"context"

	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Hand-over limits (docs/photos.md): an odometer reading in km, and the fuel or
// charge level as a percentage (0–100: it serves petrol, diesel and electric
// alike; a gauge in eighths is 12.5 % a step).
const (
	MaxMileageKm   = 9_999_999
	MaxDamageNotes = 2000
)

// Input is what staff type at the start or at finalize; every field is
// optional ("" = not recorded). KeysHandedOver is read at the start only: the
// customer left the keys (the entry document says so, docs/entry-document.md).
type Input struct {
	MileageKm      string
	FuelPercent    string
	DamageNotes    string
	KeysHandedOver bool
	// Spot is the spot given with the start ("" keeps the stored one; the start
	// only, docs/reservations.md#check-in-on-a-phone).
	Spot string
}

// Read checks the fields against the input rules for phase.
func (h Input) Read(phase string) (reservation.Handover, error) {
	out := reservation.Handover{Phase: phase}
	var err error
	if out.MileageKm, err = input.Whole("mileage_km", h.MileageKm, 0, MaxMileageKm); err != nil {
		return out, err
	}
	if out.FuelPercent, err = input.Whole("fuel_percent", h.FuelPercent, 0, 100); err != nil {
		return out, err
	}
	notes, err := input.Notes("damage_notes", h.DamageNotes, MaxDamageNotes)
	if err != nil {
		return out, err
	}
	if notes != "" {
		out.DamageNotes = &notes
	}
	return out, nil
}

// Parse reads the optional hand-over of phase (at most one given) and
// whether the keys were handed over.
func Parse(phase string, in []Input) (reservation.Handover, bool, error) {
	if len(in) == 0 {
		return reservation.Handover{Phase: phase}, false, nil
	}
	h, err := in[0].Read(phase)
	return h, in[0].KeysHandedOver, err
}

// Save records h in the transaction of its transition, when anything
// was recorded.
func Save(ctx context.Context, tx *store.Tx, id int64, h reservation.Handover) error {
	if h.Empty() {
		return nil
	}
	return tx.Handover().SaveHandover(ctx, id, h)
}
