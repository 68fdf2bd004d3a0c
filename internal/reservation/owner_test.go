package reservation_test

import (
	"testing"
	"time"

	"parking/internal/reservation"
)

// Who sees a booking (docs/privacy.md#who-sees-a-booking), rule by rule.
func TestSeenBy(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s := func(v string) *string { return &v }
	account := reservation.Customer{ID: 7, Email: s("Ana@Example.com")}
	verified := account
	verified.EmailVerifiedAt = &at
	contact := func(email *string) *reservation.Contact {
		return &reservation.Contact{FullName: "X", Email: email, Phone: s("+34600000000")}
	}
	for _, c := range []struct {
		name string
		r    reservation.Reservation
		c    reservation.Customer
		want bool
	}{
		{"booked while signed in", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedAccount, Contact: contact(s("otra@example.com"))}, account, true},
		{"claimed", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedPublic, ClaimedAt: &at, Contact: contact(s("otra@example.com"))}, account, true},
		{"public, same email, unverified", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedPublic, Contact: contact(s("ana@example.com"))}, account, false},
		{"public, same email ignoring case, verified", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedPublic, Contact: contact(s("ANA@example.COM"))}, verified, true},
		{"public, another email, verified", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedPublic, Contact: contact(s("otra@example.com"))}, verified, false},
		{"public, no email, verified", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedPublic, Contact: contact(nil)}, verified, false},
		{"walk-in, same email, verified", reservation.Reservation{CustomerID: 7, BookedBy: reservation.BookedStaff, Contact: contact(s("ana@example.com"))}, verified, true},
		{"before contacts, verified", reservation.Reservation{CustomerID: 7}, verified, true},
		{"before contacts, unverified", reservation.Reservation{CustomerID: 7}, account, false},
		{"another customer's, claimed", reservation.Reservation{CustomerID: 8, BookedBy: reservation.BookedAccount, ClaimedAt: &at}, verified, false},
	} {
		if got := reservation.SeenBy(c.r, c.c); got != c.want {
			t.Errorf("%s: SeenBy = %v, want %v", c.name, got, c.want)
		}
	}
	// The area keeps what is seen, and hides a vehicle used only by unseen bookings.
	area := reservation.CustomerArea{Customer: verified,
		Vehicles: []reservation.Vehicle{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}},
		Reservations: []reservation.CustomerReservation{
			{Reservation: reservation.Reservation{ID: 10, CustomerID: 7, VehicleID: 1, BookedBy: reservation.BookedAccount}},
			{Reservation: reservation.Reservation{ID: 11, CustomerID: 7, VehicleID: 2, BookedBy: reservation.BookedPublic, Contact: contact(s("x@example.com"))}},
			{Reservation: reservation.Reservation{ID: 12, CustomerID: 7, VehicleID: 3, BookedBy: reservation.BookedPublic, Contact: contact(s("x@example.com"))}},
			{Reservation: reservation.Reservation{ID: 13, CustomerID: 7, VehicleID: 3, BookedBy: reservation.BookedAccount}},
		}}
	got := reservation.SeenArea(area)
	var ids, vehicles []int64
	for _, r := range got.Reservations {
		ids = append(ids, r.ID)
	}
	for _, v := range got.Vehicles {
		vehicles = append(vehicles, v.ID)
	}
	if len(ids) != 2 || ids[0] != 10 || ids[1] != 13 || len(vehicles) != 3 || vehicles[0] != 1 || vehicles[1] != 3 || vehicles[2] != 4 {
		t.Errorf("seen area: reservations %v vehicles %v, want [10 13] and [1 3 4]", ids, vehicles)
	}
}
