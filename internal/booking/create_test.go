package booking_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/catalog"
	"parking/internal/clock"
	"parking/internal/clock/clocktest"
	"parking/internal/fault"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/records"
	"parking/internal/store"
	"parking/internal/storetest"
)

var madrid, _ = time.LoadLocation("Europe/Madrid")

// newService returns a booking service on a fresh database with the default catalog.
func newService(t *testing.T, d store.Dialect) (*services, *store.Store) {
	return newServiceTB(t, d)
}

func newServiceTB(t testing.TB, d store.Dialect) (*services, *store.Store) {
	t.Helper()
	svc, st, _ := newServiceClock(t, d)
	return svc, st
}

// newServiceClock is newService with the store's fake clock, which the test moves.
func newServiceClock(t testing.TB, d store.Dialect) (*services, *store.Store, *clock.Fake) {
	t.Helper()
	st, clk := storetest.OpenClock(t, d)
	h := storetest.Catalog(t, st)
	return newServices(st, h), st, clk
}

// services is the lifecycle with the operations beside it on one store, as the app
// builds them: the catalog is the one the lifecycle's quote reads the settings through.
type services struct {
	*booking.Service
	catalog  *catalog.Service
	records  *records.Service
	handover *handover.Service
}

func newServices(st *store.Store, h *pricing.Holder) *services {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := catalog.New(st, h, log)
	return &services{Service: booking.New(st, h, madrid, log, booking.WithCatalog(c)), catalog: c,
		records: records.New(st, h, madrid, input.Rules{}), handover: handover.New(st, log)}
}

func ptr[T any](v T) *T { return &v }

// spanishDay is how a message shows hh:mm on the test clock's day + n
// ("01/12/2026, 09:00:00" on the default base).
func spanishDay(n int, hhmm string) string {
	return clocktest.Day(n, 0, 0).Format("02/01/2006") + ", " + hhmm + ":00"
}

func validBooking() booking.NewBooking {
	entry := clocktest.Day(11, 10, 0) // 2026-12-01 on the default base
	return booking.NewBooking{
		FullName: "Ana Pérez", Phone: " 600111222 ", Email: "ana@example.com",
		LicensePlate: " 1234abc ", VehicleType: "suv",
		Entry: entry, Exit: ptr(entry.Add(4*24*time.Hour + 3*time.Hour)),
		MainService: 1, Extras: []int64{1, 1, 99},
	}
}

// claimed makes reservation id its customer's account's own, as the tests that act
// through the customer routes need (docs/privacy.md#who-sees-a-booking): a booking
// made without signing in is not the account's until claimed.
func claimed(t testing.TB, st *store.Store, id int64) {
	t.Helper()
	ctx := context.Background()
	if err := st.InTx(ctx, func(tx *store.Tx) error {
		r, err := tx.Reservations().Reservation(ctx, id)
		if err != nil {
			return err
		}
		_, err = tx.Customers().ClaimReservation(ctx, id, r.CustomerID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, st *store.Store, table string) int {
	t.Helper()
	var n int
	if err := st.DB().QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCreatePublic(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		got, err := svc.Create(ctx, booking.Public, validBooking())
		if err != nil {
			t.Fatalf("create: %v", err)
		}
		// 4 days 3 hours: remainder over the courtesy → 5 days, ECO band 4–10 at 8 €,
		// SUV 1.25 → 50 €, plus "Lavado básico" once (duplicates and unknown ids skipped).
		if got.Reservation.TotalPrice != 6500 {
			t.Errorf("total = %v, want 65.00", got.Reservation.TotalPrice)
		}
		if got.Reservation.Status != "PENDIENTE" || got.Reservation.IsPaid {
			t.Errorf("status = %s paid=%v, want PENDIENTE unpaid", got.Reservation.Status, got.Reservation.IsPaid)
		}
		if got.Vehicle.LicensePlate != "1234ABC" || got.Vehicle.Brand != "Desconocida" || got.Vehicle.Model != "Desconocido" || got.Vehicle.Color != "No color" || got.Vehicle.Type != "SUV" {
			t.Errorf("vehicle = %+v, want normalised plate and defaults", got.Vehicle)
		}
		if got.Customer.Type != "NO-REGISTRADO" || *got.Customer.Phone != "+34600111222" {
			t.Errorf("customer = %+v, want NO-REGISTRADO with the phone in E.164", got.Customer)
		}
		if !got.Reservation.Entry.Equal(validBooking().Entry) {
			t.Errorf("entry = %v, want %v", got.Reservation.Entry, validBooking().Entry)
		}
		extras, err := st.Reservations().ReservationExtras(ctx, got.Reservation.ID)
		if err != nil || len(extras) != 1 || extras[0].Price != 1500 {
			t.Errorf("extras = %+v, %v; want one at 15.00", extras, err)
		}

		// Same phone and plate again: both reused, one link.
		again, err := svc.Create(ctx, booking.Public, validBooking())
		if err != nil {
			t.Fatalf("second create: %v", err)
		}
		if again.Customer.ID != got.Customer.ID || again.Vehicle.ID != got.Vehicle.ID {
			t.Errorf("second booking made a new customer or vehicle")
		}
		for table, want := range map[string]int{"customer": 1, "vehicle": 1, "customer_vehicle": 1, "reservation": 2} {
			if n := count(t, st, table); n != want {
				t.Errorf("%s rows = %d, want %d", table, n, want)
			}
		}
	})
}

func TestCreateRefusalsSaveNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		if _, err := svc.Create(ctx, booking.Public, validBooking()); err != nil {
			t.Fatal(err)
		}
		before := map[string]int{}
		tables := []string{"customer", "vehicle", "customer_vehicle", "reservation", "reservation_additional_service"}
		for _, tb := range tables {
			before[tb] = count(t, st, tb)
		}
		long := "123456789012345678901"
		cases := []struct {
			name   string
			change func(b *booking.NewBooking)
			want   string
		}{
			{"missing phone", func(b *booking.NewBooking) { b.Phone = "  " }, "Faltan datos obligatorios."},
			{"missing plate", func(b *booking.NewBooking) { b.LicensePlate = "" }, "Faltan datos obligatorios."},
			{"missing entry", func(b *booking.NewBooking) { b.Entry = time.Time{} }, "Faltan datos obligatorios."},
			{"missing exit", func(b *booking.NewBooking) { b.Exit = nil }, "Faltan datos obligatorios."},
			{"missing type", func(b *booking.NewBooking) { b.VehicleType = "" }, "Faltan datos obligatorios."},
			{"missing service", func(b *booking.NewBooking) { b.MainService = 0 }, "Faltan datos obligatorios."},
			{"exit before entry", func(b *booking.NewBooking) { b.Exit = ptr(b.Entry.Add(-time.Hour)) },
				"La fecha de salida (" + spanishDay(11, "09:00") + ") debe ser posterior a la fecha de entrada (" + spanishDay(11, "10:00") + ")."},
			{"exit equal entry", func(b *booking.NewBooking) { b.Exit = ptr(b.Entry) },
				"La fecha de salida (" + spanishDay(11, "10:00") + ") debe ser posterior a la fecha de entrada (" + spanishDay(11, "10:00") + ")."},
			{"plate with another type", func(b *booking.NewBooking) { b.Phone = "699000000"; b.VehicleType = "MOTO" },
				"La matrícula 1234ABC ya está registrada con el tipo de vehículo SUV."},
			{"no coefficient", func(b *booking.NewBooking) { b.LicensePlate = "NEW1"; b.VehicleType = "TANQUE" },
				"No existe coeficiente de precio para el tipo de vehículo TANQUE."},
			{"no rate", func(b *booking.NewBooking) { b.LicensePlate = "NEW2"; b.MainService = 77 },
				"No existe tarifa para el servicio 77 y 5 días."},
			{"phone too long", func(b *booking.NewBooking) { b.Phone = long }, "El campo phone admite como máximo 20 caracteres."},
			{"bad email", func(b *booking.NewBooking) { b.Email = "nope" }, `El correo electrónico "nope" (campo email) no es válido: debe tener la forma nombre@dominio.es.`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				b := validBooking()
				c.change(&b)
				_, err := svc.Create(ctx, booking.Public, b)
				var fe *fault.Error
				if !errors.As(err, &fe) || fe.Kind != fault.Invalid {
					t.Fatalf("err = %v, want an Invalid fault", err)
				}
				if fe.Message != c.want {
					t.Errorf("message = %q, want %q", fe.Message, c.want)
				}
			})
		}
		for _, tb := range tables {
			if n := count(t, st, tb); n != before[tb] {
				t.Errorf("%s rows = %d after refusals, want %d", tb, n, before[tb])
			}
		}
	})
}

func TestCreateWalkInDefaults(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		b := validBooking()
		b.Entry, b.Exit, b.Spot, b.Extras = time.Time{}, nil, "  a-12 ", nil
		got, err := svc.Create(context.Background(), booking.WalkIn, b)
		if err != nil {
			t.Fatal(err)
		}
		if now := st.Clock()(); !got.Reservation.Entry.Equal(now) {
			t.Errorf("entry = %v, want now (%v)", got.Reservation.Entry, now)
		}
		if got.Reservation.Exit != nil {
			t.Errorf("exit = %v, want open", got.Reservation.Exit)
		}
		// docs/dates.md#open-exits: priced for one day until an exit is set: ECO 12 € × SUV 1.25.
		if got.Reservation.TotalPrice != money.Cents(1500) {
			t.Errorf("total = %v, want 15.00", got.Reservation.TotalPrice)
		}
		if got.Reservation.Spot == nil || *got.Reservation.Spot != "A-12" {
			t.Errorf("spot = %v, want A-12", got.Reservation.Spot)
		}
	})
}

// Fifty simultaneous bookings for one new phone and one new plate make fifty
// reservations but one customer, one vehicle and one link (race-free find-or-create).
func TestCreateConcurrentSameCustomer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		const n = 50
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := svc.Create(context.Background(), booking.Public, validBooking())
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("create: %v", err)
			}
		}
		for table, want := range map[string]int{"customer": 1, "vehicle": 1, "customer_vehicle": 1, "reservation": n} {
			if got := count(t, st, table); got != want {
				t.Errorf("%s rows = %d, want %d", table, got, want)
			}
		}
	})
}
