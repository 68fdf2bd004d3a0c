package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/fault"
	"parking/internal/localtime"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A booking writes its booking_confirmation row in the same transaction: one row,
// pending, due now, whose stored payload describes the committed booking.
func TestBookingEnqueuesConfirmation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		id := e.book(t, "ana@example.com")
		h := history(t, e, id)
		if len(h) != 1 {
			t.Fatalf("history = %+v, want one row", h)
		}
		got := h[0]
		if got.Type != "booking_confirmation" || got.Status != "pending" || got.Attempts != 0 || got.SentAt != nil || got.LastError != nil {
			t.Errorf("row = %+v, want a pending booking_confirmation, no attempts", got)
		}
		if _, err := time.Parse(time.RFC3339, got.CreatedAt); err != nil {
			t.Errorf("created_at %q is not RFC 3339: %v", got.CreatedAt, err)
		}
		var p notify.Nested
		var payload string
		if err := e.st.DB().QueryRow("SELECT payload FROM notification WHERE id = $1", got.ID).Scan(&payload); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			t.Fatal(err)
		}
		matchesStoredRows(t, e, id, payload)
		// 4 days 3 h → 5 days of ECO at 8 € × SUV 1.25 = 50 €, plus a 15 € wash.
		want := notify.Reserva{IDReservation: strconv.FormatInt(id, 10), Matricula: p.Reserva.Matricula,
			Referencia:   p.Reserva.Referencia,
			FechaEntrada: localtime.Spanish(clocktest.Day(0, 20, 0), madrid), FechaSalida: localtime.Spanish(clocktest.Day(4, 23, 0), madrid),
			PrecioTotal: "65.00", HoraEntrada: "20:00"}
		if len(p.Reserva.Referencia) != 9 || p.Reserva.Referencia[4] != '-' {
			t.Errorf("reserva.referencia = %q, want XXXX-XXXX", p.Reserva.Referencia)
		}
		if p.Type != notify.BookingConfirmation || p.Reserva != want || p.Cliente.Email != "ana@example.com" ||
			p.MainService != (notify.Line{Name: "ECO", Price: 5000}) || len(p.AdditionalServices) != 1 ||
			p.Vehicle != (notify.VehicleData{Brand: "Desconocida", Model: "Desconocido", Color: "No color"}) {
			t.Errorf("payload = %+v", p)
		}
	})
}

// A walk-in (open exit, extras given out of order) is confirmed too.
func TestWalkInEnqueuesConfirmation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		c, err := e.svc.Create(context.Background(), booking.WalkIn, booking.NewBooking{
			FullName: "Luis", Phone: "655000111", Email: "luis@example.com", LicensePlate: "W1",
			VehicleType: "COCHE", MainService: 2, Extras: []int64{3, 1},
		})
		if err != nil {
			t.Fatal(err)
		}
		var payload string
		if err := e.st.DB().QueryRow("SELECT payload FROM notification WHERE id_reservation = $1 AND type = 'booking_confirmation' AND status = 'pending'",
			c.Reservation.ID).Scan(&payload); err != nil {
			t.Fatal(err)
		}
		matchesStoredRows(t, e, c.Reservation.ID, payload)
		var p notify.Nested
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			t.Fatal(err)
		}
		if p.Reserva.FechaSalida != "" || len(p.AdditionalServices) != 2 || p.AdditionalServices[0].Name != "Lavado básico" ||
			p.MainService != (notify.Line{Name: "TRANSFER", Price: 1500}) {
			t.Errorf("walk-in payload = %+v", p)
		}
	})
}

// matchesStoredRows: Create builds the confirmation from what it holds; it must equal
// the payload built from the rows read back (what every other trigger does).
func matchesStoredRows(t *testing.T, e *env, id int64, payload string) {
	t.Helper()
	err := e.st.InTx(context.Background(), func(tx *store.Tx) error {
		sub, err := tx.Outbox().NotificationSubject(context.Background(), id)
		if err != nil {
			return err
		}
		want, err := notify.Build(notify.BookingConfirmation, sub, nil, tx.Now, madrid)
		if err != nil {
			return err
		}
		if payload != string(want) {
			t.Errorf("payload from Create:\n%s\nbuilt from the stored rows:\n%s", payload, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// docs/notifications.md#delivery: a customer without an email still gets a history row, skipped.
// docs/notifications.md#without-a-webhook: without a webhook, rows are recorded but not sent (skipped, with why).
func TestSkippedRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		noEmail := e.book(t, "")
		h := history(t, e, noEmail)
		if len(h) != 1 || h[0].Status != "skipped" || h[0].LastError == nil || *h[0].LastError != notify.ReasonNoEmail {
			t.Errorf("no email: history = %+v, want one skipped row with the reason", h)
		}

		off := newEnv(t, d, false)
		id := off.book(t, "ana@example.com")
		h = history(t, off, id)
		if len(h) != 1 || h[0].Status != "skipped" || h[0].LastError == nil || *h[0].LastError != notify.ReasonNoWebhook {
			t.Errorf("no webhook: history = %+v, want one skipped row with the reason", h)
		}
		select {
		case <-off.outbox.Wake():
			t.Error("a skipped row woke the dispatcher")
		default:
		}
	})
}

// A rolled-back change leaves no row and wakes nobody; a committed one wakes the
// dispatcher after the commit.
func TestRollbackLeavesNoRow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		id := e.book(t, "ana@example.com")
		<-e.outbox.Wake() // the booking's nudge
		ctx := context.Background()
		boom := errors.New("boom")
		err := e.st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := e.outbox.Enqueue(ctx, tx, notify.Invoice, id, notify.Options{}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v, want boom", err)
		}
		if n := countRows(t, e.st, "type = 'invoice'"); n != 0 {
			t.Errorf("invoice rows after rollback = %d, want 0", n)
		}
		select {
		case <-e.outbox.Wake():
			t.Error("a rolled-back enqueue woke the dispatcher")
		default:
		}

		// A booking refused inside its transaction (plate with another type) leaves
		// no notification either.
		before := countRows(t, e.st, "true")
		r, err := e.st.Reservations().Reservation(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.st.Customers().Vehicle(ctx, r.VehicleID)
		if err != nil {
			t.Fatal(err)
		}
		entry := clocktest.Day(11, 10, 0) // 2026-12-01 on the default base
		exit := entry.Add(48 * time.Hour)
		_, err = e.svc.Create(ctx, booking.Public, booking.NewBooking{
			FullName: "Luis", Phone: "699999999", Email: "luis@example.com", LicensePlate: v.LicensePlate,
			VehicleType: "MOTO", Entry: entry, Exit: &exit, MainService: 1,
		})
		if fault.KindOf(err) != fault.Invalid {
			t.Fatalf("create with another vehicle type: err = %v, want Invalid", err)
		}
		if n := countRows(t, e.st, "true"); n != before {
			t.Errorf("notification rows = %d after a refused booking, want %d", n, before)
		}
	})
}

func TestEnqueueRefusesBadCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		id := e.book(t, "ana@example.com")
		ctx := context.Background()
		for name, call := range map[string]func(tx *store.Tx) error{
			"unknown kind": func(tx *store.Tx) error {
				_, err := e.outbox.Enqueue(ctx, tx, "welcome", id, notify.Options{})
				return err
			},
			"modified without original": func(tx *store.Tx) error {
				_, err := e.outbox.Enqueue(ctx, tx, notify.ReservationModified, id, notify.Options{})
				return err
			},
			"unknown reservation": func(tx *store.Tx) error {
				_, err := e.outbox.Enqueue(ctx, tx, notify.Invoice, id+1000, notify.Options{})
				if !errors.Is(err, store.ErrNotFound) {
					t.Errorf("unknown reservation: err = %v, want ErrNotFound", err)
				}
				return err
			},
		} {
			if err := e.st.InTx(ctx, call); err == nil {
				t.Errorf("%s: no error", name)
			}
		}
		if n := countRows(t, e.st, "true"); n != 1 {
			t.Errorf("rows = %d, want only the booking's", n)
		}
	})
}

// The manual invoice: 404 unknown, 400 CANCELADA, otherwise an invoice row whose
// status follows the reservation's payment.
func TestRequestInvoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		ctx := context.Background()
		id := e.book(t, "ana@example.com")

		if err := e.svc.RequestInvoice(ctx, id+1000); fault.KindOf(err) != fault.NotFound {
			t.Errorf("unknown id: err = %v, want NotFound", err)
		}
		if err := e.svc.RequestInvoice(ctx, id); err != nil {
			t.Fatalf("request invoice: %v", err)
		}
		var payload string
		if err := e.st.DB().QueryRow("SELECT payload FROM notification WHERE type = 'invoice' AND id_reservation = $1", id).Scan(&payload); err != nil {
			t.Fatal(err)
		}
		var inv notify.InvoiceData
		if err := json.Unmarshal([]byte(payload), &inv); err != nil {
			t.Fatal(err)
		}
		if inv.Type != notify.Invoice || inv.IDReservation != id || inv.Status != "PENDING" || inv.IsPaid ||
			inv.PaymentMethod != nil || inv.TotalPrice != 6500 || inv.Customer.Email != "ana@example.com" {
			t.Errorf("invoice = %+v", inv)
		}
		h := history(t, e, id)
		if len(h) != 2 || h[1].Type != "invoice" || h[1].Status != "pending" {
			t.Errorf("history = %+v, want confirmation then a pending invoice", h)
		}

		cancelled := e.book(t, "ana@example.com")
		if _, err := e.st.WriteDB().Exec("UPDATE reservation SET status = 'CANCELADA' WHERE id_reservation = $1", cancelled); err != nil {
			t.Fatal(err)
		}
		err := e.svc.RequestInvoice(ctx, cancelled)
		if fault.KindOf(err) != fault.Invalid || fault.MessageOf(err, "") != "La reserva "+strconv.FormatInt(cancelled, 10)+" está CANCELADA: no se puede emitir la factura." {
			t.Errorf("cancelled: err = %v, want Invalid with the reason", err)
		}
		if n := countRows(t, e.st, "type = 'invoice'"); n != 1 {
			t.Errorf("invoice rows = %d, want 1", n)
		}
	})
}
