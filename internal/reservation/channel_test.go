package reservation_test

import (
	"testing"

	"parking/internal/money"
	"parking/internal/reservation"
)

func TestCommissionRoundsHalfAwayFromZero(t *testing.T) {
	for _, c := range []struct {
		price money.Cents
		bp    int64
		want  money.Cents
	}{
		{10000, 1250, 1250}, // 100.00 × 12.5 % = 12.50
		{1, 5000, 1},        // 0.005 → 0.01
		{3, 5000, 2},        // 0.015 → 0.02
		{2, 2499, 0},        // 0.004998 → 0.00
		{-3, 5000, -2},      // half away from zero below 0 too
		{12345, 1, 1},       // 123.45 × 0.01 % = 1.2345 cents → 1
		{999, 10000, 999},
		{0, 10000, 0},
	} {
		if got := reservation.CommissionOf(c.price, c.bp); got != c.want {
			t.Errorf("CommissionOf(%d, %d) = %d, want %d", c.price, c.bp, got, c.want)
		}
	}
}

func TestCommissionOfAReservation(t *testing.T) {
	booked := money.Cents(5000)
	r := reservation.Reservation{TotalPrice: 8000, Status: reservation.Finalized, Sale: &reservation.PartnerSale{PartnerID: 1, RateBP: 1000}}
	if got := r.Commission(); got != 800 {
		t.Errorf("commission = %d, want 800", got)
	}
	r.BookedPrice = &booked // an overstay repriced it: the partner sold the booked stay
	if got := r.Commission(); got != 500 {
		t.Errorf("commission after an overstay = %d, want 500", got)
	}
	r.Status = reservation.Cancelled
	if got := r.Commission(); got != 0 {
		t.Errorf("cancelled commission = %d, want 0", got)
	}
	if got := (reservation.Reservation{TotalPrice: 100}).Commission(); got != 0 {
		t.Errorf("web booking commission = %d, want 0", got)
	}
}

func TestChannels(t *testing.T) {
	if got := reservation.ChannelOf(reservation.BookedStaff, 0); got != "counter" {
		t.Errorf("walk-in channel %q", got)
	}
	if got := reservation.ChannelOf(reservation.BookedPublic, 7); got != "partner:7" {
		t.Errorf("partner channel %q", got)
	}
	for c, ok := range map[string]bool{"web": true, "counter": true, "partner:3": true, "partner:0": false, "partner:03": false, "partner:": false, "x": false} {
		if reservation.ValidChannel(c) != ok {
			t.Errorf("ValidChannel(%q) = %v", c, !ok)
		}
	}
}
