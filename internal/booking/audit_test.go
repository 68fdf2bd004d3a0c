package booking_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"parking/internal/audit"
	"parking/internal/audit/audittest"
	"parking/internal/booking"
	"parking/internal/catalog"
	"parking/internal/money"
	"parking/internal/records"
	"parking/internal/store"
	"parking/internal/storetest"
)

// trailOf is reservation id's trail, newest first.
func trailOf(t *testing.T, svc *services, id int64) []audit.Record {
	t.Helper()
	rows, err := svc.records.ReservationTrail(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// wantOneNew checks that the trail grew by exactly one entry since before, and
// returns it.
func wantOneNew(t *testing.T, svc *services, id int64, before int, action string) audit.Record {
	t.Helper()
	rows := trailOf(t, svc, id)
	if len(rows) != before+1 {
		t.Fatalf("%s: trail has %d entries, want %d: %+v", action, len(rows), before+1, rows)
	}
	e := rows[0]
	if e.Action != action || e.Entity != audit.EntityReservation || e.EntityID != fmt.Sprint(id) || e.ReservationID != id {
		t.Fatalf("newest entry = %+v, want %s of reservation %d", e, action, id)
	}
	return e
}

// TestAuditReservationLifecycle: each operation on a reservation writes exactly one
// entry, with its actor, the transaction's time and the fields it changed.
func TestAuditReservationLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _ := newService(t, d)
		ctx := context.Background()
		staff := audit.WithActor(ctx, audittest.Staff)

		// Public booking without an account: "público".
		created, err := svc.Create(ctx, booking.Public, validBooking())
		if err != nil {
			t.Fatal(err)
		}
		id := created.Reservation.ID
		e := wantOneNew(t, svc, id, 0, audit.ActionCreate)
		if e.Actor != audit.Public {
			t.Errorf("actor = %+v, want público", e.Actor)
		}
		c := audittest.Changes(e)
		if c["status"] != [2]string{"", "PENDIENTE"} || c["total_price"] != [2]string{"", created.Reservation.TotalPrice.String()} {
			t.Errorf("create changes = %v", c)
		}
		if c["contact.full_name"][1] != "Ana Pérez" || c["additional_services"][1] == "" {
			t.Errorf("create changes miss the contact or the extras: %v", c)
		}
		if !e.At.Equal(created.Reservation.ReservationDate) { // the transaction's clock
			t.Errorf("entry time %v, want the booking's %v", e.At, created.Reservation.ReservationDate)
		}

		// Staff update of the notes only.
		if _, err := svc.AdminUpdate(staff, id, booking.AdminChange{Notes: ptr("llaves en recepción")}); err != nil {
			t.Fatal(err)
		}
		e = wantOneNew(t, svc, id, 1, audit.ActionUpdate)
		audittest.WantChanges(t, e, map[string][2]string{"notes": {"", "llaves en recepción"}})
		if e.Actor != audittest.Staff {
			t.Errorf("actor = %+v, want %+v", e.Actor, audittest.Staff)
		}
		// An update that changes nothing records nothing.
		if _, err := svc.AdminUpdate(staff, id, booking.AdminChange{Notes: ptr("llaves en recepción")}); err != nil {
			t.Fatal(err)
		}
		if n := len(trailOf(t, svc, id)); n != 2 {
			t.Fatalf("no-op update: trail has %d entries, want 2", n)
		}
		// The spot alone: "spot".
		if _, err := svc.AdminUpdate(staff, id, booking.AdminChange{Spot: ptr("a-12")}); err != nil {
			t.Fatal(err)
		}
		e = wantOneNew(t, svc, id, 2, audit.ActionSpot)
		audittest.WantChanges(t, e, map[string][2]string{"cod_parking_spot": {"", "A-12"}})
		// Vehicle and dates together, repriced.
		before := trailOf(t, svc, id)
		newExit := created.Reservation.Exit.Add(24 * time.Hour)
		upd, err := svc.AdminUpdate(staff, id, booking.AdminChange{Brand: ptr("Seat"), ExitSet: true, Exit: &newExit})
		if err != nil {
			t.Fatal(err)
		}
		e = wantOneNew(t, svc, id, len(before), audit.ActionUpdate)
		c = audittest.Changes(e)
		if c["brand"] != [2]string{"Desconocida", "Seat"} || c["total_price"] != [2]string{created.Reservation.TotalPrice.String(), upd.Reservation.TotalPrice.String()} || c["exit_date"][0] == c["exit_date"][1] {
			t.Errorf("update changes = %v", c)
		}

		// Photos, one entry each.
		for i := 1; i <= 5; i++ {
			if _, _, err := svc.handover.AddPhoto(staff, id, fmt.Sprintf("https://fotos.example.com/%d.jpg", i), "lateral"); err != nil {
				t.Fatal(err)
			}
			e = wantOneNew(t, svc, id, len(before)+i, audit.ActionPhoto)
			audittest.WantChanges(t, e, map[string][2]string{"photos": {fmt.Sprint(i - 1), fmt.Sprint(i)},
				"photo": {"", fmt.Sprintf("https://fotos.example.com/%d.jpg (lateral)", i)}})
		}
		n := len(trailOf(t, svc, id))

		if _, err := svc.Start(staff, id); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, wantOneNew(t, svc, id, n, audit.ActionStart), map[string][2]string{"status": {"PENDIENTE", "EN CURSO"}})

		if err := svc.RequestInvoice(staff, id); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, wantOneNew(t, svc, id, n+1, audit.ActionInvoiceRequest), map[string][2]string{"notification": {"", "invoice"}})

		if _, err := svc.Finalize(staff, id, "TARJETA"); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, wantOneNew(t, svc, id, n+2, audit.ActionFinalize), map[string][2]string{
			"status": {"EN CURSO", "FINALIZADA"}, "is_paid": {"no", "sí"}, "payment_method": {"", "TARJETA"}})

		// The trail is newest first, every entry of this reservation.
		rows := trailOf(t, svc, id)
		for i := 1; i < len(rows); i++ {
			if rows[i].ID >= rows[i-1].ID {
				t.Fatalf("trail not newest first: %d then %d", rows[i-1].ID, rows[i].ID)
			}
		}
	})
}

// TestAuditWalkInCancelAndCustomer: walk-in and staff cancel name the staff member;
// the customer's own edit and cancel name the customer.
func TestAuditWalkInCancelAndCustomer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		staff := audit.WithActor(ctx, audittest.Staff)

		in := validBooking()
		in.Spot = "B-3"
		w, err := svc.WalkIn(staff, in)
		if err != nil {
			t.Fatal(err)
		}
		e := wantOneNew(t, svc, w.Reservation.ID, 0, audit.ActionWalkIn)
		if e.Actor != audittest.Staff || audittest.Changes(e)["cod_parking_spot"] != [2]string{"", "B-3"} {
			t.Errorf("walk-in entry = %+v", e)
		}
		if _, err := svc.AdminCancel(staff, w.Reservation.ID); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, wantOneNew(t, svc, w.Reservation.ID, 1, audit.ActionCancel), map[string][2]string{
			"status": {"PENDIENTE", "CANCELADA"}, "cod_parking_spot": {"B-3", ""}})

		in2 := validBooking()
		in2.Phone, in2.LicensePlate = "611000111", "5555XYZ"
		created, err := svc.Create(ctx, booking.Public, in2)
		if err != nil {
			t.Fatal(err)
		}
		owner, id := created.Customer.ID, created.Reservation.ID
		claimed(t, st, id)
		customer := audit.WithActor(ctx, audit.Actor{Kind: audit.KindCustomer, ID: owner, Name: "Ana Pérez", Email: "ana@example.com"})
		newExit := created.Reservation.Entry.Add(2 * 24 * time.Hour)
		if _, err := svc.CustomerEdit(customer, owner, id, booking.CustomerEdit{Exit: &newExit}); err != nil {
			t.Fatal(err)
		}
		e = wantOneNew(t, svc, id, 1, audit.ActionCustomerEdit)
		if e.Actor.ID != owner || e.Actor.Kind != audit.KindCustomer {
			t.Errorf("customer edit actor = %+v", e.Actor)
		}
		if c := audittest.Changes(e); c["exit_date"][0] == c["exit_date"][1] || c["total_price"][0] == c["total_price"][1] {
			t.Errorf("customer edit changes = %v", c)
		}
		if _, err := svc.CustomerCancel(customer, owner, id); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, wantOneNew(t, svc, id, 2, audit.ActionCancel), map[string][2]string{"status": {"PENDIENTE", "CANCELADA"}})
	})
}

// TestAuditFailedOperationWritesNothing: a refused or failed operation rolls its
// entry back with everything else.
func TestAuditFailedOperationWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _ := newService(t, d)
		ctx := audit.WithActor(context.Background(), audittest.Staff)
		created, err := svc.Create(ctx, booking.Public, validBooking())
		if err != nil {
			t.Fatal(err)
		}
		id := created.Reservation.ID
		// Refused before writing: start without photos, a bad payment method.
		if _, err := svc.Start(ctx, id); err == nil {
			t.Fatal("start without photos succeeded")
		}
		// Refused after writing part of the change: the customer's phone taken by
		// another customer is found after the reservation fields were computed.
		other := validBooking()
		other.Phone, other.LicensePlate = "622333444", "7777KLM"
		if _, err := svc.Create(ctx, booking.Public, other); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AdminUpdate(ctx, id, booking.AdminChange{Notes: ptr("nota"), Phone: ptr("622333444")}); err == nil {
			t.Fatal("update with another customer's phone succeeded")
		}
		// A catalog rate overlapping another one.
		if _, err := svc.catalog.CreateRate(ctx, catalog.RateInput{MainService: ptr(int64(1)), MinDays: ptr(int64(1)), MaxDays: ptr(int64(3)), DailyPrice: ptr(money.Cents(100))}); err == nil {
			t.Fatal("overlapping rate accepted")
		}
		if n := len(trailOf(t, svc, id)); n != 1 {
			t.Fatalf("trail has %d entries after refused operations, want only the booking's", n)
		}
		page, err := svc.records.AuditTrail(ctx, records.AuditQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 2 { // the two bookings
			t.Fatalf("whole trail has %d entries, want 2: %+v", page.Total, page.Entries)
		}
	})
}
