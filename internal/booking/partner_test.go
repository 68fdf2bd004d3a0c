package booking_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/fault"
	"parking/internal/money"
	"parking/internal/occupancy"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// newPartner adds a partner with allotment (nil: none) and the commission rate given.
func newPartner(t *testing.T, svc *services, allotment, commission string) booking.Caller {
	t.Helper()
	p, err := booking.NewPartners(svc.Service).Create(context.Background(), booking.PartnerInput{
		Name: "Agencia " + allotment, Commission: commission, Allotment: allotment, Active: true})
	if err != nil {
		t.Fatal(err)
	}
	return booking.Caller{Partner: p}
}

// partnerBookAtOnce makes n partner bookings of c (references r0…) from day first to
// day last at once, spread over svcs, and counts the successes and the refusals for
// full days; any other error fails the test.
func partnerBookAtOnce(t *testing.T, svcs []*services, c booking.Caller, n, first, last int) (ok, full int) {
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
			_, _, err := booking.NewPartners(svcs[i%len(svcs)].Service).Book(context.Background(), c, fmt.Sprintf("r%d", i),
				stayBooking(2000+i, first, last), testOnce(fmt.Sprint(i)))
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

// 50 partner bookings racing for the last 5 places of the partner's allotment give
// exactly 5 bookings: on each database, and through two instances where the
// database is shared (PostgreSQL).
func TestPartnerAllotmentRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		url := storetest.URL(t, d)
		clk := clocktest.New()
		st1 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
		svcs := []*services{serviceOn(t, st1, 100, 0)}
		if d == store.Postgres {
			st2 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
			svcs = append(svcs, serviceOn(t, st2, 100, 0))
		}
		c := newPartner(t, svcs[0], "8", "10")
		// 3 of the 8 taken on day 11 (a stay from day 10 to 11).
		if ok, full := partnerBookAtOnce(t, svcs[:1], c, 3, 10, 11); ok != 3 || full != 0 {
			t.Fatalf("first bookings: %d booked, %d full", ok, full)
		}
		ok, full := raceRefs(t, svcs, c, 50, 11, 12)
		if ok != 5 || full != 45 {
			t.Fatalf("%d booked, %d refused as full; want 5 and 45", ok, full)
		}
		// A booking beside the partner's (the web) still sells: the allotment is a cap
		// of the partner, it reserves nothing.
		if _, err := svcs[0].Create(context.Background(), booking.Public, stayBooking(1, 11, 12)); err != nil {
			t.Fatalf("web booking on a day the partner filled: %v", err)
		}
		assertLedger(t, st1, "partner race")
	})
}

// raceRefs is partnerBookAtOnce with references that do not meet earlier ones.
func raceRefs(t *testing.T, svcs []*services, c booking.Caller, n, first, last int) (ok, full int) {
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
			_, _, err := booking.NewPartners(svcs[i%len(svcs)].Service).Book(context.Background(), c, fmt.Sprintf("race-%d", i),
				stayBooking(3000+i, first, last), testOnce(fmt.Sprint(i)))
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

// The facility's sellable places hold every channel together: with 10 places, 3 web
// bookings and a partner whose allotment (20) is larger than what is left, 50
// partner bookings at once give exactly 7.
func TestPartnerNeverOversellsTheFacility(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		url := storetest.URL(t, d)
		clk := clocktest.New()
		st1 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
		svcs := []*services{serviceOn(t, st1, 10, 0)}
		if d == store.Postgres {
			st2 := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
			svcs = append(svcs, serviceOn(t, st2, 10, 0))
		}
		for n := range 3 {
			if _, err := svcs[0].Create(context.Background(), booking.Public, stayBooking(n, 10, 10)); err != nil {
				t.Fatal(err)
			}
		}
		c := newPartner(t, svcs[0], "20", "5")
		if ok, full := raceRefs(t, svcs, c, 50, 10, 10); ok != 7 || full != 43 {
			t.Fatalf("%d booked, %d refused; want 7 and 43", ok, full)
		}
		a, err := svcs[0].Availability(context.Background(), occupancy.Span{First: day(10), Last: day(10)})
		if err != nil {
			t.Fatal(err)
		}
		if a.Days[0].Booked != 10 {
			t.Fatalf("day 10: %d booked, want 10", a.Days[0].Booked)
		}
		days, err := booking.NewPartners(svcs[0].Service).Availability(context.Background(), c, occupancy.Span{First: day(9), Last: day(10)})
		if err != nil {
			t.Fatal(err)
		}
		if *days[0].Free != 10 || *days[1].Free != 0 || days[1].Status != occupancy.Full {
			t.Fatalf("partner availability %+v %+v, want 10 free then 0 (full)", *days[0].Free, *days[1].Free)
		}
		assertLedger(t, st1, "partner and web")
	})
}

// A partner's reference is its idempotency key; its commission follows the booked
// price (recomputed by an edit, kept through an overstay, 0 once cancelled), and
// the month's statement adds up.
func TestPartnerBookingReferenceAndCommission(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _, _ := capacityService(t, d, 0, 0)
		ctx := context.Background()
		ps := booking.NewPartners(svc.Service)
		c := newPartner(t, svc, "", "12.5")
		other := newPartner(t, svc, "", "3")
		once := booking.Once{BodyHash: "body-1", Answer: func(cr booking.Created) (booking.Answer, error) {
			return booking.Answer{Status: 201, Body: []byte(fmt.Sprint(cr.Reservation.ID))}, nil
		}}
		first, stored, err := ps.Book(ctx, c, "AB-1", stayBooking(1, 3, 5), once)
		if err != nil || stored != nil {
			t.Fatalf("book: %v %v", err, stored)
		}
		if first.Reservation.Channel != reservation.PartnerChannel(c.Partner.ID) {
			t.Fatalf("channel %q", first.Reservation.Channel)
		}
		_, stored, err = ps.Book(ctx, c, "AB-1", stayBooking(1, 3, 5), once)
		if err != nil || stored == nil || string(stored.Body) != fmt.Sprint(first.Reservation.ID) {
			t.Fatalf("the same reference and body again: %v %v, want the first answer", err, stored)
		}
		once.BodyHash = "body-2"
		if _, _, err = ps.Book(ctx, c, "AB-1", stayBooking(2, 3, 6), once); fault.KindOf(err) != fault.Unprocessable {
			t.Fatalf("the same reference with another body: %v, want 422", err)
		}
		if _, _, err = ps.Book(ctx, c, "bad ref", stayBooking(2, 3, 6), once); fault.KindOf(err) != fault.Invalid || !strings.Contains(err.Error(), "partner_reference") {
			t.Fatalf("a bad reference: %v, want a 400 naming partner_reference", err)
		}
		if _, err := ps.Booking(ctx, other, "AB-1"); fault.KindOf(err) != fault.NotFound {
			t.Fatalf("another partner's reference: %v, want 404", err)
		}
		m, err := ps.Booking(ctx, c, "AB-1")
		if err != nil {
			t.Fatal(err)
		}
		r := m.Detail.Reservation
		if want := reservation.CommissionOf(r.TotalPrice, 1250); r.Commission() != want || want == 0 {
			t.Fatalf("commission %v, want %v", r.Commission(), want)
		}
		exit := clocktest.Day(8, 18, 0)
		edited, err := ps.Edit(ctx, c, "AB-1", booking.CustomerEdit{Exit: &exit})
		if err != nil {
			t.Fatal(err)
		}
		if edited.Reservation.TotalPrice == r.TotalPrice {
			t.Fatal("a longer stay kept its price")
		}
		second, _, err := ps.Book(ctx, c, "AB-2", stayBooking(3, 4, 6), booking.Once{BodyHash: "x", Answer: once.Answer})
		if err != nil {
			t.Fatal(err)
		}
		month := clocktest.Day(4, 0, 0).In(madrid).Format("2006-01")
		st, err := ps.Statement(ctx, c.Partner.ID, month)
		if err != nil {
			t.Fatal(err)
		}
		var sumPrice, sumCommission money.Cents
		for _, l := range st.Lines {
			sumPrice += l.Reservation.TotalPrice
			sumCommission += l.Commission
			if l.Commission != reservation.CommissionOf(l.Reservation.TotalPrice, 1250) {
				t.Errorf("line %d: commission %v of %v", l.Reservation.ID, l.Commission, l.Reservation.TotalPrice)
			}
		}
		if len(st.Lines) != 2 || st.TotalPrice != sumPrice || st.Commission != sumCommission {
			t.Fatalf("statement %d lines, %v / %v; lines add to %v / %v", len(st.Lines), st.TotalPrice, st.Commission, sumPrice, sumCommission)
		}
		if _, err := ps.Cancel(ctx, c, "AB-2"); err != nil {
			t.Fatal(err)
		}
		st, err = ps.Statement(ctx, c.Partner.ID, month)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Lines) != 1 || st.Lines[0].Reservation.ID == second.Reservation.ID {
			t.Fatalf("the cancelled booking is still on the statement: %+v", st.Lines)
		}
		if _, err := ps.Statement(ctx, c.Partner.ID, "2026-13"); fault.KindOf(err) != fault.Invalid {
			t.Fatalf("a bad month: %v, want 400", err)
		}
	})
}

// testOnce is a partner booking's idempotency with a body hash and a plain answer.
func testOnce(hash string) booking.Once {
	return booking.Once{BodyHash: hash, Answer: func(c booking.Created) (booking.Answer, error) {
		return booking.Answer{Status: 201, Body: []byte(fmt.Sprint(c.Reservation.ID))}, nil
	}}
}
