package booking

import (
	"context"
	"fmt"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Administrator transitions (docs/reservations.md#transitions). Each is one transaction:
// the row is read under LockReservation (FOR UPDATE on PostgreSQL; SQLite write
// transactions are one at a time), the spec's conditions are checked in the spec's
// order, and the change is one conditional UPDATE on the expected status. Of two
// staff clicking at once, the second sees the first one's result and is refused.

// statusMoved is the refusal when the conditional UPDATE found the row in another
// state than the one just read (kept for safety: the row lock makes it unreachable).
func statusMoved(id int64) error {
	return fault.Coded(fault.Invalid, "err.booking.status_moved", "ID", id)
}

// CheckOutInput is what staff send to finalize: the payment method, and optionally
// the moment of check-out (a stay typed in after the fact), the amount they were
// shown and the hand-over at check-out.
type CheckOutInput struct {
	Method        string
	CheckedOutAt  *time.Time   // nil: now
	ExpectedTotal *money.Cents // nil: not checked
	Handover      handover.Input
}

// AdminCancel cancels a reservation: PENDIENTE → CANCELADA, spot set to null (spec,
// administrator cancel). EN CURSO cannot be cancelled; the terminal states neither.
func (s *Service) AdminCancel(ctx context.Context, id int64) (reservation.Reservation, error) {
	var out, before reservation.Reservation
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		before = r
		if !reservation.For(r.Status).Cancel {
			return fault.Coded(fault.Invalid, "err.booking.cancel_status", "ID", id, "Status", r.Status.Word(), "Required", reservation.Pending.Word())
		}
		prev, err := s.trail.stateOf(ctx, tx, r)
		if err != nil {
			return err
		}
		out, err = s.cancelLocked(ctx, tx, r, prev)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("cancel reservation %d: %w", id, err)
	}
	s.report.announceTransition(feed.Cancelled, out, before.Spot, before.Status)
	return out, nil
}

// cancelLocked cancels r, locked and checked PENDIENTE by the caller (staff or
// the manage link), inside its transaction: the conditional update, then the end
// of the transition (the days freed at once, the reminder dropped, the trail with
// prev as the state before).
func (s *Service) cancelLocked(ctx context.Context, tx *store.Tx, r reservation.Reservation, prev resState) (reservation.Reservation, error) {
	applied, err := tx.Reservations().MarkCancelled(ctx, r.ID, reservation.Pending)
	if err != nil {
		return r, err
	}
	return s.endTransition(ctx, tx, r, applied, transition{action: audit.ActionCancel, before: prev, reminder: true})
}

// transition is what the end of a status change records, besides the row itself.
type transition struct {
	action   string               // the audit trail's action
	before   resState             // the trail's state before
	handover reservation.Handover // recorded when anything was
	reminder bool                 // the day-before reminder follows the new status (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder)
}

// endTransition ends a status change of r inside its transaction, once its
// conditional update ran (applied: it found the expected status): the hand-over
// recorded, the row read again, its days counted anew (docs/capacity.md), the
// reminder synced when t.reminder, the trail written. It returns the row as it is now.
func (s *Service) endTransition(ctx context.Context, tx *store.Tx, r reservation.Reservation, applied bool, t transition) (reservation.Reservation, error) {
	if !applied {
		return r, statusMoved(r.ID)
	}
	if err := handover.Save(ctx, tx, r.ID, t.handover); err != nil {
		return r, err
	}
	out, err := tx.Reservations().Reservation(ctx, r.ID)
	if err != nil {
		return r, err
	}
	if err := s.occupy(ctx, tx, r.ID, stayOf(r), stayOf(out), noCheck, false); err != nil {
		return out, err
	}
	if t.reminder {
		if err := s.notes.syncReminder(ctx, tx, r.ID); err != nil {
			return out, err
		}
	}
	return out, s.trail.auditTransition(ctx, tx, t.action, t.before)
}

// announceTransition tells, after the commit, the live board (previous: the spot
// before) and the status counters that out moved from status from.
func (s *reporter) announceTransition(kind feed.Kind, out reservation.Reservation, previous *string, from reservation.Status) {
	s.publishParking(kind, out, previous)
	s.moved(from, out.Status)
}

func extraIDs(booked []reservation.BookedExtraDetail) []int64 {
	ids := make([]int64, len(booked))
	for i, e := range booked {
		ids[i] = e.ID
	}
	return ids
}

// Check-in: the staff start of a reservation with its hand-over record
// (internal/handover), in one transaction; the queries are in store/checkin.go and the
// page and JSON route in web/ui/reservations.go (adminStart).

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
