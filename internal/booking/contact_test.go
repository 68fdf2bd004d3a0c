package booking_test

import (
	"context"
	"testing"

	"parking/internal/booking"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// docs/public-booking.md#privacy-of-anonymous-bookings: every booking keeps the contact its booker typed and how it was made.
// Online, the contact is exactly what was typed and a booking lands "by account"
// only when the session's customer is the one found by phone; at the counter, the
// fields staff leave blank come from the customer record.
func TestBookingKeepsItsContact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		first, err := svc.Create(ctx, booking.Public, validBooking()) // creates Ana (NO-REGISTRADO)
		if err != nil {
			t.Fatal(err)
		}
		ana := first.Customer

		other := validBooking()
		other.FullName, other.Email, other.Brand, other.Model = "Pedro Gómez", "", "Kia", ""
		other.SignedIn = ana.ID + 100 // signed in as somebody else
		got, err := svc.Create(ctx, booking.Public, other)
		if err != nil {
			t.Fatal(err)
		}
		if got.Customer.ID != ana.ID || got.Customer.FullName != "Ana Pérez" {
			t.Errorf("landed on %+v, want Ana (found by phone)", got.Customer)
		}
		if got.Contact.FullName != "Pedro Gómez" || got.Contact.Email != nil || got.Contact.Phone == nil || *got.Contact.Phone != "+34600111222" {
			t.Errorf("contact = %+v, want what was typed", got.Contact)
		}
		if got.Typed.Brand != "Kia" || got.Typed.Model != reservation.DefaultModel || got.Vehicle.Brand != reservation.DefaultBrand {
			t.Errorf("typed vehicle %+v, stored %+v", got.Typed, got.Vehicle)
		}
		stored, err := st.Reservations().Reservation(ctx, got.Reservation.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Contact == nil || stored.Contact.FullName != "Pedro Gómez" || stored.Contact.Email != nil || stored.BookedBy != reservation.BookedPublic || !stored.MadeWithoutLogin() {
			t.Errorf("stored reservation contact %+v booked by %q", stored.Contact, stored.BookedBy)
		}
		if c, _ := st.Customers().Customer(ctx, ana.ID); c.FullName != "Ana Pérez" || c.Email == nil || *c.Email != "ana@example.com" {
			t.Errorf("customer rewritten: %+v", c)
		}

		own := validBooking()
		own.SignedIn = ana.ID
		got, err = svc.Create(ctx, booking.Public, own)
		if err != nil {
			t.Fatal(err)
		}
		if got.Reservation.BookedBy != reservation.BookedAccount || got.Reservation.MadeWithoutLogin() {
			t.Errorf("signed-in booking: booked by %q", got.Reservation.BookedBy)
		}

		walkIn := validBooking()
		walkIn.FullName, walkIn.Email = "", ""
		got, err = svc.WalkIn(ctx, walkIn)
		if err != nil {
			t.Fatal(err)
		}
		c := got.Reservation.Contact
		if c == nil || c.FullName != "Ana Pérez" || c.Email == nil || *c.Email != "ana@example.com" || got.Reservation.BookedBy != reservation.BookedStaff {
			t.Errorf("walk-in contact %+v booked by %q, want Ana's record filled in, staff", c, got.Reservation.BookedBy)
		}
	})
}

// An administrator's edit of the customer data carries the reservation's contact
// along when the two were the same; a contact typed by someone else stays.
func TestAdminEditFollowsContact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		same, err := svc.Create(ctx, booking.Public, validBooking())
		if err != nil {
			t.Fatal(err)
		}
		other := validBooking()
		other.FullName, other.Email = "Pedro Gómez", "pedro@example.com"
		typed, err := svc.Create(ctx, booking.Public, other)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AdminUpdate(ctx, same.Reservation.ID, booking.AdminChange{FullName: ptr("Ana Pérez López")}); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[int64]string{same.Reservation.ID: "Ana Pérez López", typed.Reservation.ID: "Pedro Gómez"} {
			r, err := st.Reservations().Reservation(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if r.Contact == nil || r.Contact.FullName != want {
				t.Errorf("reservation %d contact %+v, want %s", id, r.Contact, want)
			}
		}
	})
}
