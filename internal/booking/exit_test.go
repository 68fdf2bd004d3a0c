package booking_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/clock"
	"parking/internal/clock/clocktest"
	"parking/internal/fault"
	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The exit (docs/exit.md): the stay that was parked is the stay that is paid.
//
// Every stay below is ECO for a COCHE (× 1) with Lavado básico (15 €), entering at
// the test clock's base (day 0, 10:00). Booked for 3 days (12 €/day): 36 + 15 = 51 €.
// A stay of 4 to 10 days costs 8 €/day.

type exitEnv struct {
	svc *services
	st  *store.Store
	clk *clock.Fake
	n   int
}

func newExitEnv(t *testing.T, d store.Dialect) *exitEnv {
	svc, st, clk := newServiceClock(t, d)
	return &exitEnv{svc: svc, st: st, clk: clk}
}

var (
	exitEntry  = clocktest.Day(0, 10, 0)
	bookedExit = clocktest.Day(3, 10, 0)
)

// parked books a stay from exitEntry to exit (nil: open) and checks it in.
func (e *exitEnv) parked(t *testing.T, exit *time.Time) reservation.Reservation {
	t.Helper()
	e.n++
	c, err := e.svc.WalkIn(context.Background(), booking.NewBooking{Phone: "611000111", LicensePlate: fmt.Sprintf("%04dXYZ", e.n), VehicleType: "COCHE",
		Entry: exitEntry, Exit: exit, MainService: 1, Extras: []int64{1}, Spot: fmt.Sprintf("X-%d", e.n)})
	if err != nil {
		t.Fatal(err)
	}
	// Checked in, and the customer's own booking (made signed in), which the customer edit may change.
	if _, err := e.st.WriteDB().Exec(`UPDATE reservation SET status = 'EN CURSO', booked_by = 'account' WHERE id_reservation = $1`, c.Reservation.ID); err != nil {
		t.Fatal(err)
	}
	return c.Reservation
}

// parkedUntil is parked with the booked exit, the clock then moved to now.
func (e *exitEnv) parkedUntil(t *testing.T, now time.Time) reservation.Reservation {
	t.Helper()
	r := e.parked(t, &bookedExit)
	e.clk.Set(now)
	return r
}

func (e *exitEnv) stored(t *testing.T, id int64) reservation.Reservation {
	t.Helper()
	r, err := e.st.Reservations().Reservation(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkOut previews the check-out now, finalizes, and checks that the preview
// was the charge.
func (e *exitEnv) checkOut(t *testing.T, id int64, in booking.CheckOutInput) (booking.ExitCharge, reservation.Reservation) {
	t.Helper()
	ctx := context.Background()
	p, err := e.svc.CheckoutPreview(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	in.Method = "EFECTIVO"
	r, err := e.svc.CheckOut(ctx, id, in)
	if err != nil {
		t.Fatal(err)
	}
	if in.CheckedOutAt == nil && (r.TotalPrice != p.Total || !r.Exit.Equal(p.Exit)) {
		t.Errorf("preview %v until %v, finalize charged %v until %v: they must be one rule", p.Total, p.Exit, r.TotalPrice, r.Exit)
	}
	return p, r
}

func wantBooked(t *testing.T, r reservation.Reservation, total money.Cents, exit time.Time) {
	t.Helper()
	if r.TotalPrice != total || !r.Exit.Equal(exit) || r.BookedExit != nil || r.BookedPrice != nil || r.Excess() != 0 {
		t.Errorf("charged %v until %v (booked %v, %v): want the booked %v until %v, nothing kept as booked", r.TotalPrice, r.Exit, r.BookedExit, r.BookedPrice, total, exit)
	}
}

// A car collected later than its booked exit plus the 2-hour courtesy pays its real
// stay, never less than booked; the reservation keeps what was booked and the
// moment of check-out.
func TestOverstayCharged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		r := e.parked(t, &bookedExit)
		if r.TotalPrice != 5100 {
			t.Fatalf("booked %v, want 51.00", r.TotalPrice)
		}
		now := e.clk.Set // moves the clock
		out := clocktest.Day(6, 13, 0)
		now(out) // 6 days 3 h: 7 days at 8 € = 56 + 15 = 71
		p, got := e.checkOut(t, r.ID, booking.CheckOutInput{})
		if got.TotalPrice != 7100 || !got.Exit.Equal(out) || got.BookedExit == nil || !got.BookedExit.Equal(bookedExit) ||
			got.BookedPrice == nil || *got.BookedPrice != 5100 || got.Excess() != 2000 || got.CheckedOutAt == nil || !got.CheckedOutAt.Equal(out) {
			t.Errorf("overstay = total %v exit %v booked %v/%v checked out %v", got.TotalPrice, got.Exit, got.BookedExit, got.BookedPrice, got.CheckedOutAt)
		}
		if p.BookedPrice != 5100 || p.Excess() != 2000 || !p.Overdue || p.Days != 7 || !p.Overstay {
			t.Errorf("preview = %+v", p)
		}
		if s := e.stored(t, r.ID); s.TotalPrice != 7100 || s.BookedPrice == nil || *s.BookedPrice != 5100 || s.Status != reservation.Finalized {
			t.Errorf("stored %+v", s)
		}

		// Late, but the real stay costs less than booked (4 days 1 h: 4 × 8 + 15 =
		// 47): the booked 51 is due, the exit is the real one, the booked exit kept.
		r = e.parked(t, &bookedExit)
		out = clocktest.Day(4, 11, 0)
		now(out)
		_, got = e.checkOut(t, r.ID, booking.CheckOutInput{})
		if got.TotalPrice != 5100 || !got.Exit.Equal(out) || got.BookedExit == nil || got.BookedPrice == nil || got.Excess() != 0 {
			t.Errorf("late but cheaper = total %v exit %v booked %v/%v", got.TotalPrice, got.Exit, got.BookedExit, got.BookedPrice)
		}
	})
}

// On time, early and within the courtesy period: the booked total, the booked exit.
func TestExitWithinBookingKeepsBookedPrice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		for _, c := range []struct {
			name    string
			at      time.Time
			overdue bool
		}{
			{"early", clocktest.Day(1, 9, 0), false},
			{"on time", bookedExit, false},
			{"at the end of the courtesy", bookedExit.Add(2 * time.Hour), true},
		} {
			e.clk.Set(exitEntry)
			r := e.parked(t, &bookedExit)
			e.clk.Set(c.at)
			p, got := e.checkOut(t, r.ID, booking.CheckOutInput{})
			if p.Overdue != c.overdue || p.Excess() != 0 || p.Overstay {
				t.Errorf("%s: preview %+v", c.name, p)
			}
			wantBooked(t, got, 5100, bookedExit)
			if got.CheckedOutAt == nil || !got.CheckedOutAt.Equal(c.at) {
				t.Errorf("%s: checked out at %v, want %v", c.name, got.CheckedOutAt, c.at)
			}
		}
		// One minute past the courtesy is an overstay (3 days 2 h 1 min: 4 days,
		// 47 € < 51 €: the booked price, the real exit).
		e.clk.Set(exitEntry)
		r := e.parked(t, &bookedExit)
		late := bookedExit.Add(2*time.Hour + time.Minute)
		e.clk.Set(late)
		_, got := e.checkOut(t, r.ID, booking.CheckOutInput{})
		if !got.Exit.Equal(late) || got.BookedPrice == nil || got.TotalPrice != 5100 {
			t.Errorf("past the courtesy: total %v exit %v booked price %v", got.TotalPrice, got.Exit, got.BookedPrice)
		}
	})
}

// charge_overstay false keeps the booked exit and price.
func TestChargeOverstayOff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		ctx := context.Background()
		f, err := e.svc.catalog.Facility(ctx)
		if err != nil || !f.ChargeOverstay {
			t.Fatalf("default settings %+v (%v): charge_overstay must be on", f, err)
		}
		f.ChargeOverstay = false
		if _, err := e.svc.catalog.SaveFacility(ctx, f); err != nil {
			t.Fatal(err)
		}
		r := e.parkedUntil(t, clocktest.Day(6, 13, 0))
		p, got := e.checkOut(t, r.ID, booking.CheckOutInput{})
		if !p.Overdue || p.Excess() != 0 {
			t.Errorf("preview %+v: overdue, no excess", p)
		}
		wantBooked(t, got, 5100, bookedExit)
	})
}

// A walk-in without exit date: the preview's amount is the charge, the exit now.
func TestOpenWalkInPreviewIsTheCharge(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		r := e.parked(t, nil)
		out := clocktest.Day(4, 15, 0) // 4 days 5 h: 5 days at 8 € + 15 = 55
		e.clk.Set(out)
		p, got := e.checkOut(t, r.ID, booking.CheckOutInput{})
		if p.Total != 5500 || p.Excess() != 0 || p.BookedExit != nil || p.Overdue || got.TotalPrice != 5500 || !got.Exit.Equal(out) ||
			got.BookedPrice != nil || got.BookedExit != nil {
			t.Errorf("open walk-in: preview %+v, charged %v until %v", p, got.TotalPrice, got.Exit)
		}
	})
}

// Staff may type a check-out in after the fact: that moment prices the stay; it
// may not be in the future nor before the check-in (400 naming checked_out_at,
// nothing changed).
func TestCheckedOutAtAfterTheFact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		ctx := context.Background()
		e.clk.Set(clocktest.Day(9, 10, 0))

		r := e.parked(t, &bookedExit)
		onTime := bookedExit.Add(time.Hour)
		_, got := e.checkOut(t, r.ID, booking.CheckOutInput{CheckedOutAt: &onTime})
		wantBooked(t, got, 5100, bookedExit)
		if got.CheckedOutAt == nil || !got.CheckedOutAt.Equal(onTime) {
			t.Errorf("checked out at %v, want %v", got.CheckedOutAt, onTime)
		}

		r = e.parked(t, &bookedExit)
		late := clocktest.Day(6, 13, 0)
		_, got = e.checkOut(t, r.ID, booking.CheckOutInput{CheckedOutAt: &late})
		if got.TotalPrice != 7100 || !got.Exit.Equal(late) || got.BookedPrice == nil {
			t.Errorf("late after the fact: %v until %v", got.TotalPrice, got.Exit)
		}

		r = e.parked(t, &bookedExit)
		future, early := clocktest.Day(9, 11, 0), exitEntry.Add(-time.Minute)
		for _, at := range []time.Time{future, early} {
			_, err := e.svc.CheckOut(ctx, r.ID, booking.CheckOutInput{Method: "TARJETA", CheckedOutAt: &at})
			if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "checked_out_at") {
				t.Errorf("checked_out_at %v: %v, want a 400 naming checked_out_at", at, err)
			}
		}
		if s := e.stored(t, r.ID); s.Status != reservation.InCourse || s.CheckedOutAt != nil || s.IsPaid {
			t.Errorf("refused check-out changed the reservation: %+v", s)
		}
	})
}

// The preview answers only for a car in the car park.
func TestCheckoutPreviewRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		ctx := context.Background()
		c, err := e.svc.WalkIn(ctx, booking.NewBooking{Phone: "611000111", LicensePlate: "1111AAA", VehicleType: "COCHE",
			Entry: clocktest.Day(2, 10, 0), Exit: &bookedExit, MainService: 1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.CheckoutPreview(ctx, c.Reservation.ID)
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "PENDIENTE") {
			t.Errorf("preview of a PENDIENTE: %v, want 400 naming the state", err)
		}
		if _, err := e.svc.CheckoutPreview(ctx, 9999); fault.KindOf(err) != fault.NotFound {
			t.Errorf("preview of an unknown id: %v, want 404", err)
		}
	})
}

// expected_total: the amount staff were shown is the amount charged, or nothing is.
func TestExpectedTotal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		ctx := context.Background()
		r := e.parkedUntil(t, clocktest.Day(6, 13, 0))
		shown := money.Cents(5100) // the booked price, shown before the car was late
		_, err := e.svc.CheckOut(ctx, r.ID, booking.CheckOutInput{Method: "TARJETA", ExpectedTotal: &shown})
		var due *booking.AmountDueError
		if fault.KindOf(err) != fault.Conflict || !errors.As(err, &due) || due.Total != 7100 || !strings.Contains(fault.MessageOf(err, ""), "71,00 €") {
			t.Fatalf("expected 51.00 with 71.00 due: %v", err)
		}
		if s := e.stored(t, r.ID); s.Status != reservation.InCourse || s.TotalPrice != 5100 || !s.Exit.Equal(bookedExit) || s.BookedPrice != nil || s.IsPaid {
			t.Errorf("a refused check-out changed the reservation: %+v", s)
		}
		var receipts int
		if err := e.st.DB().QueryRow(`SELECT COUNT(*) FROM receipt WHERE id_reservation = $1`, r.ID).Scan(&receipts); err != nil || receipts != 0 {
			t.Errorf("receipts after the refusal: %d (%v)", receipts, err)
		}
		shown = 7100
		got, err := e.svc.CheckOut(ctx, r.ID, booking.CheckOutInput{Method: "TARJETA", ExpectedTotal: &shown})
		if err != nil || got.TotalPrice != 7100 {
			t.Errorf("expected the amount due: %v %v", got.TotalPrice, err)
		}
	})
}

// Edits never lower what a stay owes: the customer (and the manage link, which is
// the same operation) may not move an EN CURSO exit into the past, nor a PENDIENTE
// entry more than 15 minutes into the past; an unchanged past entry is kept; staff
// may still set past dates.
func TestEditsNeverLowerWhatIsOwed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newExitEnv(t, d)
		ctx := context.Background()
		r := e.parkedUntil(t, clocktest.Day(2, 10, 0))
		cut := clocktest.Day(1, 10, 0)
		_, err := e.svc.CustomerEdit(ctx, r.CustomerID, r.ID, booking.CustomerEdit{Exit: &cut})
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "exit_date") {
			t.Errorf("EN CURSO exit cut to the past: %v, want 400 naming exit_date", err)
		}
		if s := e.stored(t, r.ID); !s.Exit.Equal(bookedExit) || s.TotalPrice != 5100 {
			t.Errorf("refused edit changed the stay: %v %v", s.Exit, s.TotalPrice)
		}
		later := clocktest.Day(5, 10, 0)
		if _, err := e.svc.CustomerEdit(ctx, r.CustomerID, r.ID, booking.CustomerEdit{Exit: &later}); err != nil {
			t.Errorf("EN CURSO exit moved later: %v", err)
		}

		// PENDIENTE, entry at day 3 10:00.
		e.clk.Set(exitEntry)
		p, err := e.svc.WalkIn(ctx, booking.NewBooking{Phone: "611000222", LicensePlate: "2222BBB", VehicleType: "COCHE",
			Entry: clocktest.Day(3, 10, 0), Exit: ptr(clocktest.Day(6, 10, 0)), MainService: 1})
		if err != nil {
			t.Fatal(err)
		}
		res := p.Reservation
		if _, err := e.st.WriteDB().Exec(`UPDATE reservation SET booked_by = 'account' WHERE id_reservation = $1`, res.ID); err != nil {
			t.Fatal(err)
		}
		e.clk.Set(clocktest.Day(3, 11, 0)) // a delayed traveller: the entry has passed
		past := clocktest.Day(3, 10, 30)
		_, err = e.svc.CustomerEdit(ctx, res.CustomerID, res.ID, booking.CustomerEdit{Entry: past})
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "entry_date") {
			t.Errorf("PENDIENTE entry moved to the past: %v, want 400 naming entry_date", err)
		}
		// Within 15 minutes of now is not refused.
		if _, err := e.svc.CustomerEdit(ctx, res.CustomerID, res.ID, booking.CustomerEdit{Entry: clocktest.Day(3, 10, 50)}); err != nil {
			t.Errorf("entry 10 minutes ago: %v", err)
		}
		// The (now passed) entry unchanged, the exit moved: kept.
		newExit := clocktest.Day(7, 10, 0)
		if _, err := e.svc.CustomerEdit(ctx, res.CustomerID, res.ID, booking.CustomerEdit{Entry: clocktest.Day(3, 10, 50), Exit: &newExit}); err != nil {
			t.Errorf("unchanged past entry, exit moved: %v", err)
		}
		// Staff correct the record with past dates.
		if _, err := e.svc.AdminUpdate(ctx, res.ID, booking.AdminChange{Entry: ptr(clocktest.Day(2, 9, 0))}); err != nil {
			t.Errorf("staff setting a past entry: %v", err)
		}
		if _, err := e.svc.AdminUpdate(ctx, r.ID, booking.AdminChange{ExitSet: true, Exit: ptr(clocktest.Day(2, 9, 0))}); err != nil {
			t.Errorf("staff setting a past exit on EN CURSO: %v", err)
		}
	})
}
