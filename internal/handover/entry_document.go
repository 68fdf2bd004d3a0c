package handover

import (
	"context"
	"fmt"

	"parking/internal/fault"
	"parking/internal/receipt"
	"parking/internal/records"
	"parking/internal/reservation"
)

// EntryDocument is the justificante de entrada of the reservation d (Ley 40/2002,
// art. 3.1.b; docs/entry-document.md): the car park (the facility settings now),
// the vehicle, whether the keys were handed over, the moment of check-in, the spot
// and the booked exit, in Spanish and the booking's language
// (docs/languages.md#receipts-and-the-entry-document). It exists from the start
// on (EN CURSO or FINALIZADA); before it, the refusal names the state (400). The
// one builder of the staff, owner and manage-link surfaces; they add the
// conditions' address.
func (s *Service) EntryDocument(ctx context.Context, d records.Detail) (receipt.Entry, error) {
	r := d.Reservation
	if r.Status != reservation.InCourse && r.Status != reservation.Finalized {
		return receipt.Entry{}, fault.Coded(fault.Invalid, "err.handover.entry_document_state", "ID", r.ID,
			"Status", r.Status.Word(), "InCourse", reservation.InCourse.Word())

	}
	f, err := s.store.Catalog().Facility(ctx)
	if err != nil {
		return receipt.Entry{}, fmt.Errorf("entry document of %d: %w", r.ID, err)
	}
	e := receipt.Entry{
		Facility: receipt.Seller{Name: f.Name, TaxID: f.TaxID, Address: f.Address}, Phone: f.Phone,
		ReservationID: r.ID, Reference: reservation.ShowReference(r.Reference),
		Plate: d.Vehicle.LicensePlate, Brand: d.Vehicle.Brand, Model: d.Vehicle.Model, Color: d.Vehicle.Color,
		EntryAt: r.Entry, KeysHandedOver: r.KeysHandedOver, Exit: r.Exit, Lang: r.Language,
	}
	if r.CheckedInAt != nil {
		e.EntryAt = *r.CheckedInAt
	} else if h, ok := d.Handover(reservation.PhaseEntry); ok {
		// A stay started before the moment of check-in was kept: its entry hand-over.
		e.EntryAt = h.RecordedAt
	}
	if r.Spot != nil {
		e.Spot = *r.Spot
	}
	return e, nil
}
