package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A booking's reservation and its additional services: a service that cannot be
// stored (unknown id) refuses the insert, and its transaction leaves nothing of the
// reservation; a service listed twice is stored once, at its price.
func TestReservationWithItsServicesAllOrNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		var nr store.NewReservation
		if err := st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO main_service (name) VALUES ('ECO')`); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO additional_service (name, price_cents) VALUES ('Lavado', 1500)`); err != nil {
				return err
			}
			c, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "Ana", Phone: "+34600000001"})
			if err != nil {
				return err
			}
			v, _, err := tx.Customers().FindOrCreateVehicleByPlate(ctx, reservation.Vehicle{LicensePlate: "1234BCD", Brand: "B", Model: "M", Color: "C", Type: "TURISMO"})
			nr = store.NewReservation{Entry: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), TotalPrice: 3600,
				CustomerID: c.ID, VehicleID: v.ID, MainServiceID: 1}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		count := func(table string) int {
			t.Helper()
			var n int
			if err := st.QueryRow(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		refused := nr
		refused.Extras = []store.BookedExtra{{ID: 1, Price: 1500}, {ID: 999, Price: 100}}
		err := st.InTx(ctx, func(tx *store.Tx) error {
			_, err := tx.Reservations().InsertReservation(ctx, refused)
			return err
		})
		if err == nil {
			t.Fatal("a reservation with an unknown additional service was stored")
		}
		if r, x := count("reservation"), count("reservation_additional_service"); r != 0 || x != 0 {
			t.Fatalf("after the refused insert: %d reservations, %d services, want none", r, x)
		}

		twice := nr
		twice.Extras = []store.BookedExtra{{ID: 1, Price: 1500}, {ID: 1, Price: 1500}}
		var id int64
		if err := st.InTx(ctx, func(tx *store.Tx) error {
			r, err := tx.Reservations().InsertReservation(ctx, twice)
			id = r.ID
			return err
		}); err != nil {
			t.Fatal(err)
		}
		got, err := st.Reservations().ReservationExtras(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].ID != 1 || got[0].Price != 1500 || got[0].Name != "Lavado" {
			t.Fatalf("services of the reservation = %+v, want Lavado once at 15.00", got)
		}
	})
}

// A booking's confirmation and reminder are inserted in one statement: a row that
// cannot be stored (a delivery id already taken) refuses both, at the call on SQLite
// or, queued on PostgreSQL, at the transaction's next round trip (here its commit);
// stored, they keep the order given, each with its own due time, status and reason.
func TestNotificationsInOneInsertAllOrNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		due := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		reason := "sin correo"
		rows := []store.NewNotification{
			{Type: "booking_confirmation", DeliveryID: "d-1", Payload: []byte(`{"a":1}`), Status: store.NotificationPending},
			{Type: "booking_reminder", DeliveryID: "d-2", Payload: []byte(`{"b":2}`), Status: store.NotificationSkipped, LastError: &reason, DueAt: due},
		}
		clash := []store.NewNotification{rows[0], rows[1]}
		clash[1].DeliveryID = "d-1"
		err := st.InTx(ctx, func(tx *store.Tx) error { return tx.Outbox().InsertNotifications(ctx, clash) })
		if err == nil || !strings.Contains(err.Error(), "insert 2 notifications") {
			t.Fatalf("two rows with one delivery id: %v, want the insert's refusal", err)
		}
		var n int
		if err := st.QueryRow(ctx, `SELECT COUNT(*) FROM notification`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d rows after the refused insert (%v), want none", n, err)
		}

		if err := st.InTx(ctx, func(tx *store.Tx) error { return tx.Outbox().InsertNotifications(ctx, rows) }); err != nil {
			t.Fatal(err)
		}
		q, err := st.Query(ctx, `SELECT type, delivery_id, payload, status, COALESCE(last_error, ''), next_attempt_at, created_at FROM notification ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer q.Close()
		var got []string
		var dues, made []time.Time
		for q.Next() {
			var typ, del, payload, status, last string
			var at, created time.Time
			if err := q.Scan(&typ, &del, &payload, &status, &last, &at, &created); err != nil {
				t.Fatal(err)
			}
			got = append(got, typ+" "+del+" "+payload+" "+status+" "+last)
			dues, made = append(dues, at.UTC()), append(made, created.UTC())
		}
		want := []string{`booking_confirmation d-1 {"a":1} pending `, `booking_reminder d-2 {"b":2} skipped sin correo`}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("rows = %q, want %q", got, want)
		}
		if !dues[0].Equal(made[0]) || !dues[1].Equal(due) || !made[1].Equal(made[0]) {
			t.Fatalf("due %v, created %v: want the confirmation due at once and the reminder at %v", dues, made, due)
		}
	})
}
