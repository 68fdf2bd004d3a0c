package booking_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The edit reports the stay before and after the change: the "reservation modified"
// notification is built from these (docs/notifications.md).
func TestCustomerEditOriginalAndUpdated(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		created, err := svc.Create(ctx, booking.Public, validBooking()) // SUV, ECO, 5 days, Lavado básico: 65.00
		if err != nil {
			t.Fatal(err)
		}
		owner, id := created.Customer.ID, created.Reservation.ID
		claimed(t, st, id)
		newExit := created.Reservation.Entry.Add(2 * 24 * time.Hour)
		got, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{MainService: 2, Exit: &newExit, Extras: []int64{2}})
		if err != nil {
			t.Fatal(err)
		}
		o, u := got.Original, got.Updated
		if !o.Entry.Equal(validBooking().Entry) || !o.Exit.Equal(*validBooking().Exit) || o.TotalPrice != 6500 ||
			o.MainServiceID != 1 || o.MainServiceName != "ECO" || len(o.Extras) != 1 || o.Extras[0].Name != "Lavado básico" {
			t.Errorf("original = %+v", o)
		}
		// 2 days TRANSFER 15 € × 1.25 = 37.50 + Lavado interior 25.
		if !u.Entry.Equal(o.Entry) || !u.Exit.Equal(newExit) || u.TotalPrice != 6250 || u.MainServiceID != 2 ||
			u.MainServiceName != "TRANSFER" || len(u.Extras) != 1 || u.Extras[0].Name != "Lavado interior" {
			t.Errorf("updated = %+v", u)
		}
		if got.Reservation.TotalPrice != 6250 || !got.Changed() {
			t.Errorf("reservation total %v changed=%v, want 62.50 and true", got.Reservation.TotalPrice, got.Changed())
		}
		// The edit enqueued one reservation_modified notification, in its transaction,
		// carrying the original and the new details.
		var payload string
		if err := st.DB().QueryRowContext(ctx, `SELECT payload FROM notification WHERE id_reservation = $1 AND type = 'reservation_modified'`, id).Scan(&payload); err != nil {
			t.Fatalf("reservation_modified row: %v", err)
		}
		var body struct {
			Type    string
			Reserva struct {
				PrecioTotal string `json:"precio_total"`
			}
			Original struct {
				PrecioTotal string                `json:"precio_total"`
				MainService struct{ Name string } `json:"main_service"`
			}
		}
		if err := json.Unmarshal([]byte(payload), &body); err != nil {
			t.Fatal(err)
		}
		if body.Type != "reservation_modified" || body.Reserva.PrecioTotal != "62.50" || body.Original.PrecioTotal != "65.00" || body.Original.MainService.Name != "ECO" {
			t.Errorf("reservation_modified payload = %s", payload)
		}
		again, err := svc.CustomerEdit(ctx, owner, id, booking.CustomerEdit{})
		if err != nil || again.Changed() {
			t.Errorf("empty edit: changed=%v err=%v, want unchanged", again.Changed(), err)
		}
		var n int
		st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM notification WHERE type = 'reservation_modified'`).Scan(&n)
		if n != 1 {
			t.Errorf("%d reservation_modified rows after an edit and an empty edit, want 1", n)
		}
		// Another customer: the same Forbidden as a missing reservation.
		for _, c := range []struct{ customer, id int64 }{{owner + 1, id}, {owner, id + 100}} {
			_, err := svc.CustomerEdit(ctx, c.customer, c.id, booking.CustomerEdit{})
			if !errors.Is(err, booking.ErrNotYours) || fault.KindOf(err) != fault.Forbidden {
				t.Errorf("edit by %d of %d: err = %v, want ErrNotYours", c.customer, c.id, err)
			}
			_, err = svc.CustomerCancel(ctx, c.customer, c.id)
			if !errors.Is(err, booking.ErrNotYours) {
				t.Errorf("cancel by %d of %d: err = %v, want ErrNotYours", c.customer, c.id, err)
			}
		}
	})
}
