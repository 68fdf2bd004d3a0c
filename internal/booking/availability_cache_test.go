package booking_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/occupancy"
	"parking/internal/store"
	"parking/internal/storetest"
)

// quoteDays is the quote's availability of a stay from day first 10:00 to day last
// 18:00: the booked count and status of each day.
func quoteDays(t *testing.T, svc *services, first, last int) ([]int, []occupancy.Status) {
	t.Helper()
	a, err := svc.StayAvailability(context.Background(), clocktest.Day(first, 10, 0), clocktest.Day(last, 18, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The quote's buffer for the days, too short or long enough, answers the same days.
	for _, n := range []int{1, 40} {
		b, err := svc.StayAvailability(context.Background(), clocktest.Day(first, 10, 0), clocktest.Day(last, 18, 0), make([]booking.DayAvailability, n))
		if err != nil || !reflect.DeepEqual(b, a) {
			t.Fatalf("days %d-%d with a buffer of %d: %v, %v; without one %v", first, last, n, b, err, a)
		}
	}
	var booked []int
	var status []occupancy.Status
	for _, d := range a.Days {
		booked = append(booked, d.Booked)
		status = append(status, d.Status)
	}
	return booked, status
}

func wantQuote(t *testing.T, svc *services, first, last, booked int, status occupancy.Status, when string) {
	t.Helper()
	b, s := quoteDays(t, svc, first, last)
	for i := range b {
		if b[i] != booked || s[i] != status {
			t.Fatalf("%s: quote of days %d-%d booked %v %v, want %d (%s) each", when, first, last, b, s, booked, status)
		}
	}
}

// The quote's copy of the occupancy (docs/capacity.md#the-quotes-copy-of-the-occupancy):
// repeated quotes share one read; a booking here is seen by the next quote at once
// (the clock never moves), down to the day that fills up, shown full.
func TestQuoteCopyOfTheOccupancy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _, _ := capacityService(t, d, 20, 0)
		reads := booking.CountOccupancyReads(svc.Service)
		for range 20 {
			wantQuote(t, svc, 20, 22, 0, occupancy.Available, "empty days")
		}
		if n := reads.Load(); n != 1 {
			t.Fatalf("20 quotes read the window %d times, want once", n)
		}
		if _, err := svc.Create(context.Background(), booking.Public, stayBooking(1, 20, 22)); err != nil {
			t.Fatal(err)
		}
		wantQuote(t, svc, 20, 22, 1, occupancy.Available, "after a booking here")
		if n := reads.Load(); n != 2 {
			t.Fatalf("after a booking: %d reads, want 2 (the booking dropped the copy)", n)
		}
		for n := 2; n <= 20; n++ {
			if _, err := svc.Create(context.Background(), booking.Public, stayBooking(n, 21, 21)); err != nil {
				t.Fatalf("booking %d: %v", n, err)
			}
		}
		b, s := quoteDays(t, svc, 20, 22)
		if got, want := fmt.Sprint(b, s), "[1 20 1] [available full available]"; got != want {
			t.Fatalf("after filling day 21: %s, want %s", got, want)
		}
		if _, err := svc.Create(context.Background(), booking.Public, stayBooking(30, 21, 21)); len(fullDays(t, err)) != 1 {
			t.Fatalf("booking the full day: %v", err)
		}
	})
}

// Open stays count through today, so the copy is read again when the facility's day
// changes (midnight in Madrid), however young it is: a car in the car park without an
// exit counts on the new day at once.
func TestQuoteCopyAtMidnight(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _, clk := capacityService(t, d, 100, 0)
		open := stayBooking(1, 0, 0)
		open.Entry, open.Exit, open.Spot = clocktest.Day(0, 9, 0), nil, "A-1"
		if _, err := svc.WalkIn(context.Background(), open); err != nil {
			t.Fatal(err)
		}
		reads := booking.CountOccupancyReads(svc.Service)
		clk.Set(clocktest.Day(1, 0, 0).Add(-400 * time.Millisecond))
		wantQuote(t, svc, 1, 1, 0, occupancy.Available, "tomorrow, just before midnight")
		wantQuote(t, svc, 0, 0, 1, occupancy.Available, "today, just before midnight")
		clk.Advance(500 * time.Millisecond) // within the copy's TTL, on the next day
		wantQuote(t, svc, 1, 1, 1, occupancy.Available, "the new today, just after midnight")
		if n := reads.Load(); n != 2 {
			t.Fatalf("%d reads of the window across midnight, want 2", n)
		}
	})
}

// Two instances on one PostgreSQL: another instance's booking reaches this one's copy
// after booking.OccupancyCacheTTL at the latest, and a day within the margin of full is read
// from the database on every quote, so the booking that fills it is seen at once.
func TestQuoteCopyAcrossInstances(t *testing.T) {
	url := storetest.URL(t, store.Postgres)
	if !strings.HasPrefix(url, "postgres") {
		t.Skip("PostgreSQL not configured (PARKING_TEST_POSTGRES_URL)")
	}
	clk := clocktest.New()
	st1 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
	st2 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
	a, b := serviceOn(t, st1, 12, 0), serviceOn(t, st2, 12, 0)
	ctx := context.Background()
	wantQuote(t, b, 20, 20, 0, occupancy.Available, "the other instance, empty day")
	for n := 1; n <= 2; n++ {
		if _, err := a.Create(ctx, booking.Public, stayBooking(n, 20, 20)); err != nil {
			t.Fatal(err)
		}
	}
	// 10 free of 12: not yet few, within the margin (10 places) of full.
	wantQuote(t, b, 20, 20, 0, occupancy.Available, "the other instance's copy, within the TTL")
	clk.Advance(booking.OccupancyCacheTTL)
	wantQuote(t, b, 20, 20, 2, occupancy.Available, "the other instance, after the TTL")
	for n := 3; n <= 12; n++ {
		if _, err := a.Create(ctx, booking.Public, stayBooking(n, 20, 20)); err != nil {
			t.Fatal(err)
		}
	}
	wantQuote(t, b, 20, 20, 12, occupancy.Full, "the other instance, the clock unchanged")
	if _, err := b.Create(ctx, booking.Public, stayBooking(13, 20, 20)); len(fullDays(t, err)) != 1 {
		t.Fatalf("booking the full day on the other instance: %v", err)
	}
}
