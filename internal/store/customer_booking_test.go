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

// FindOrCreateBooker (one statement on PostgreSQL) has the outcome of the three
// steps it stands for: a new customer and vehicle are created and linked; stored
// ones are found and never rewritten, the link made once; a row that cannot be
// stored (a plate over its length) refuses the whole step, leaving no customer.
func TestFindOrCreateBookerAsTheThreeSteps(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		email := "ana@example.com"
		ana := store.NewCustomer{FullName: "Ana", Phone: "+34600000001", Email: &email}
		car := reservation.Vehicle{LicensePlate: "1234BCD", Brand: "Seat", Model: "Ibiza", Color: "Rojo", Type: "TURISMO"}
		book := func(c store.NewCustomer, v reservation.Vehicle) (reservation.Customer, reservation.Vehicle) {
			t.Helper()
			var gc reservation.Customer
			var gv reservation.Vehicle
			if err := st.InTx(ctx, func(tx *store.Tx) error {
				var err error
				gc, gv, err = tx.Customers().FindOrCreateBooker(ctx, c, v)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return gc, gv
		}
		count := func(q string) int {
			t.Helper()
			var n int
			if err := st.QueryRow(ctx, q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		c1, v1 := book(ana, car)
		if c1.ID == 0 || c1.FullName != "Ana" || c1.Email == nil || *c1.Email != email || c1.Phone == nil || *c1.Phone != ana.Phone ||
			c1.Type != "NO-REGISTRADO" || v1.ID == 0 || v1 != (reservation.Vehicle{ID: v1.ID, LicensePlate: "1234BCD", Brand: "Seat", Model: "Ibiza", Color: "Rojo", Type: "TURISMO"}) {
			t.Fatalf("created %+v and %+v", c1, v1)
		}

		other := store.NewCustomer{FullName: "Otro nombre", Phone: ana.Phone}
		van := reservation.Vehicle{LicensePlate: "1234BCD", Brand: "Ford", Model: "Transit", Color: "Blanco", Type: "FURGONETA"}
		c2, v2 := book(other, van)
		if c2.ID != c1.ID || c2.FullName != "Ana" || c2.Email == nil || *c2.Email != email || v2 != v1 {
			t.Fatalf("found %+v and %+v, want the stored %+v and %+v unchanged", c2, v2, c1, v1)
		}
		if n := count(`SELECT COUNT(*) FROM customer_vehicle`); n != 1 {
			t.Fatalf("%d links, want 1", n)
		}
		luis := store.NewCustomer{FullName: "Luis", Phone: "+34600000002"}
		c3, v3 := book(luis, car)
		if c3.ID == c1.ID || v3 != v1 || count(`SELECT COUNT(*) FROM customer_vehicle`) != 2 {
			t.Fatalf("a second customer of the same car: %+v, %+v", c3, v3)
		}

		long := car
		long.LicensePlate = strings.Repeat("A", 20)
		err := st.InTx(ctx, func(tx *store.Tx) error {
			_, _, err := tx.Customers().FindOrCreateBooker(ctx, store.NewCustomer{FullName: "Eva", Phone: "+34600000003"}, long)
			return err
		})
		if err == nil {
			t.Fatal("a plate over its length was stored")
		}
		if n := count(`SELECT COUNT(*) FROM customer WHERE phone = '+34600000003'`); n != 0 {
			t.Fatalf("the refused step left %d customers", n)
		}
	})
}

// On PostgreSQL, a customer committed by another booking while the one statement
// waited for it is invisible to that statement: the step falls back to the three
// statements, which find it, and links the vehicle to it.
func TestFindOrCreateBookerAfterAConcurrentCustomer(t *testing.T) {
	st := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	phone := "+34600000009"
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- st.InTx(ctx, func(tx *store.Tx) error {
			if _, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "Primero", Phone: phone}); err != nil {
				return err
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	go func() { time.Sleep(300 * time.Millisecond); close(release) }() // the statement below waits for it
	var c reservation.Customer
	var v reservation.Vehicle
	if err := st.InTx(ctx, func(tx *store.Tx) error {
		var err error
		c, v, err = tx.Customers().FindOrCreateBooker(ctx, store.NewCustomer{FullName: "Segundo", Phone: phone},
			reservation.Vehicle{LicensePlate: "9999ZZZ", Brand: "B", Model: "M", Color: "C", Type: "TURISMO"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if c.FullName != "Primero" || v.ID == 0 {
		t.Fatalf("found %+v, %+v: want the customer committed first", c, v)
	}
	var n int
	if err := st.QueryRow(ctx, `SELECT COUNT(*) FROM customer_vehicle WHERE id_customer = $1 AND id_vehicle = $2`, c.ID, v.ID).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d links (%v), want 1", n, err)
	}
}
