package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/money"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// ErrNotYours is the one answer for a reservation that does not exist or belongs to
// someone else (docs/reservations.md#ownership), so ids cannot be probed.
var ErrNotYours = fault.Coded(fault.Forbidden, "err.booking.not_yours")

// CustomerCancel is the customer's cancel (docs/reservations.md#transitions: PENDIENTE →
// CANCELADA by its owner, spot cleared). The change is one conditional update
// matching id, owner and status, so of two concurrent cancels exactly one wins;
// the loser reads the row to say why it was refused.
func (s *Service) CustomerCancel(ctx context.Context, customerID, reservationID int64) (reservation.Reservation, error) {
	var out reservation.Reservation
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		// Only a reservation the account sees (accountSees, docs/privacy.md#who-sees-a-booking).
		before, err := tx.Reservations().Reservation(ctx, reservationID)
		if errors.Is(err, store.ErrNotFound) {
			return ErrNotYours
		}
		if err != nil {
			return err
		}
		if ok, err := accountSees(customerID)(ctx, tx.Customers(), before); err != nil {
			return err
		} else if !ok {
			return ErrNotYours
		}
		// The state before, for the trail (read in this transaction, before the
		// conditional update).
		prev, perr := s.trail.readState(ctx, tx, reservationID, false)
		ok, err := tx.Customers().CancelOwnReservation(ctx, reservationID, customerID)
		if err != nil {
			return err
		}
		r, err := tx.Reservations().Reservation(ctx, reservationID)
		if errors.Is(err, store.ErrNotFound) {
			return ErrNotYours
		}
		if err != nil {
			return err
		}
		if r.CustomerID != customerID {
			return ErrNotYours
		}
		if !ok {
			// docs/errors.md#refusals-by-operation: customer cancel, 400 when the status is not PENDIENTE (naming it).
			return fault.Coded(fault.Invalid, "err.booking.customer_cancel_status", "Status", r.Status.Word())
		}
		if perr != nil {
			return perr
		}
		out = r
		// docs/capacity.md#what-counts: the cancelled stay (PENDIENTE until now) frees its days at once.
		was := stayOf(r)
		was.Active = true
		if err := s.occupy(ctx, tx, r.ID, was, stayOf(r), noCheck, false); err != nil {
			return err
		}
		if err := s.notes.syncReminder(ctx, tx, r.ID); err != nil { // docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: dropped
			return err
		}
		return s.trail.auditTransition(ctx, tx, audit.ActionCancel, prev)
	})
	if err != nil {
		return reservation.Reservation{}, wrapOp(err, "cancel reservation %d", reservationID)
	}
	s.report.publishParking(feed.Cancelled, out, nil) // the live board (board_feed.go)
	// Only PENDIENTE is cancelled (the conditional update).
	s.report.moved(reservation.Pending, reservation.Cancelled)
	return out, nil
}

// CustomerEdit is the customer's change to a reservation (docs/errors.md#operation-responses). A zero or
// nil field keeps the stored value: MainService 0, Entry zero, Exit nil, Extras nil
// (an empty, non-nil Extras removes them all).
type CustomerEdit struct {
	MainService int64
	Entry       time.Time
	Exit        *time.Time
	Extras      []int64
}

// StayDetails is the priced part of a reservation, as the "reservation modified"
// notification needs it (docs/notifications.md#payloads: original and updated details).
type StayDetails struct {
	Entry           time.Time
	Exit            *time.Time
	TotalPrice      money.Cents
	MainServiceID   int64
	MainServiceName string
	Extras          []reservation.BookedExtraDetail
}

// Edited is the outcome of a customer edit.
type Edited struct {
	Reservation reservation.Reservation // as stored after the edit
	Original    StayDetails
	Updated     StayDetails
	Quote       pricing.Quote
}

// Changed reports whether the edit changed dates, services or price.
func (e Edited) Changed() bool { return !sameStay(e.Original, e.Updated) }

// CustomerEdit changes the dates and services of the customer's own reservation,
// repricing it when a pricing input changed (docs/pricing.md#repricing-an-edit), in one transaction (docs/customer-area.md; States and
// transitions, per-state rules):
//   - owner only (accountSees): a missing reservation, or one the account does not
//     see, is ErrNotYours (403);
//   - PENDIENTE and EN CURSO only; FINALIZADA and CANCELADA are terminal (400);
//   - EN CURSO keeps the stored entry date and ignores the sent one;
//   - the exit must be after the entry (400 naming both dates);
//   - the edit never lowers what the stay owes: no exit in the past for EN CURSO,
//     no changed entry in the past for PENDIENTE (docs/exit.md#edits);
//   - priced with the reservation's own vehicle type; vehicle and spot unchanged;
//   - a customer may only choose an active main service (keeping the current one is
//     allowed even if it has since been retired, so its dates stay editable), and
//     only add active additional services (others are skipped, price rule 4); the
//     ones already booked stay at their booked price, even if since retired.
func (s *Service) CustomerEdit(ctx context.Context, customerID, reservationID int64, in CustomerEdit) (Edited, error) {
	return s.customerEdit(ctx, reservationID, accountSees(customerID), ErrNotYours, in)
}

// customerEdit is the one customer-edit operation: the account holder's
// (CustomerEdit) and the manage-my-booking edit (ManageEdit) differ only in who
// may change the reservation (allowed) and the refusal of anyone else (denied).
func (s *Service) customerEdit(ctx context.Context, reservationID int64, allowed access, denied error, in CustomerEdit) (Edited, error) {
	var out Edited
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := tx.Reservations().LockReservation(ctx, reservationID)
		if errors.Is(err, store.ErrNotFound) {
			return denied
		}
		if err != nil {
			return err
		}
		if ok, err := allowed(ctx, tx.Customers(), r); err != nil {
			return err
		} else if !ok {
			return denied
		}
		if !reservation.For(r.Status).CustomerEdit {
			return fault.Coded(fault.Invalid, "err.booking.not_editable", "Status", r.Status.Word())
		}
		// The reservation as the notification's "original" will show it.
		original, err := s.notes.captureOriginal(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		vehicle, err := tx.Customers().Vehicle(ctx, r.VehicleID)
		if err != nil {
			return err
		}
		extras, err := tx.Reservations().ReservationExtras(ctx, r.ID)
		if err != nil {
			return err
		}
		snap := s.catalog.Load()
		if snap == nil {
			return pricingFault(pricing.ErrNotLoaded)
		}
		prev, err := s.trail.stateOf(ctx, tx, r)
		if err != nil {
			return err
		}
		// The original details, captured before anything changes.
		out.Original = StayDetails{
			Entry: r.Entry, Exit: r.Exit, TotalPrice: r.TotalPrice,
			MainServiceID: r.MainServiceID, MainServiceName: serviceName(snap, r.MainServiceID), Extras: extras,
		}

		entry := r.Entry
		if reservation.For(r.Status).EditEntry && !in.Entry.IsZero() {
			entry = in.Entry
		} // Spec: EN CURSO keeps the stored entry date; the sent one is ignored.
		exit := r.Exit
		if in.Exit != nil {
			exit = in.Exit
		}
		if err := s.dates.exitAfterEntry(entry, exit); err != nil {
			return err
		}
		if err := s.dates.editKeepsWhatIsOwed(r, entry, exit, tx.Now); err != nil {
			return err
		}
		mainService := r.MainServiceID
		if in.MainService != 0 && in.MainService != r.MainServiceID {
			// An inactive one is refused by the price path (price.go).
			if _, ok := snap.MainService(in.MainService); !ok {
				return fault.Coded(fault.Invalid, "err.booking.main_service_unknown", "ID", in.MainService)
			}
			mainService = in.MainService
		}
		extraIDs := in.Extras
		if extraIDs == nil {
			extraIDs = make([]int64, len(extras))
			for i, e := range extras {
				extraIDs[i] = e.ID
			}
		}
		// The one price path (price.go, docs/pricing.md#one-price-path): no pricing input changed, the
		// total is kept; otherwise repriced with today's rates, booked extras (even
		// retired ones) at their booked price, new ones at today's.
		priced, err := s.price(ctx, Public, stay{Entry: entry, Exit: exit, VehicleType: vehicle.Type, MainService: mainService, Extras: extraIDs},
			bookedOf(r, vehicle.Type, extras), nil)
		if err != nil {
			return err
		}
		if err := s.spots.keepSpotFree(ctx, tx, r, entry, exit); err != nil { // spots are physical (spot.go)
			return err
		}
		ok, err := tx.Reservations().UpdateStay(ctx, r.ID, r.Status, store.Stay{
			Entry: entry, Exit: exit, MainServiceID: mainService, TotalPrice: priced.Quote.Total, Extras: priced.Extras,
		})
		if err != nil {
			return err
		}
		if !ok { // cannot happen under the row lock; refuse rather than overwrite
			return fault.Coded(fault.Conflict, "err.booking.edit_raced")
		}
		if out.Reservation, err = tx.Reservations().Reservation(ctx, r.ID); err != nil {
			return err
		}
		// docs/capacity.md#settings: the days the new dates add must be free (sellable places).
		if err := s.occupy(ctx, tx, r.ID, stayOf(r), stayOf(out.Reservation), publicCheck, false); err != nil {
			return err
		}
		if out.Updated.Extras, err = tx.Reservations().ReservationExtras(ctx, r.ID); err != nil {
			return err
		}
		out.Updated.Entry, out.Updated.Exit, out.Updated.TotalPrice = out.Reservation.Entry, out.Reservation.Exit, out.Reservation.TotalPrice
		out.Updated.MainServiceID, out.Updated.MainServiceName = mainService, serviceName(snap, mainService)
		out.Quote = priced.Quote
		// The trail: an edit that changed nothing records nothing.
		if next, err := s.trail.readState(ctx, tx, r.ID, false); err != nil {
			return err
		} else if cs := audit.Compare(s.trail.fields(prev), s.trail.fields(next)); len(cs) > 0 {
			if err := tx.Audit(ctx, audit.Entry{Action: audit.ActionCustomerEdit, Entity: audit.EntityReservation,
				EntityID: audit.ID(r.ID), ReservationID: r.ID, Changes: cs}); err != nil {
				return err
			}
		}

		// docs/notifications.md#events: the customer is told of a change of dates or services, in this
		// transaction, with the original and the updated details. An edit that changes
		// nothing sends nothing.
		if !out.Changed() {
			return nil
		}
		if err := s.notes.syncReminder(ctx, tx, r.ID); err != nil { // docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: moved with the entry
			return err
		}
		// The manage-my-booking edit is made by the booker, who may not be the
		// customer: the vehicle is shown as bookerSubject allows.
		sub, err := s.notes.bookerSubject(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		if _, err := s.outbox.EnqueueSubject(ctx, tx, notify.ReservationModified, sub, notify.Options{Original: original}); err != nil {
			return fmt.Errorf("enqueue reservation_modified for reservation %d: %w", r.ID, err)
		}
		return nil
	})
	if err != nil {
		// The spot keeps its code while the dates move: on PostgreSQL the spot-overlap
		// constraint may refuse the new dates. That is the customer's choice of dates
		// clashing with another stay on the same spot, not a server fault.
		if store.IsExclusionViolation(err) || store.IsUniqueViolation(err) {
			return Edited{}, coded(fault.Conflict, err, "err.booking.spot_clash")
		}
		return Edited{}, wrapOp(err, "edit reservation %d", reservationID)
	}
	if out.Reservation.Spot != nil && out.Changed() {
		s.report.publishParking(feed.SpotChanged, out.Reservation, out.Reservation.Spot) // the live board (board_feed.go)
	}
	return out, nil
}

func serviceName(snap *pricing.Snapshot, id int64) string {
	if m, ok := snap.MainService(id); ok {
		return m.Name
	}
	return ""
}

func sameStay(a, b StayDetails) bool {
	if !a.Entry.Equal(b.Entry) || a.TotalPrice != b.TotalPrice || a.MainServiceID != b.MainServiceID || len(a.Extras) != len(b.Extras) {
		return false
	}
	if (a.Exit == nil) != (b.Exit == nil) || (a.Exit != nil && !a.Exit.Equal(*b.Exit)) {
		return false
	}
	for i := range a.Extras {
		if a.Extras[i].ID != b.Extras[i].ID || a.Extras[i].Price != b.Extras[i].Price {
			return false
		}
	}
	return true
}

// wrapOp adds context to internal errors and passes user-facing faults unchanged.
func wrapOp(err error, format string, args ...any) error {
	if fault.KindOf(err) != fault.Internal {
		return err
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
