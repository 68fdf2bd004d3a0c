package booking

// Check-in (docs/reservations.md#transitions): the staff start of a reservation with its
// hand-over record (internal/handover), in one transaction; the queries are in
// store/checkin.go and the page and JSON route in web/ui/reservations.go (adminStart).

import (
	"context"
	"fmt"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Start checks a vehicle in: PENDIENTE → EN CURSO. docs/reservations.md#transitions: the
// checks run in this order — status PENDIENTE, at least 5 photos, a parking spot
// assigned — and the first one broken is the refusal. The entry date becomes
// non-editable; a vehicle-entry notification is triggered. The optional hand-over
// (mileage, fuel level, damage notes; docs/photos.md) is recorded with it, and the
// moment of check-in with whether the keys were handed over (the entry document,
// docs/entry-document.md).
func (s *Service) Start(ctx context.Context, id int64, hand ...handover.Input) (reservation.Reservation, error) {
	var out reservation.Reservation
	h, keys, err := handover.Parse(reservation.PhaseEntry, hand)
	if err != nil {
		return out, err
	}
	// The spot given with the start (the check-in dialog, docs/reservations.md#check-in-on-a-phone),
	// in the same transaction: a spot held by another stay is a 409 and a refused start
	// keeps the spot it had; "" keeps the stored spot.
	var spot string
	if len(hand) > 0 {
		if spot, err = input.Spot("cod_parking_spot", hand[0].Spot); err != nil {
			return out, err
		}
	}
	var entry time.Time
	var exit *time.Time
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		if !reservation.For(r.Status).Start {
			return fault.Coded(fault.Invalid, "err.booking.start_status", "ID", id, "Status", r.Status.Word(), "Required", reservation.Pending.Word())
		}
		n, err := tx.Handover().PhotoCount(ctx, id)
		if err != nil {
			return err
		}
		if n < reservation.MinPhotosToStart {
			return fault.Coded(fault.Invalid, "err.booking.start_photos", "ID", id, "Photos", n, "Min", reservation.MinPhotosToStart)
		}
		before, err := s.trail.stateOf(ctx, tx, r)
		if err != nil {
			return err
		}
		if spot != "" && (r.Spot == nil || *r.Spot != spot) {
			entry, exit = r.Entry, r.Exit
			if err := s.spots.ensureSpotFree(ctx, tx, id, spot, r.Entry, r.Exit); err != nil {
				return err
			}
			if _, err := tx.Reservations().AssignSpot(ctx, id, spot); err != nil {
				return err
			}
			r.Spot = &spot
		}
		if r.Spot == nil || input.Blank(*r.Spot) {
			return fault.Coded(fault.Invalid, "err.booking.start_no_spot", "ID", id)
		}
		applied, err := tx.Reservations().MarkStarted(ctx, id, keys)
		if err != nil {
			return err
		}
		// docs/capacity.md#refusals: the car is in; past its exit it keeps counting (never refused).
		// docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: a car that came in needs no reminder.
		out, err = s.endTransition(ctx, tx, r, applied, transition{action: audit.ActionStart, before: before, handover: h, reminder: true})
		if err != nil {
			return err
		}
		// Spec: a vehicle-entry notification is triggered, in this transaction (docs/notifications.md).
		return s.notes.enqueue(ctx, tx, notify.VehicleEntry, id, nil)
	})
	if err != nil {
		if spot != "" {
			err = s.spots.spotViolation(ctx, err, id, spot, entry, exit)
		}
		return out, fmt.Errorf("start reservation %d: %w", id, err)
	}
	s.report.announceTransition(feed.Started, out, out.Spot, reservation.Pending)
	return out, nil
}
