package ui_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Spots are physical: a spot cannot be held by two reservations that are not
// terminal and whose stays overlap; an open exit overlaps everything after its
// entry. The refusal is a 409 naming the other reservation, for walk-ins and
// updates alike. Spot codes are trimmed and upper-cased, so " a-1" is "A-1".
func TestAdminSpotConflicts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		day := func(n int) time.Time { return time.Date(2027, 3, n, 10, 0, 0, 0, webtest.Madrid) }

		holder := e.WalkIn(webtest.WalkInFields(1, day(1), 3, "A-1")) // [1 Mar, 4 Mar)
		taken := fmt.Sprintf("La plaza A-1 ya está asignada a la reserva %d (desde el 01/03/2027, 10:00:00, hasta el 04/03/2027, 10:00:00) en fechas que se solapan.", holder)

		status, body := e.JSON("POST", "/admin/reservations/new", webtest.WalkInFields(2, day(3), 3, " a-1 "))
		webtest.WantMessage(t, status, body, 409, taken)
		status, body = e.JSON("POST", "/admin/reservations/new", webtest.WalkInFields(2, day(2), 1, "A-1")) // inside
		webtest.WantMessage(t, status, body, 409, taken)
		b := webtest.WalkInFields(2, day(1).Add(-48*time.Hour), 0, "A-1") // starts before, open exit
		delete(b, "exit_date")
		status, body = e.JSON("POST", "/admin/reservations/new", b)
		webtest.WantMessage(t, status, body, 409, taken)

		// Touching stays do not overlap: leaving at 10:00 and arriving at 10:00.
		after := e.WalkIn(webtest.WalkInFields(3, day(4), 2, "A-1"))  // [4 Mar, 6 Mar)
		before := e.WalkIn(webtest.WalkInFields(4, day(0), 1, "a-1")) // [28 Feb, 1 Mar)

		// An update that moves dates or the spot into another holder's stay is refused.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", after), map[string]any{"entry_date": "2027-03-03T10:00"})
		webtest.WantMessage(t, status, body, 409, taken)
		other := e.WalkIn(webtest.WalkInFields(5, day(2), 1, "B-1"))
		status, body = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", other), map[string]any{"cod_parking_spot": "a-1"})
		webtest.WantMessage(t, status, body, 409, taken)
		if r := e.Stored(other); *r.Spot != "B-1" {
			t.Errorf("refused update moved the spot to %s", *r.Spot)
		}

		// An open exit holds the spot for good.
		open := webtest.WalkInFields(6, day(10), 0, "C-1")
		delete(open, "exit_date")
		openID := e.WalkIn(open)
		status, body = e.JSON("POST", "/admin/reservations/new", webtest.WalkInFields(7, day(20).AddDate(1, 0, 0), 2, "C-1"))
		webtest.WantMessage(t, status, body, 409, fmt.Sprintf("La plaza C-1 ya está asignada a la reserva %d (desde el 10/03/2027, 10:00:00, sin fecha de salida) en fechas que se solapan.", openID))
		e.WalkIn(webtest.WalkInFields(7, day(5), 5, "C-1")) // ends on 10 March at 10:00: fine

		// Terminal reservations hold nothing: a cancelled one frees the spot at once,
		// a finalized one is history.
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", before), nil)
		e.WalkIn(webtest.WalkInFields(8, day(0), 1, "A-1"))
		fin := e.StartedReservation(9, "D-1")
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", fin), map[string]any{"paymentMethod": "TARJETA"})
		e.WalkIn(webtest.WalkInFields(10, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 3, "D-1"))

		// The same reservation does not conflict with itself.
		if st, b := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", holder), map[string]any{"exit_date": "2027-03-03T12:00", "cod_parking_spot": "A-1"}); st != 200 {
			t.Errorf("self edit: %d %v", st, b)
		}
	})
}

// On PostgreSQL the rule is also the exclusion constraint of migration 0003, so a
// writer that skipped the check still cannot double-book a spot.
func TestSpotExclusionConstraint(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		if d != store.Postgres {
			t.Skip("the exclusion constraint is PostgreSQL's; SQLite relies on the check in the write transaction")
		}
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 3, "A-1"))
		r := e.Stored(id)
		_, err := e.A.Store.WriteDB().Exec(`INSERT INTO reservation (reservation_date, entry_date, exit_date, status, total_price_cents,
			cod_parking_spot, id_customer, id_vehicle, id_main_service, updated_at)
			VALUES ($1, $2, NULL, 'EN CURSO', 100, 'A-1', $3, $4, 1, $1)`, e.A.Config.Clock(), r.Entry.Add(-time.Hour), r.CustomerID, r.VehicleID)
		if !store.IsExclusionViolation(err) {
			t.Fatalf("insert over a held spot: err = %v, want an exclusion violation (23P01)", err)
		}
		_, err = e.A.Store.WriteDB().Exec(`INSERT INTO reservation (reservation_date, entry_date, exit_date, status, total_price_cents,
			cod_parking_spot, id_customer, id_vehicle, id_main_service, updated_at)
			VALUES ($1, $2, NULL, 'CANCELADA', 100, 'A-1', $3, $4, 1, $1)`, e.A.Config.Clock(), r.Entry.Add(-time.Hour), r.CustomerID, r.VehicleID)
		if err != nil {
			t.Errorf("a terminal reservation may share the spot: %v", err)
		}
	})
}

// The customer's own edit keeps the spot but moves the dates: it must not land on
// another stay of the same spot (both databases), and the refusal does not name
// someone else's reservation. The live board hears of the customer's cancel.
func TestCustomerEditKeepsSpotFree(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		customer, _ := apptest.Customer(t, e.A, "cliente@example.com", "611000111")
		mine := webtest.WalkInFields(1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "A-1") // [1 Mar, 3 Mar)
		mine["phone"] = "611000111"
		id := e.WalkIn(mine)
		e.WalkIn(webtest.WalkInFields(2, time.Date(2027, 3, 5, 10, 0, 0, 0, webtest.Madrid), 2, "A-1")) // [5 Mar, 7 Mar)

		edit := func(body string) (int, string) {
			req, _ := http.NewRequest("PUT", fmt.Sprintf("%s/users/profile/reservation/%d/edit", e.A.URL, id), strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := customer.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		status, body := edit(`{"exit_date":"2027-03-06T10:00"}`)
		if status != 409 || !strings.Contains(body, "Las nuevas fechas coinciden con otra reserva en la misma plaza") {
			t.Errorf("overlapping edit: %d %s", status, body)
		}
		if r := e.Stored(id); !r.Exit.Equal(time.Date(2027, 3, 3, 10, 0, 0, 0, webtest.Madrid)) {
			t.Errorf("refused edit moved the exit to %v", r.Exit)
		}
		if status, body := edit(`{"exit_date":"2027-03-05T10:00"}`); status != 200 {
			t.Errorf("touching edit: %d %s", status, body)
		}

		sub := e.A.Booking.ParkingFeed().Subscribe()
		defer sub.Close()
		req, _ := http.NewRequest("DELETE", fmt.Sprintf("%s/users/profile/reservation/%d/cancel", e.A.URL, id), nil)
		resp, err := customer.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		select {
		case ev := <-sub.C:
			if ev.Kind != "cancelled" || ev.ReservationID != id {
				t.Errorf("event = %+v", ev)
			}
		case <-time.After(5 * time.Second):
			t.Error("no feed event for the customer's cancel")
		}
	})
}
