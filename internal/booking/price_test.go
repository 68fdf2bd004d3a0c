package booking_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/catalog"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The edits of docs/pricing.md#repricing-an-edit: an edit that changes no pricing input keeps the total;
// one that does is repriced with today's rates, while the extras already booked keep
// their booked price (a retired one too) and new ones take today's price.

// priceChange raises today's prices after a booking: ECO's 4–10 day band from 8 €
// to 9 €, Lavado básico (1) from 15 € to 20 €, and retires Lavado interior (2, now
// 30 €) and Detallado pro (4).
func priceChange(t *testing.T, svc *services) {
	t.Helper()
	ctx := context.Background()
	if _, err := svc.catalog.UpdateRate(ctx, 2, catalog.RateInput{DailyPrice: ptr(money.Cents(900))}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.catalog.UpdateExtra(ctx, 1, catalog.ExtraInput{Price: ptr(money.Cents(2000))}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.catalog.UpdateExtra(ctx, 2, catalog.ExtraInput{Price: ptr(money.Cents(3000)), Active: ptr(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.catalog.UpdateExtra(ctx, 4, catalog.ExtraInput{Active: ptr(false)}); err != nil {
		t.Fatal(err)
	}
}

// bookedExtras renders a reservation's extras rows as "id@cents" for comparison.
func bookedExtras(t *testing.T, st *store.Store, id int64) string {
	t.Helper()
	ex, err := st.Reservations().ReservationExtras(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for _, e := range ex {
		s += fmt.Sprintf("%d@%d ", e.ID, e.Price)
	}
	return s
}

func wantStored(t *testing.T, st *store.Store, id int64, total money.Cents, extras string) {
	t.Helper()
	r, err := st.Reservations().Reservation(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got := bookedExtras(t, st, id); r.TotalPrice != total || got != extras {
		t.Errorf("stored total %v extras %q, want %v and %q", r.TotalPrice, got, total, extras)
	}
}

// A booking of 5 days ECO for an SUV with Lavado básico and Lavado interior:
// 5 × 8 € × 1.25 = 50 € + 15 € + 25 € = 90 €.
func bookTwoExtras(t *testing.T, svc *services) booking.Created {
	t.Helper()
	in := validBooking()
	in.Extras = []int64{1, 2, 2}
	c, err := svc.Create(context.Background(), booking.Public, in)
	if err != nil {
		t.Fatal(err)
	}
	if c.Reservation.TotalPrice != 9000 {
		t.Fatalf("booked total %v, want 90.00", c.Reservation.TotalPrice)
	}
	return c
}

func TestCustomerEditFollowsPriceRule(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		c := bookTwoExtras(t, svc)
		owner, id := c.Customer.ID, c.Reservation.ID
		claimed(t, st, id)
		priceChange(t, svc)

		// Nothing that prices changes (the same dates and extras sent again, in another
		// order and repeated): the total and the booked extras stay, although today's
		// catalog would price this stay at 103.75 and has retired extra 2.
		same := booking.CustomerEdit{MainService: 1, Entry: c.Reservation.Entry, Exit: c.Reservation.Exit, Extras: []int64{2, 1, 2}}
		got, err := svc.CustomerEdit(ctx, owner, id, same)
		if err != nil {
			t.Fatal(err)
		}
		if got.Changed() {
			t.Errorf("an edit that changes nothing reports a change: %+v → %+v", got.Original, got.Updated)
		}
		if _, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{}); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, 9000, "1@1500 2@2500 ")

		// New dates (7 days): today's rate, 7 × 9 € × 1.25 = 78.75; the booked extras
		// keep 15 € and 25 € (the retired one is not dropped).
		exit7 := c.Reservation.Entry.Add(7 * 24 * time.Hour)
		if _, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Exit: &exit7}); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, 7875+1500+2500, "1@1500 2@2500 ")

		// Adding Lavado integral (3) takes today's 50 €; the retired Detallado pro (4)
		// cannot be newly added and is skipped; an unknown id too.
		if _, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Extras: []int64{1, 2, 3, 4, 99, 3}}); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, 7875+1500+2500+5000, "1@1500 2@2500 3@5000 ")

		// Removing a booked extra and adding it back: it is new again, at today's price;
		// a retired one removed cannot come back.
		if _, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Extras: []int64{3}}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Extras: []int64{1, 2, 3}}); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, 7875+2000+5000, "1@2000 3@5000 ")
	})
}

func TestAdminUpdateFollowsPriceRule(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		c := bookTwoExtras(t, svc)
		id := c.Reservation.ID
		priceChange(t, svc)

		// Notes, contact, the same extras repeated and the same type in lower case: no
		// pricing input changed, so the total and booked extras stay.
		u, err := svc.AdminUpdate(ctx, id, booking.AdminChange{Notes: ptr("Llaves en recepción"), FullName: ptr("Ana P."),
			Extras: &[]int64{2, 1, 1}, VehicleType: ptr("suv"), Entry: ptr(c.Reservation.Entry), ExitSet: true, Exit: c.Reservation.Exit})
		if err != nil {
			t.Fatal(err)
		}
		if u.Repriced {
			t.Error("an update that changes no pricing input was repriced")
		}
		wantStored(t, st, id, 9000, "1@1500 2@2500 ")

		// New vehicle type (FURGONETA, also 1.25) reprices with today's 9 € band; the
		// booked extras keep their price, the retired one included.
		u, err = svc.AdminUpdate(ctx, id, booking.AdminChange{VehicleType: ptr("FURGONETA")})
		if err != nil {
			t.Fatal(err)
		}
		if !u.Repriced {
			t.Error("a new vehicle type did not reprice")
		}
		wantStored(t, st, id, 5625+1500+2500, "1@1500 2@2500 ")

		// Staff add extra 3 at today's price; a retired extra is skipped for staff too
		// when newly added (README: Dates, money and the price rule).
		if _, err := svc.AdminUpdate(ctx, id, booking.AdminChange{Extras: &[]int64{1, 2, 3, 4}}); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, 5625+1500+2500+5000, "1@1500 2@2500 3@5000 ")

		// Staff may move it to an inactive main service (TRANSFER retired: 5 days at
		// 11 € × 1.25 = 68.75).
		if _, err := svc.catalog.UpdateMainService(ctx, 2, catalog.MainServiceInput{Active: ptr(false)}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AdminUpdate(ctx, id, booking.AdminChange{MainService: ptr(int64(2))}); err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, 6875+1500+2500+5000, "1@1500 2@2500 3@5000 ")
	})
}

// Finalizing a stay without an exit date closes it now and reprices it
// (docs/errors.md#operation-responses) through the same path: today's rate, booked extras at their booked price.
func TestFinalizeOpenStayKeepsBookedExtraPrices(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		entry := time.Date(2026, 1, 10, 10, 0, 0, 0, madrid) // in the past: the stay is open until now
		c, err := svc.WalkIn(ctx, booking.NewBooking{Phone: "611000111", LicensePlate: "7777XYZ", VehicleType: "COCHE",
			Entry: entry, MainService: 1, Extras: []int64{2}, Spot: "A-1"})
		if err != nil {
			t.Fatal(err)
		}
		id := c.Reservation.ID
		priceChange(t, svc)
		if _, err := st.WriteDB().Exec(`UPDATE reservation SET status = 'EN CURSO' WHERE id_reservation = $1`, id); err != nil {
			t.Fatal(err)
		}
		r, err := svc.Finalize(ctx, id, "TARJETA")
		if err != nil {
			t.Fatal(err)
		}
		snap := svc.Catalog()
		q, err := snap.Quote(pricing.Request{Entry: entry, Exit: *r.Exit, VehicleType: "COCHE", MainService: 1})
		if err != nil {
			t.Fatal(err)
		}
		wantStored(t, st, id, q.Total+2500, "2@2500 ")
	})
}
