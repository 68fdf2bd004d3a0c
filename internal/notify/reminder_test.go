package notify_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/managelink"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

type reminderRow struct {
	id      int64
	status  string
	due     time.Time
	lastErr sql.NullString
	payload string
}

// reminders lists a reservation's booking_reminder rows, oldest first.
func reminders(t *testing.T, st *store.Store, id int64) []reminderRow {
	t.Helper()
	rows, err := st.DB().Query(`SELECT id, status, next_attempt_at, last_error, payload FROM notification
		WHERE id_reservation = $1 AND type = 'booking_reminder' ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []reminderRow
	for rows.Next() {
		var r reminderRow
		if err := rows.Scan(&r.id, &r.status, &r.due, &r.lastErr, &r.payload); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// bookAt books entry (for 3 days) with an email and returns the booking.
func (e *env) bookAt(t *testing.T, entry time.Time, plate string) booking.Created {
	t.Helper()
	exit := entry.AddDate(0, 0, 3)
	c, err := e.svc.Create(context.Background(), booking.Public, booking.NewBooking{
		FullName: "Ana Pérez", Phone: "6" + plate[len(plate)-7:] + "0", Email: "ana@example.com",
		LicensePlate: plate, VehicleType: "Turismo", Entry: entry, Exit: &exit, MainService: 1,
	})
	if err != nil {
		t.Fatalf("create booking: %v", err)
	}
	// The tests edit and cancel it as its customer's account would: a booking the
	// account sees (docs/privacy.md#who-sees-a-booking), here by a claim.
	if err := e.st.InTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Customers().ClaimReservation(context.Background(), c.Reservation.ID, c.Customer.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return c
}

func (e *env) withLinksAndFacility() {
	e.outbox.SetManageLinks(managelink.New([]byte("test-secret-key-0123456789"), "https://parking.example"))
	e.outbox.SetFacility(func(context.Context, *store.Tx) (notify.FacilityData, error) {
		return notify.FacilityData{Name: "Parking Aeropuerto", Address: "Calle del Aeropuerto 1, Madrid", Phone: "+34910000000"}, nil
	})
}

// docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: a booking more than 24 hours ahead schedules its reminder in the
// outbox, due at entry − 24 h; the dispatcher sends nothing before then and sends
// it when due, with the booking, the manage link and the facility.
func TestReminderIsSentTheDayBefore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		e.withLinksAndFacility()
		entry := clocktest.Day(3, 10, 0)
		c := e.bookAt(t, entry, "R0000001")
		rs := reminders(t, e.st, c.Reservation.ID)
		if len(rs) != 1 || rs[0].status != "pending" || !rs[0].due.Equal(entry.Add(-24*time.Hour)) {
			t.Fatalf("reminders = %+v, want one pending due at %s", rs, entry.Add(-24*time.Hour))
		}

		rc := newReceiver(t, e.p, ok)
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), fast())
		e.p.waitFor(t, 5*time.Second, "the confirmation recorded", func() bool {
			return countRows(t, e.st, "type = 'booking_confirmation' AND status = 'sent'") == 1
		})
		e.clk.Set(entry.Add(-24*time.Hour - time.Minute))
		e.p.quietAt(t, e.clk.Now())
		if n := len(rc.deliveries()); n != 1 {
			t.Fatalf("%d deliveries a minute before the reminder is due, want 1", n)
		}
		e.clk.Set(entry.Add(-24 * time.Hour))
		e.p.waitFor(t, 5*time.Second, "the reminder", func() bool { return len(rc.deliveries()) == 2 })
		got := rc.deliveries()[1]
		var p notify.Nested
		if err := json.Unmarshal(got.body, &p); err != nil {
			t.Fatal(err)
		}
		ref := c.Reservation.Reference[:4] + "-" + c.Reservation.Reference[4:]
		if got.kind != "booking_reminder" || p.Type != notify.BookingReminder || p.Reserva.Referencia != ref ||
			!strings.HasPrefix(p.ManageURL, "https://parking.example/reserva/"+ref+"?t=") ||
			p.Facility == nil || p.Facility.Name != "Parking Aeropuerto" || p.Facility.Address == "" || p.Facility.Phone != "+34910000000" ||
			p.Cliente.Email != "ana@example.com" || p.MainService.Name != "ECO" {
			t.Errorf("reminder %s: %s", got.kind, got.body)
		}
		e.p.waitFor(t, 5*time.Second, "the reminder recorded", func() bool {
			rs := reminders(t, e.st, c.Reservation.ID)
			return len(rs) == 1 && rs[0].status == "sent"
		})
	})
}

// The reminder moves with the entry, is dropped (status cancelled, with the
// reason) when the entry comes within 24 hours, when the booking is cancelled or
// when the car comes in; a booking made less than 24 hours ahead gets none.
func TestReminderMovesAndIsDropped(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		ctx := context.Background()
		c := e.bookAt(t, clocktest.Day(3, 10, 0), "R0000002")
		id, owner := c.Reservation.ID, c.Customer.ID
		first := reminders(t, e.st, id)[0]

		// Moved: the same row, due a day before the new entry, with the new dates.
		newEntry := clocktest.Day(5, 8, 30)
		newExit := newEntry.AddDate(0, 0, 2)
		if _, err := e.svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Entry: newEntry, Exit: &newExit}); err != nil {
			t.Fatal(err)
		}
		rs := reminders(t, e.st, id)
		if len(rs) != 1 || rs[0].id != first.id || rs[0].status != "pending" || !rs[0].due.Equal(newEntry.Add(-24*time.Hour)) ||
			!strings.Contains(rs[0].payload, `"fecha_entrada":"25/11/2026, 08:30:00"`) {
			t.Errorf("after moving the entry: %+v", rs)
		}

		// Within 24 hours: dropped.
		soon := clocktest.Day(0, 22, 0)
		soonExit := soon.AddDate(0, 0, 2)
		if _, err := e.svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Entry: soon, Exit: &soonExit}); err != nil {
			t.Fatal(err)
		}
		rs = reminders(t, e.st, id)
		if len(rs) != 1 || rs[0].status != "cancelled" || rs[0].lastErr.String != notify.ReasonReminderTooLate {
			t.Errorf("after moving the entry within 24 h: %+v", rs)
		}

		// Moved out again: a new one; then the booking is cancelled: dropped.
		if _, err := e.svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{Entry: newEntry, Exit: &newExit}); err != nil {
			t.Fatal(err)
		}
		if rs = reminders(t, e.st, id); len(rs) != 2 || rs[1].status != "pending" {
			t.Errorf("after moving the entry out again: %+v", rs)
		}
		if _, err := e.svc.CustomerCancel(ctx, owner, id); err != nil {
			t.Fatal(err)
		}
		if rs = reminders(t, e.st, id); rs[1].status != "cancelled" || rs[1].lastErr.String != notify.ReasonReminderCancelled {
			t.Errorf("after cancelling: %+v", rs)
		}

		// The car comes in before the reminder is due: dropped.
		c2 := e.bookAt(t, clocktest.Day(4, 10, 0), "R0000003")
		spot := "B7"
		if _, err := e.svc.AdminUpdate(ctx, c2.Reservation.ID, booking.AdminChange{Spot: &spot}); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if _, _, err := e.photos.AddPhoto(ctx, c2.Reservation.ID, "https://fotos.example/x.jpg", "frontal"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.svc.Start(ctx, c2.Reservation.ID); err != nil {
			t.Fatal(err)
		}
		if rs = reminders(t, e.st, c2.Reservation.ID); len(rs) != 1 || rs[0].status != "cancelled" || rs[0].lastErr.String != notify.ReasonReminderStarted {
			t.Errorf("after the vehicle came in: %+v", rs)
		}

		// Booked less than 24 hours ahead: none.
		c3 := e.bookAt(t, clocktest.Day(0, 20, 0), "R0000004")
		if rs = reminders(t, e.st, c3.Reservation.ID); len(rs) != 0 {
			t.Errorf("booking 10 hours ahead has reminders %+v", rs)
		}
	})
}

// Without a webhook the reminder is recorded as skipped, and a booking keeps that
// one row however often its entry moves.
func TestSkippedReminderMovesInPlace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, false)
		ctx := context.Background()
		c := e.bookAt(t, clocktest.Day(3, 10, 0), "R0000005")
		for i, day := range []int{5, 6, 4} {
			entry := clocktest.Day(day, 10, 0)
			exit := entry.AddDate(0, 0, 2)
			if _, err := e.svc.CustomerEdit(ctx, c.Customer.ID, c.Reservation.ID, booking.CustomerEdit{Entry: entry, Exit: &exit}); err != nil {
				t.Fatal(err)
			}
			rs := reminders(t, e.st, c.Reservation.ID)
			if len(rs) != 1 || rs[0].status != "skipped" || !rs[0].due.Equal(entry.Add(-24*time.Hour)) {
				t.Errorf("move %d: reminders %+v", i, rs)
			}
		}
	})
}
