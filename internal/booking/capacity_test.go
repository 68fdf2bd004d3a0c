package booking_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/clock"
	"parking/internal/clock/clocktest"
	"parking/internal/fault"
	"parking/internal/occupancy"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
	"parking/internal/storetest"
)

// capacityService is a service on a fresh database whose facility has capacity places
// and sellable sellable ones (0: the capacity), with the store's fake clock.
func capacityService(t *testing.T, d store.Dialect, capacity, sellable int) (*services, *store.Store, *clock.Fake) {
	t.Helper()
	st, clk := storetest.OpenClock(t, d)
	return serviceOn(t, st, capacity, sellable), st, clk
}

func serviceOn(t *testing.T, st *store.Store, capacity, sellable int) *services {
	t.Helper()
	h := storetest.Catalog(t, st)
	ctx := context.Background()
	svc := newServices(st, h)
	f := settings.Defaults(capacity)
	f.Sellable = sellable
	if _, err := svc.catalog.SaveFacility(ctx, f); err != nil {
		t.Fatal(err)
	}
	return svc
}

// stayBooking is a public booking for customer n from day first to day last (days
// after the test clock's base), 10:00 to 18:00.
func stayBooking(n, first, last int) booking.NewBooking {
	exit := clocktest.Day(last, 18, 0)
	return booking.NewBooking{
		FullName: fmt.Sprintf("Cliente %d", n), Phone: fmt.Sprintf("6%08d", 10000000+n), LicensePlate: fmt.Sprintf("%04dBCD", n),
		VehicleType: "TURISMO", Entry: clocktest.Day(first, 10, 0), Exit: &exit, MainService: 1,
	}
}

func day(n int) occupancy.Day { return occupancy.DayOf(clocktest.Day(n, 12, 0), madrid) }

func fullDays(t *testing.T, err error) []occupancy.Day {
	t.Helper()
	var full *occupancy.FullError
	if !errors.As(err, &full) || fault.KindOf(err) != fault.Conflict {
		t.Fatalf("got %v, want a capacity Conflict", err)
	}
	return full.Days
}

// assertLedger checks that the ledger equals a recount from the reservations.
func assertLedger(t *testing.T, st *store.Store, step string) {
	t.Helper()
	ctx := context.Background()
	have, err := st.Occupancy().OccupancyLedger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := st.Occupancy().RecountOccupancy(ctx, madrid)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(have, want) {
		t.Fatalf("after %s: ledger %v, recount %v", step, have, want)
	}
}

func TestCapacityRefusesFullDaysAndFreesThem(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st, _ := capacityService(t, d, 2, 0)
		ctx := context.Background()
		a, err := svc.Create(ctx, booking.Public, stayBooking(1, 10, 14))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Create(ctx, booking.Public, stayBooking(2, 12, 16)); err != nil {
			t.Fatal(err)
		}
		before := count(t, st, "reservation")
		// Days 12 to 14 hold two stays: a third from 13 on is refused, naming 13 and 14.
		_, err = svc.Create(ctx, booking.Public, stayBooking(3, 13, 20))
		if got, want := fullDays(t, err), []occupancy.Day{day(13), day(14)}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("full days %v, want %v", got, want)
		}
		if msg := fault.MessageOf(err, ""); !strings.Contains(msg, clocktest.ES("03/12/2026")) || !strings.Contains(msg, "No quedan plazas") {
			t.Errorf("message %q does not name the full days", msg)
		}
		if n := count(t, st, "reservation"); n != before {
			t.Fatalf("refused booking saved a reservation: %d rows, want %d", n, before)
		}
		assertLedger(t, st, "refusal")

		// Staff: refused the same way, accepted with the override, which is recorded.
		walk := stayBooking(4, 13, 13)
		if _, err := svc.WalkIn(ctx, walk); len(fullDays(t, err)) != 1 {
			t.Fatalf("walk-in on a full day: %v", err)
		}
		walk.OverrideCapacity = true
		w, err := svc.WalkIn(ctx, walk)
		if err != nil {
			t.Fatalf("walk-in with override: %v", err)
		}
		var overridden *time.Time
		if err := st.DB().QueryRow(`SELECT capacity_override_at FROM reservation WHERE id_reservation = $1`, w.Reservation.ID).Scan(&overridden); err != nil || overridden == nil {
			t.Fatalf("override not recorded: %v %v", overridden, err)
		}
		assertLedger(t, st, "override")

		// Cancelling frees the days at once: day 15 and 16 now have one stay.
		if _, err := svc.AdminCancel(ctx, a.Reservation.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AdminCancel(ctx, w.Reservation.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Create(ctx, booking.Public, stayBooking(5, 13, 20)); err != nil {
			t.Fatalf("booking after the cancel: %v", err)
		}
		assertLedger(t, st, "cancel")

		// An edit is checked on the days it adds only: shortening is always allowed.
		c, err := svc.Create(ctx, booking.Public, stayBooking(6, 17, 18))
		if err != nil {
			t.Fatal(err)
		}
		claimed(t, st, c.Reservation.ID)
		if _, err := svc.CustomerEdit(ctx, c.Reservation.CustomerID, c.Reservation.ID, booking.CustomerEdit{
			Entry: clocktest.Day(15, 10, 0), Exit: ptr(clocktest.Day(18, 18, 0))}); len(fullDays(t, err)) != 2 {
			t.Fatalf("customer edit onto days 15-16: %v", err)
		}
		if _, err := svc.CustomerEdit(ctx, c.Reservation.CustomerID, c.Reservation.ID, booking.CustomerEdit{
			Exit: ptr(clocktest.Day(17, 18, 0))}); err != nil {
			t.Fatalf("shortening: %v", err)
		}
		assertLedger(t, st, "edit")
	})
}

func TestSellablePlacesLimitThePublicOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		// 3 places, 2 sold online: the third is kept for the counter.
		svc, st, _ := capacityService(t, d, 3, 2)
		ctx := context.Background()
		for n := range 2 {
			if _, err := svc.Create(ctx, booking.Public, stayBooking(n, 10, 11)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Create(ctx, booking.Public, stayBooking(3, 11, 11)); len(fullDays(t, err)) != 1 {
			t.Fatalf("public booking beyond the sellable places: %v", err)
		}
		if _, err := svc.WalkIn(ctx, stayBooking(4, 11, 11)); err != nil {
			t.Fatalf("walk-in within the capacity: %v", err)
		}
		if _, err := svc.WalkIn(ctx, stayBooking(5, 11, 11)); len(fullDays(t, err)) != 1 {
			t.Fatalf("walk-in beyond the capacity: %v", err)
		}
		a, err := svc.Availability(ctx, occupancy.Span{First: day(10), Last: day(12)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range a.Days {
			got = append(got, fmt.Sprintf("%s %s %d", x.Day, x.Status, x.Booked))
		}
		want := []string{clocktest.D("2026-11-30") + " full 2", clocktest.D("2026-12-01") + " full 3", clocktest.D("2026-12-02") + " available 0"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("availability %v, want %v", got, want)
		}
		assertLedger(t, st, "walk-ins")
	})
}

// An open walk-in (no exit) counts on its days up to today, and keeps counting as the
// days pass; so does an EN CURSO stay past its exit. Neither counts on future days.
func TestOpenStaysCountUpToToday(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st, clk := capacityService(t, d, 2, 0)
		ctx := context.Background()
		open := stayBooking(1, 0, 0)
		open.Entry, open.Exit, open.Spot = clocktest.Day(0, 9, 0), nil, "A-1"
		if _, err := svc.WalkIn(ctx, open); err != nil {
			t.Fatal(err)
		}
		late, err := svc.WalkIn(ctx, func() booking.NewBooking { b := stayBooking(2, 0, 1); b.Spot = "A-2"; return b }())
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if _, _, err := svc.handover.AddPhoto(ctx, late.Reservation.ID, fmt.Sprintf("https://example.com/%d.jpg", i), ""); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Start(ctx, late.Reservation.ID); err != nil {
			t.Fatal(err)
		}
		clk.Set(clocktest.Day(3, 8, 0)) // three days on: the first car has no exit, the second is past its exit
		a, err := svc.Availability(ctx, occupancy.Span{First: day(0), Last: day(4)})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, x := range a.Days {
			got = append(got, x.Booked)
		}
		if fmt.Sprint(got) != "[2 2 2 2 0]" {
			t.Fatalf("booked per day %v, want [2 2 2 2 0]", got)
		}
		// Today is full: a public booking for today is refused, one for tomorrow is not.
		if _, err := svc.Create(ctx, booking.Public, stayBooking(3, 3, 3)); len(fullDays(t, err)) != 1 {
			t.Fatalf("booking for today: %v", err)
		}
		if _, err := svc.Create(ctx, booking.Public, stayBooking(4, 4, 4)); err != nil {
			t.Fatalf("booking for tomorrow: %v", err)
		}
		assertLedger(t, st, "open stays")
	})
}

// Concurrent bookings for the last places never oversell: 50 at once for a day with
// 5 free give exactly 5 bookings and 45 refusals.
func TestConcurrentBookingsForTheLastPlaces(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st, _ := capacityService(t, d, 10, 0)
		runLastPlaces(t, st, []*services{svc})
	})
}

// The same through two services on one PostgreSQL database (two instances of the
// service): the database, not a lock in the process, decides.
func TestConcurrentBookingsTwoInstances(t *testing.T) {
	url := storetest.URL(t, store.Postgres)
	if !strings.HasPrefix(url, "postgres") {
		t.Skip("PostgreSQL not configured (PARKING_TEST_POSTGRES_URL)")
	}
	clk := clocktest.New()
	st1 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
	st2 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
	svc1 := serviceOn(t, st1, 10, 0)
	svc2 := serviceOn(t, st2, 10, 0)
	runLastPlaces(t, st1, []*services{svc1, svc2})
}

// Far from the limit, bookings of one day take the fast path on PostgreSQL (one
// ledger stripe each, internal/store/occupancy.go); near it, the exact one. 60 at once
// for 40 free places, through two services: exactly 40 booked, 20 refused.
func TestConcurrentBookingsAcrossBothPaths(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		url := storetest.URL(t, d)
		clk := clocktest.New()
		st1 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
		svcs := []*services{serviceOn(t, st1, 40, 0)}
		if d == store.Postgres {
			st2 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
			svcs = append(svcs, serviceOn(t, st2, 40, 0))
		}
		ok, full := bookAtOnce(t, svcs, 60, 20, 22)
		if ok != 40 || full != 20 {
			t.Fatalf("%d booked, %d refused as full; want 40 and 20", ok, full)
		}
		assertLedger(t, st1, "concurrent bookings")
		a, err := svcs[0].Availability(context.Background(), occupancy.Span{First: day(20), Last: day(22)})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range a.Days {
			if x.Booked != 40 || x.Status != occupancy.Full {
				t.Fatalf("%s: %d booked (%s), want 40 (full)", x.Day, x.Booked, x.Status)
			}
		}
	})
}

// bookAtOnce makes n public bookings from day first to day last at the same moment,
// spread over svcs, and counts the successes and the capacity refusals; any other
// error fails the test.
func bookAtOnce(t *testing.T, svcs []*services, n, first, last int) (ok, full int) {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var other []error
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := svcs[i%len(svcs)].Create(context.Background(), booking.Public, stayBooking(1000+i, first, last))
			mu.Lock()
			defer mu.Unlock()
			var fe *occupancy.FullError
			switch {
			case err == nil:
				ok++
			case errors.As(err, &fe):
				full++
			default:
				other = append(other, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("errors other than full days: %v", other)
	}
	return ok, full
}

func runLastPlaces(t *testing.T, st *store.Store, svcs []*services) {
	t.Helper()
	ctx := context.Background()
	for n := range 5 { // 5 of the 10 places taken on day 10
		if _, err := svcs[0].Create(ctx, booking.Public, stayBooking(n, 9, 10)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, full := 0, 0
	var other []error
	start := make(chan struct{})
	for n := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := svcs[n%len(svcs)].Create(ctx, booking.Public, stayBooking(100+n, 10, 12))
			mu.Lock()
			defer mu.Unlock()
			var fe *occupancy.FullError
			switch {
			case err == nil:
				ok++
			case errors.As(err, &fe):
				full++
			default:
				other = append(other, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if ok != 5 || full != 45 || len(other) > 0 {
		t.Fatalf("%d booked, %d refused as full, other errors %v; want 5 and 45", ok, full, other)
	}
	assertLedger(t, st, "concurrent bookings")
	ledger, err := st.Occupancy().OccupancyLedger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ledger[day(10)] != 10 || ledger[day(11)] != 5 {
		t.Fatalf("ledger day 10 = %d, day 11 = %d; want 10 and 5", ledger[day(10)], ledger[day(11)])
	}
}

// A long random sequence of bookings, walk-ins, edits, cancels, starts, finalizes and
// days passing: after every step the ledger equals a recount from the reservations,
// and no future day holds more stays than places (no step here overrides).
func TestOccupancyLedgerRandomized(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		const places = 4
		svc, st, clk := capacityService(t, d, places, 0)
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(14, uint64(len(d))))
		var ids []int64
		done := map[string]int{} // successful steps by kind, and refusals for capacity
		steps := 160
		if testing.Short() {
			steps = 40
		}
		for step := range steps {
			now := clk.Now()
			var label string
			var err error
			pick := func() (reservation.Reservation, bool) {
				if len(ids) == 0 {
					return reservation.Reservation{}, false
				}
				r, err := st.Reservations().Reservation(ctx, ids[rng.IntN(len(ids))])
				if err != nil {
					t.Fatal(err)
				}
				return r, true
			}
			first := rng.IntN(12)
			last := first + rng.IntN(4)
			switch op := rng.IntN(10); op {
			case 0, 1, 2:
				label = "public booking"
				b := stayBooking(step, first, last)
				b.Entry = now.Add(time.Duration(first*24+1) * time.Hour)
				b.Exit = ptr(b.Entry.Add(time.Duration((last-first)*24+5) * time.Hour))
				var c booking.Created
				if c, err = svc.Create(ctx, booking.Public, b); err == nil {
					ids = append(ids, c.Reservation.ID)
				}
			case 3:
				label = "walk-in"
				b := stayBooking(step, first, last)
				b.Entry = now.Add(time.Duration(first*24-20) * time.Hour)
				b.Exit = ptr(b.Entry.Add(time.Duration((last-first)*24+5) * time.Hour))
				b.Spot = fmt.Sprintf("S-%d", step)
				if rng.IntN(3) == 0 {
					b.Exit = nil // an open stay
				}
				var c booking.Created
				if c, err = svc.WalkIn(ctx, b); err == nil {
					ids = append(ids, c.Reservation.ID)
				}
			case 4:
				r, ok := pick()
				if !ok {
					continue
				}
				label = fmt.Sprintf("staff update of %d (%s)", r.ID, r.Status)
				ch := booking.AdminChange{Entry: ptr(now.Add(time.Duration(first*24+2) * time.Hour)), ExitSet: true}
				if rng.IntN(4) > 0 {
					ch.Exit = ptr(now.Add(time.Duration(last*24+8) * time.Hour))
				}
				_, err = svc.AdminUpdate(ctx, r.ID, ch)
			case 5:
				r, ok := pick()
				if !ok {
					continue
				}
				label = fmt.Sprintf("customer edit of %d (%s)", r.ID, r.Status)
				claimed(t, st, r.ID)
				_, err = svc.CustomerEdit(ctx, r.CustomerID, r.ID, booking.CustomerEdit{
					Entry: now.Add(time.Duration(first*24+3) * time.Hour), Exit: ptr(now.Add(time.Duration(last*24+9) * time.Hour))})
			case 6:
				r, ok := pick()
				if !ok {
					continue
				}
				label = fmt.Sprintf("cancel of %d (%s)", r.ID, r.Status)
				if rng.IntN(2) == 0 {
					_, err = svc.AdminCancel(ctx, r.ID)
				} else {
					claimed(t, st, r.ID)
					_, err = svc.CustomerCancel(ctx, r.CustomerID, r.ID)
				}
			case 7:
				r, ok := pick()
				if !ok {
					continue
				}
				label = fmt.Sprintf("start of %d (%s)", r.ID, r.Status)
				if r.Status == reservation.Pending {
					if r.Spot == nil {
						if _, err := svc.AdminUpdate(ctx, r.ID, booking.AdminChange{Spot: ptr(fmt.Sprintf("R-%d", r.ID))}); err != nil {
							continue // the spot or the days are taken: not this one
						}
					}
					for i := range 5 {
						if _, _, err := svc.handover.AddPhoto(ctx, r.ID, fmt.Sprintf("https://example.com/%d-%d.jpg", r.ID, i), ""); err != nil {
							t.Fatal(err)
						}
					}
				}
				_, err = svc.Start(ctx, r.ID)
			case 8:
				r, ok := pick()
				if !ok {
					continue
				}
				label = fmt.Sprintf("finalize of %d (%s)", r.ID, r.Status)
				_, err = svc.Finalize(ctx, r.ID, "TARJETA")
			case 9:
				label = "a day passes"
				clk.Advance(time.Duration(10+rng.IntN(20)) * time.Hour)
			}
			// Refusals (full days, a wrong state) are part of the sequence; anything
			// else is a failure.
			if err != nil && fault.KindOf(err) == fault.Internal {
				t.Fatalf("step %d, %s: %v", step, label, err)
			}
			kind, _, _ := strings.Cut(label, " of ")
			var fe *occupancy.FullError
			switch {
			case err == nil:
				done[kind]++
			case errors.As(err, &fe):
				done["refused as full"]++
			}
			assertLedger(t, st, fmt.Sprintf("step %d, %s", step, label))
			today := occupancy.DayOf(clk.Now(), madrid)
			a, err := svc.Availability(ctx, occupancy.Span{First: today + 1, Last: today + 20})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range a.Days {
				if x.Booked > places {
					t.Fatalf("step %d, %s: %s holds %d stays, over %d places", step, label, x.Day, x.Booked, places)
				}
			}
		}
		t.Logf("steps done: %v", done)
		if !testing.Short() {
			for _, k := range []string{"public booking", "walk-in", "staff update", "customer edit", "cancel", "start", "finalize", "refused as full"} {
				if done[k] == 0 {
					t.Errorf("no %s in the sequence: it does not test it", k)
				}
			}
		}
	})
}

func TestRebuildOccupancy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st, _ := capacityService(t, d, 0, 0) // unlimited: the ledger is kept anyway
		ctx := context.Background()
		for n := range 3 {
			if _, err := svc.Create(ctx, booking.Public, stayBooking(n, 10+n, 12+n)); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := svc.RebuildOccupancy(ctx); err != nil || n != 0 {
			t.Fatalf("rebuild of a correct ledger: %d days corrected, %v", n, err)
		}
		// Damage the ledger: the rebuild corrects exactly the damaged days.
		if _, err := st.WriteDB().Exec(`UPDATE occupancy SET booked = booked + 7 WHERE day IN ($1, $2)`, day(11), day(13)); err != nil {
			t.Fatal(err)
		}
		if _, err := st.WriteDB().Exec(`INSERT INTO occupancy (day, booked) VALUES ($1, 3)`, day(40)); err != nil {
			t.Fatal(err)
		}
		if n, err := svc.RebuildOccupancy(ctx); err != nil || n != 3 {
			t.Fatalf("rebuild: %d days corrected, %v; want 3", n, err)
		}
		assertLedger(t, st, "rebuild")
	})
}
