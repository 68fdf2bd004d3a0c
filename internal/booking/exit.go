package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/handover"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
)

// The exit (docs/exit.md): the stay that was parked is the stay that is paid. One
// function, exitCharge, says what a check-out at a moment charges; the finalize
// and its preview (GET /admin/reservations/{id}/checkout) both call it.

// ExitCharge is what checking out an EN CURSO reservation at a moment charges.
type ExitCharge struct {
	At          time.Time   // the moment of check-out
	Exit        time.Time   // the exit date the stay is closed with
	Total       money.Cents // the amount due
	BookedPrice money.Cents // the booked total (for a stay without exit date, the amount due)
	BookedExit  *time.Time  // the booked exit; nil for a stay without exit date
	// Overstay: collected after the booked exit plus the courtesy period and
	// charged for the real stay; the reservation keeps what was booked.
	Overstay bool
	Overdue  bool  // the booked exit has passed
	Days     int64 // the charged days of the stay as it is closed

	extras   []store.BookedExtra // the extras to store when repriced
	repriced bool                // the exit and the total change at check-out
}

// Excess is what the real stay adds to the booked price; 0 when nothing.
func (c ExitCharge) Excess() money.Cents { return max(c.Total-c.BookedPrice, 0) }

// exitReader is what exitCharge reads: the store for the preview, the finalize's
// transaction for the check-out itself.
type exitReader struct {
	catalog interface {
		Facility(ctx context.Context) (settings.Facility, error)
	}
	customers interface {
		Vehicle(ctx context.Context, id int64) (reservation.Vehicle, error)
	}
	reservations interface {
		ReservationExtras(ctx context.Context, id int64) ([]reservation.BookedExtraDetail, error)
	}
}

// exitCharge is the rule (docs/exit.md#overstay) for reservation r checked out at
// the moment at:
//   - no exit date: the exit is that moment, priced by the one price path;
//   - at later than the booked exit plus the courtesy period, and the facility
//     charges overstays: an overstay, the exit is that moment and the amount is the
//     larger of the booked total and the real stay's price (today's rates and
//     coefficient, the booked extras at their booked price);
//   - otherwise (on time, early, within the courtesy period): the booked total.
func (s *Service) exitCharge(ctx context.Context, rd exitReader, r reservation.Reservation, at time.Time) (ExitCharge, error) {
	c := ExitCharge{At: at, Total: r.TotalPrice, BookedPrice: r.TotalPrice, BookedExit: r.Exit}
	if r.Exit != nil {
		c.Exit = *r.Exit
		c.Overdue = r.Overdue(at) // docs/board.md#overdue
		c.Days = pricing.ChargedDays(r.Entry, *r.Exit)
		if !at.After(r.Exit.Add(pricing.Courtesy)) {
			return c, nil
		}
		f, err := rd.catalog.Facility(ctx)
		if err != nil || !f.ChargeOverstay {
			return c, err
		}
	} else if !at.After(r.Entry) {
		return c, fault.Coded(fault.Invalid, "err.booking.exit_needed", "ID", r.ID, "Entry", r.Entry.In(s.loc))
	}
	v, err := rd.customers.Vehicle(ctx, r.VehicleID)
	if err != nil {
		return c, err
	}
	booked, err := rd.reservations.ReservationExtras(ctx, r.ID)
	if err != nil {
		return c, err
	}
	// The one price path (price.go): the exit changed, so the stay is repriced with
	// today's rates and coefficient; the booked extras keep their booked price.
	priced, err := s.price(ctx, WalkIn, stay{Entry: r.Entry, Exit: &at, VehicleType: v.Type, MainService: r.MainServiceID, Extras: extraIDs(booked)},
		bookedOf(r, v.Type, booked), nil)
	if err != nil {
		return c, err
	}
	c.Exit, c.extras, c.repriced = at, priced.Extras, true
	c.Days = pricing.ChargedDays(r.Entry, at)
	if r.Exit == nil {
		c.Total, c.BookedPrice = priced.Quote.Total, priced.Quote.Total
	} else {
		c.Total, c.Overstay = max(r.TotalPrice, priced.Quote.Total), true // a longer stay never pays less
	}
	return c, nil
}

// checkedIn is the moment the car came in, the earliest a check-out can be: the
// moment of the start when it was recorded, else the reservation's entry date.
func checkedIn(r reservation.Reservation) time.Time {
	if r.CheckedInAt != nil {
		return *r.CheckedInAt
	}
	return r.Entry
}

// checkOutMoment is the moment of check-out: now, or the one staff sent (a stay
// typed in after the fact), which may be neither in the future nor before the
// check-in.
func (s *stayRules) checkOutMoment(r reservation.Reservation, now time.Time, sent *time.Time) (time.Time, error) {
	if sent == nil {
		return now, nil
	}
	switch in := checkedIn(r); {
	case sent.After(now):
		return now, fault.Coded(fault.Invalid, "err.booking.checkout_future",
			"Field", i18n.FieldName("checked_out_at"), "At", sent.In(s.loc), "Now", now.In(s.loc))
	case sent.Before(in):
		return now, fault.Coded(fault.Invalid, "err.booking.checkout_before_entry",
			"Field", i18n.FieldName("checked_out_at"), "At", sent.In(s.loc), "Entry", in.In(s.loc))
	}
	return *sent, nil
}

// CheckoutPreview is what finalizing reservation id at this moment would charge
// (docs/exit.md#checkout-preview), by the finalize's own rule. Unknown id:
// NotFound; not EN CURSO: Invalid, naming the state.
func (s *Service) CheckoutPreview(ctx context.Context, id int64) (ExitCharge, error) {
	r, err := s.store.Reservations().Reservation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return ExitCharge{}, notFound(id)
	}
	if err != nil {
		return ExitCharge{}, err
	}
	if !reservation.For(r.Status).Finalize {
		return ExitCharge{}, notInCourse(id, r.Status)
	}
	return s.exitCharge(ctx, exitReader{s.store.Catalog(), s.store.Customers(), s.store.Reservations()}, r, s.now())
}

// notInCourse refuses a check-out (or its preview) of a reservation in another state.
func notInCourse(id int64, st reservation.Status) error {
	return fault.Coded(fault.Invalid, "err.booking.finalize_status", "ID", id, "Status", st.Word(), "Required", reservation.InCourse.Word())
}

// AmountDueError is the cause of a finalize refused because the amount staff
// expected (expected_total) is not the amount due (docs/exit.md#expected-total);
// the web layer sends Total with the refusal.
type AmountDueError struct{ Total money.Cents }

func (e *AmountDueError) Error() string { return "amount due " + e.Total.String() }

// AmountDue is Total (fault.AmountDue).
func (e *AmountDueError) AmountDue() money.Cents { return e.Total }

// expectedTotal refuses a check-out whose amount due is not the one staff were shown.
func expectedTotal(expected *money.Cents, due money.Cents) error {
	if expected == nil || *expected == due {
		return nil
	}
	return coded(fault.Conflict, &AmountDueError{Total: due}, "err.booking.amount_due",
		"Due", due, "Expected", *expected, "Field", i18n.FieldName("expected_total"))
}

// pastEntryMargin is how far in the past a changed entry of a PENDIENTE
// reservation may be: a customer typing "now" a few minutes late is not refused.
const pastEntryMargin = 15 * time.Minute

// editKeepsWhatIsOwed is the customer edit's rule (docs/exit.md#edits): an edit
// never lowers what a stay already owes. Of an EN CURSO reservation, a changed exit
// may not be earlier than now; of a PENDIENTE one, a changed entry may not be
// earlier than now less pastEntryMargin (an unchanged entry that has passed, as for
// a delayed traveller changing the exit, is kept).
func (s *stayRules) editKeepsWhatIsOwed(r reservation.Reservation, entry time.Time, exit *time.Time, now time.Time) error {
	switch r.Status {
	case reservation.InCourse:
		if exit != nil && !sameTime(exit, r.Exit) && exit.Before(now) {
			return fault.Coded(fault.Invalid, "err.booking.exit_passed",
				"Field", i18n.FieldName("exit_date"), "Exit", exit.In(s.loc), "Now", now.In(s.loc))
		}
	case reservation.Pending:
		if !entry.Equal(r.Entry) && entry.Before(now.Add(-pastEntryMargin)) {
			return fault.Coded(fault.Invalid, "err.booking.entry_passed",
				"Field", i18n.FieldName("entry_date"), "Entry", entry.In(s.loc), "Now", now.In(s.loc))
		}
	}
	return nil
}

// Finalize checks a vehicle out now, paid with method (CheckOut).
func (s *Service) Finalize(ctx context.Context, id int64, method string, hand ...handover.Input) (reservation.Reservation, error) {
	in := CheckOutInput{Method: method}
	if len(hand) > 0 {
		in.Handover = hand[0]
	}
	return s.CheckOut(ctx, id, in)
}

// CheckOut checks a vehicle out: EN CURSO → FINALIZADA, paid with in.Method (spec,
// administrator finalize; checks in the spec's order: status, then payment method).
// is_paid becomes true and the spot stays assigned. The amount due follows the
// real stay (exitCharge, docs/exit.md#overstay); when in.ExpectedTotal is not that
// amount, nothing changes (docs/exit.md#expected-total). The moment of check-out
// is recorded, and the optional hand-over at check-out (docs/photos.md) with it.
func (s *Service) CheckOut(ctx context.Context, id int64, in CheckOutInput) (reservation.Reservation, error) {
	var out reservation.Reservation
	h, err := in.Handover.Read(reservation.PhaseExit)
	if err != nil {
		return out, err
	}
	method := in.Method
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		if !reservation.For(r.Status).Finalize {
			return notInCourse(id, r.Status)
		}
		m, err := input.PaymentMethod("paymentMethod", method)
		if err != nil {
			return err
		}
		at, err := s.dates.checkOutMoment(r, tx.Now, in.CheckedOutAt)
		if err != nil {
			return err
		}
		c, err := s.exitCharge(ctx, exitReader{tx.Catalog(), tx.Customers(), tx.Reservations()}, r, at)
		if err != nil {
			return err
		}
		if err := expectedTotal(in.ExpectedTotal, c.Total); err != nil {
			return err
		}
		before, err := s.trail.stateOf(ctx, tx, r)
		if err != nil {
			return err
		}
		f := store.Finalization{Method: m, Exit: c.Exit, TotalPrice: c.Total, Extras: c.extras, Repriced: c.repriced, CheckedOutAt: at}
		if c.Overstay {
			booked := r.TotalPrice
			f.BookedExit, f.BookedPrice = r.Exit, &booked
		}
		applied, err := tx.Reservations().MarkFinalized(ctx, id, f)
		if err != nil {
			return err
		}
		// docs/capacity.md#what-counts: check-out frees the days at once.
		out, err = s.endTransition(ctx, tx, r, applied, transition{action: audit.ActionFinalize, before: before, handover: h})
		if err != nil {
			return err
		}
		// docs/receipts.md#numbering-correlative-no-gaps-no-duplicates: the receipt is numbered and issued in this transaction, so
		// a finalize that fails leaves no number used; then the invoice
		// notification (docs/notifications.md), which carries that number.
		if _, err := s.receipts.issueAtFinalize(ctx, tx, id); err != nil {
			return err
		}
		return s.notes.enqueue(ctx, tx, notify.Invoice, id, nil)
	})
	if err != nil {
		return out, fmt.Errorf("finalize reservation %d: %w", id, err)
	}
	s.report.announceTransition(feed.Finalized, out, out.Spot, reservation.InCourse)
	return out, nil
}
