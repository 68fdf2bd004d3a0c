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

// docs/public-booking.md#retries-idempotency-key at the operation: the key is written
// with its answer in the booking's own transaction (a crash after the commit still
// answers the retry; a failed booking leaves no key); the same key is 409 while its
// request runs here, 422 with another body; a booking whose key another instance
// answered first rolls back and sends that answer; a key left running by an earlier
// version is 409 until stale; a key is scoped to its route.
func TestIdempotentCreate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st := newService(t, d)
		ctx := context.Background()
		count := func(q string) int {
			t.Helper()
			var n int
			if err := st.DB().QueryRow(q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		book := func(b booking.NewBooking) func(...booking.CreateOption) (booking.Created, error) {
			return func(opts ...booking.CreateOption) (booking.Created, error) {
				return svc.Create(ctx, booking.Public, b, opts...)
			}
		}

		// While the first request runs, the same key is 409 and books nothing.
		o := once("k", "h1")
		c, stored, err := svc.CreateOnce(ctx, o, func(opts ...booking.CreateOption) (booking.Created, error) {
			if _, _, err := svc.CreateOnce(ctx, o, book(validBooking())); fault.KindOf(err) != fault.Conflict {
				t.Errorf("same key while running: %v, want a conflict", err)
			}
			if n := count(`SELECT COUNT(*) FROM idempotency_key`); n != 0 {
				t.Errorf("%d keys written before the booking's commit", n)
			}
			return book(validBooking())(opts...)
		})
		if err != nil || stored != nil {
			t.Fatalf("first: %v, %v", stored, err)
		}
		// Stored by the booking's own commit: the process could die now and the retry
		// would still be answered with this booking.
		_, a, err := svc.CreateOnce(ctx, o, book(validBooking()))
		if err != nil || a == nil || a.Status != 201 || string(a.Body) != strconv.FormatInt(c.Reservation.ID, 10) {
			t.Fatalf("replay: %+v, %v", a, err)
		}
		// The retry is answered from its key even where booking again would now be
		// refused: before its transaction (a stay ending at its start) or inside it (the
		// plate stored with another vehicle type), and nothing of it is stored.
		invalid, otherType := validBooking(), validBooking()
		invalid.Exit = &invalid.Entry
		otherType.VehicleType = "TURISMO"
		reservations := count(`SELECT COUNT(*) FROM reservation`)
		for _, b := range []booking.NewBooking{invalid, otherType} {
			if _, a, err := svc.CreateOnce(ctx, o, book(b)); err != nil || a == nil || string(a.Body) != strconv.FormatInt(c.Reservation.ID, 10) {
				t.Fatalf("replay of a booking refused now: %+v, %v", a, err)
			}
		}
		if _, err := svc.Create(ctx, booking.Public, otherType); err == nil {
			t.Fatal("the plate with another vehicle type was booked")
		}
		if n := count(`SELECT COUNT(*) FROM reservation`); n != reservations {
			t.Fatalf("%d reservations after the replays, want %d", n, reservations)
		}
		if _, _, err := svc.CreateOnce(ctx, once("k", "h2"), book(validBooking())); !errors.Is(err, booking.ErrKeyReused) {
			t.Fatalf("same key with another body: %v", err)
		}
		// Another route: its own key.
		w := once("k", "h1")
		w.Route = "walk-in"
		if _, a, err := svc.CreateOnce(ctx, w, book(validBooking())); a != nil || err != nil {
			t.Fatalf("same key on another route: %v, %v", a, err)
		}

		// A booking that fails leaves no key: the corrected request books with it.
		bad := validBooking()
		bad.Exit = &bad.Entry
		o2 := once("k2", "h")
		if _, _, err := svc.CreateOnce(ctx, o2, book(bad)); err == nil {
			t.Fatal("a stay ending at its start was booked")
		}
		if n := count(`SELECT COUNT(*) FROM idempotency_key WHERE idem_key = 'k2'`); n != 0 {
			t.Fatalf("%d rows of a failed booking's key", n)
		}
		if _, a, err := svc.CreateOnce(ctx, o2, book(validBooking())); a != nil || err != nil {
			t.Fatalf("after a failed booking: %v, %v", a, err)
		}

		// Another instance answers the key while this one books: this booking rolls
		// back and the other's answer is sent.
		before := count(`SELECT COUNT(*) FROM reservation`)
		o3 := once("k3", "h")
		_, a, err = svc.CreateOnce(ctx, o3, func(opts ...booking.CreateOption) (booking.Created, error) {
			if _, err := st.WriteDB().Exec(`INSERT INTO idempotency_key (route, idem_key, body_hash, state, status, content_type, body, created_at)
				VALUES ('public-booking', 'k3', 'h', 'done', 201, 'application/json', 'elsewhere', $1)`, store.Time(st.Clock()())); err != nil {
				t.Fatal(err)
			}
			return book(validBooking())(opts...)
		})
		if err != nil || a == nil || string(a.Body) != "elsewhere" {
			t.Fatalf("key answered elsewhere first: %+v, %v", a, err)
		}
		if n := count(`SELECT COUNT(*) FROM reservation`); n != before {
			t.Fatalf("%d reservations, want %d: the second booking was kept", n, before)
		}

		// A key an earlier version left running: 409 until stale, then taken over.
		if _, err := st.WriteDB().Exec(`INSERT INTO idempotency_key (route, idem_key, body_hash, state, created_at)
			VALUES ('public-booking', 'k4', 'h', 'running', $1)`, store.Time(st.Clock()())); err != nil {
			t.Fatal(err)
		}
		o4 := once("k4", "h")
		if _, _, err := svc.CreateOnce(ctx, o4, book(validBooking())); fault.KindOf(err) != fault.Conflict {
			t.Fatalf("a running key: %v, want a conflict", err)
		}
		if _, err := st.WriteDB().Exec(`UPDATE idempotency_key SET created_at = $1 WHERE idem_key = 'k4'`,
			store.Time(st.Clock()().Add(-3*time.Minute))); err != nil {
			t.Fatal(err)
		}
		if _, a, err := svc.CreateOnce(ctx, o4, book(validBooking())); a != nil || err != nil {
			t.Fatalf("a stale running key: %v, %v", a, err)
		}
		if n := count(`SELECT COUNT(*) FROM idempotency_key WHERE idem_key = 'k4' AND state = 'done'`); n != 1 {
			t.Fatalf("the stale key was not taken over (%d done rows)", n)
		}
	})
}

// CreateOnce: no key runs the create alone; a key's first create is stored and the
// same key answers it again and stores nothing: nothing reads the key before the
// create, whose transaction rolls back (on PostgreSQL once it has read the key in its
// first round trip, on SQLite when the answer's save finds the key taken); the sweep
// deletes keys past 24 h.
func TestCreateOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st, clk := newServiceClock(t, d)
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
		countRows := func() (n int) {
			t.Helper()
			if err := st.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM reservation) + (SELECT COUNT(*) FROM customer)
				+ (SELECT COUNT(*) FROM vehicle) + (SELECT COUNT(*) FROM notification)`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		rows := countRows()
		_, stored, err = svc.CreateOnce(ctx, o, create(stayBooking(7, 5, 6)))
		if err != nil || stored == nil || string(stored.Body) != strconv.FormatInt(c.Reservation.ID, 10) {
			t.Fatalf("again with the key: %+v, %v", stored, err)
		}
		if runs != 3 {
			t.Fatalf("create ran %d times, want 3", runs)
		}
		if now := countRows(); now != rows {
			t.Fatalf("the replay stored rows: %d, was %d", now, rows)
		}
		// Past 24 h the key counts no more, and the sweep deletes it.
		if n, err := svc.PruneIdempotencyKeys(ctx); n != 0 || err != nil {
			t.Fatalf("pruned %d (%v) keys younger than 24 h", n, err)
		}
		clk.Advance(booking.IdempotencyTTL + time.Second)
		if n, err := svc.PruneIdempotencyKeys(ctx); n != 1 || err != nil {
			t.Fatalf("pruned %d (%v), want the one expired key", n, err)
		}
		var n int
		if err := st.DB().QueryRow(`SELECT COUNT(*) FROM idempotency_key`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d keys (%v) after the sweep", n, err)
		}
	})
}
