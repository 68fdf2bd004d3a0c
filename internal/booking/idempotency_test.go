package booking_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/store"
	"parking/internal/storetest"
)

func once(key, hash string) booking.Once {
	return booking.Once{Route: "public-booking", Key: key, BodyHash: hash, Answer: func(c booking.Created) (booking.Answer, error) {
		return booking.Answer{Status: 201, ContentType: "application/json", Body: []byte(strconv.FormatInt(c.Reservation.ID, 10))}, nil
	}}
}

// docs/public-booking.md#retries-idempotency-key at the operation: the answer is stored in the booking's transaction
// (a crash after the commit still answers the retry); a running key is 409 for
// another request; a key left running by a request that died is taken over after
// a while; a key is scoped to its route.
func TestIdempotentCreate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		o := once("k", "h1")
		if a, err := svc.Claim(ctx, o); a != nil || err != nil {
			t.Fatalf("first claim: %v, %v", a, err)
		}
		// Claimed and running: the same key again is 409, with another body 422.
		if _, err := svc.Claim(ctx, o); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("claim while running: %v, want a conflict", err)
		}
		if _, err := svc.Claim(ctx, once("k", "h2")); !errors.Is(err, booking.ErrKeyReused) {
			t.Fatalf("claim with another body: %v", err)
		}
		// Another route: its own key.
		w := once("k", "h1")
		w.Route = "walk-in"
		if a, err := svc.Claim(ctx, w); a != nil || err != nil {
			t.Fatalf("same key on another route: %v, %v", a, err)
		}

		c, err := svc.Create(ctx, booking.Public, validBooking(), booking.WithOnce(&o))
		if err != nil {
			t.Fatal(err)
		}
		// Stored by the booking's own commit: the process could die now and the retry
		// would still be answered with this booking.
		a, err := svc.Claim(ctx, o)
		if err != nil || a == nil || a.Status != 201 || string(a.Body) != strconv.FormatInt(c.Reservation.ID, 10) {
			t.Fatalf("replay: %+v, %v", a, err)
		}

		// A booking that fails stores nothing and leaves the key running until released.
		o2 := once("k2", "h")
		if _, err := svc.Claim(ctx, o2); err != nil {
			t.Fatal(err)
		}
		bad := validBooking()
		bad.Exit = &bad.Entry
		if _, err := svc.Create(ctx, booking.Public, bad, booking.WithOnce(&o2)); err == nil {
			t.Fatal("a stay ending at its start was booked")
		}
		svc.Release(ctx, o2)
		if a, err := svc.Claim(ctx, o2); a != nil || err != nil {
			t.Fatalf("claim after release: %v, %v", a, err)
		}

		// A running key whose request died: taken over once stale.
		if _, err := st.WriteDB().Exec(`UPDATE idempotency_key SET created_at = $1 WHERE idem_key = 'k2'`,
			store.Time(st.Clock()().Add(-3*time.Minute))); err != nil {
			t.Fatal(err)
		}
		if a, err := svc.Claim(ctx, o2); a != nil || err != nil {
			t.Fatalf("claim of a stale running key: %v, %v", a, err)
		}
		var n int
		if err := st.DB().QueryRow(`SELECT COUNT(*) FROM reservation`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d reservations (%v), want 1", n, err)
		}
	})
}

// CreateOnce: no key runs the create alone; a key's first create is stored and the
// same key answers it again without creating; a failed create frees its key.
func TestCreateOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _ := newService(t, d)
		ctx := context.Background()
		runs := 0
		create := func(b booking.NewBooking) func(...booking.CreateOption) (booking.Created, error) {
			return func(opts ...booking.CreateOption) (booking.Created, error) {
				runs++
				return svc.Create(ctx, booking.Public, b, opts...)
			}
		}
		if _, stored, err := svc.CreateOnce(ctx, booking.Once{}, create(validBooking())); err != nil || stored != nil {
			t.Fatalf("without a key: %v, %v", stored, err)
		}
		o := once("k", "h")
		c, stored, err := svc.CreateOnce(ctx, o, create(validBooking()))
		if err != nil || stored != nil {
			t.Fatalf("first with a key: %v, %v", stored, err)
		}
		_, stored, err = svc.CreateOnce(ctx, o, create(validBooking()))
		if err != nil || stored == nil || string(stored.Body) != strconv.FormatInt(c.Reservation.ID, 10) {
			t.Fatalf("again with the key: %+v, %v", stored, err)
		}
		if runs != 2 {
			t.Fatalf("create ran %d times, want 2", runs)
		}
		bad := validBooking()
		bad.Exit = &bad.Entry
		o2 := once("k2", "h")
		if _, _, err := svc.CreateOnce(ctx, o2, create(bad)); err == nil {
			t.Fatal("a stay ending at its start was booked")
		}
		// Freed: the key claims again rather than answering 409.
		if a, err := svc.Claim(ctx, o2); a != nil || err != nil {
			t.Fatalf("claim after a failed create: %v, %v", a, err)
		}
	})
}
