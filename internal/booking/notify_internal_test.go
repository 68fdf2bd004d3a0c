package booking

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"parking/internal/clock/clocktest"
	"parking/internal/localtime"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The calls the other operations make (start, finalize, customer edit) work from
// inside a booking transaction: the edit's payload carries the original stay and
// the new one, vehicle_entry the check-in time.
func TestEnqueueFromOperations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		madridZone, _ := time.LoadLocation("Europe/Madrid")
		s, st, madrid := internalService(t, d, WithOutbox(notify.NewOutbox(madridZone, true)))
		ctx := context.Background()

		entry := clocktest.Day(11, 10, 0) // 2026-12-01 on the default base
		exit := entry.Add(4*24*time.Hour + 3*time.Hour)
		c, err := s.Create(ctx, Public, NewBooking{FullName: "Ana", Phone: "600111222", Email: "a@example.com",
			LicensePlate: "1234ABC", VehicleType: "SUV", Entry: entry, Exit: &exit, MainService: 1, Extras: []int64{1}})
		if err != nil {
			t.Fatal(err)
		}
		id := c.Reservation.ID

		// Customer edit: 7 days, no extras (7 × 8 € × 1.25 = 70 €).
		newExit := entry.Add(7 * 24 * time.Hour)
		err = s.store.InTx(ctx, func(tx *store.Tx) error {
			orig, err := s.notes.captureOriginal(ctx, tx, id)
			if err != nil {
				return err
			}
			r, err := tx.Reservations().LockReservation(ctx, id)
			if err != nil {
				return err
			}
			p, err := s.price(ctx, Public, stay{Entry: r.Entry, Exit: &newExit, VehicleType: "SUV", MainService: 1}, nil, nil)
			if err != nil {
				return err
			}
			if _, err := tx.Reservations().UpdateStay(ctx, id, r.Status, store.Stay{Entry: r.Entry, Exit: &newExit, MainServiceID: 1,
				TotalPrice: p.Quote.Total, Extras: p.Extras}); err != nil {
				return err
			}
			return s.notes.enqueue(ctx, tx, notify.ReservationModified, id, orig)
		})
		if err != nil {
			t.Fatal(err)
		}
		var mod notify.Nested
		readPayload(t, st, id, "reservation_modified", &mod)
		if mod.Original == nil || mod.Original.PrecioTotal != "65.00" || len(mod.Original.AdditionalServices) != 1 ||
			mod.Original.MainService.Price != 5000 || mod.Original.FechaSalida != localtime.Spanish(exit, madrid) {
			t.Errorf("original = %+v, want the stay before the edit", mod.Original)
		}
		if mod.Reserva.PrecioTotal != "70.00" || len(mod.AdditionalServices) != 0 || mod.MainService.Price != 7000 ||
			mod.Reserva.FechaSalida != localtime.Spanish(newExit, madrid) {
			t.Errorf("updated = %+v %+v, want the stay after the edit", mod.Reserva, mod.MainService)
		}

		// Start: hora_entrada is the check-in time (the transaction's clock).
		var at time.Time
		err = s.store.InTx(ctx, func(tx *store.Tx) error {
			at = tx.Now
			return s.notes.enqueue(ctx, tx, notify.VehicleEntry, id, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		var entryMsg notify.Nested
		readPayload(t, st, id, "vehicle_entry", &entryMsg)
		if want := at.In(madrid).Format("15:04"); entryMsg.Reserva.HoraEntrada != want {
			t.Errorf("hora_entrada = %q, want %q", entryMsg.Reserva.HoraEntrada, want)
		}

		hist, err := s.records.NotificationHistory(ctx, id)
		// The booking 11 days ahead also scheduled its reminder (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder).
		if err != nil || len(hist) != 4 || hist[0].Type != "booking_confirmation" || hist[1].Type != "booking_reminder" ||
			hist[2].Type != "reservation_modified" || hist[3].Type != "vehicle_entry" {
			t.Errorf("history = %+v, %v", hist, err)
		}
	})
}

func readPayload(t *testing.T, st *store.Store, id int64, typ string, v any) {
	t.Helper()
	var p string
	if err := st.DB().QueryRow("SELECT payload FROM notification WHERE id_reservation = $1 AND type = $2", id, typ).Scan(&p); err != nil {
		t.Fatalf("%s payload: %v", typ, err)
	}
	if err := json.Unmarshal([]byte(p), v); err != nil {
		t.Fatal(err)
	}
}
