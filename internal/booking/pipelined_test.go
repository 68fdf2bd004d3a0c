package booking_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/occupancy"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The public booking's refusals on PostgreSQL, where its COMMIT goes out with its
// last writes (docs/performance.md#the-public-booking-in-two-round-trips): each is
// raised inside the database, answered as before, and leaves nothing stored.

// pgOnly runs fn on PostgreSQL only: SQLite's statements run in the process, one
// at a time, and are judged there.
func pgOnly(t *testing.T, fn func(t *testing.T)) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		if d != store.Postgres {
			t.Skip("the pipelined COMMIT is PostgreSQL's")
		}
		fn(t)
	})
}

// stored counts what a public booking writes: reservations, their services, keys,
// notifications, audit entries and the ledger's total.
func stored(t *testing.T, st *store.Store) string {
	t.Helper()
	var r, s, k, n, a, o int
	if err := st.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM reservation), (SELECT COUNT(*) FROM reservation_additional_service),
		(SELECT COUNT(*) FROM idempotency_key), (SELECT COUNT(*) FROM notification), (SELECT COUNT(*) FROM audit_entry),
		(SELECT COALESCE(SUM(booked), 0) FROM occupancy)`).Scan(&r, &s, &k, &n, &a, &o); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("reservations %d, services %d, keys %d, notifications %d, audit %d, ledger %d", r, s, k, n, a, o)
}

// A day near its limit is claimed on the exact path inside the database (every
// booking here is within the fast path's margin), still in two round trips; a full
// day refuses the booking with the days over the limit, and nothing of it is stored.
func TestPipelinedFullDayRefused(t *testing.T) {
	pgOnly(t, func(t *testing.T) {
		svc, st, _ := capacityService(t, store.Postgres, 3, 0)
		ctx := context.Background()
		create := func(n, first, last int) (booking.Created, int64, error) {
			b := stayBooking(n, first, last)
			b.Extras = []int64{1}
			before := st.RoundTrips()
			c, _, err := svc.CreateOnce(ctx, once(fmt.Sprintf("full-%d", n), "h"), func(opts ...booking.CreateOption) (booking.Created, error) {
				return svc.Create(ctx, booking.Public, b, opts...)
			})
			return c, st.RoundTrips() - before, err
		}
		for n := 1; n <= 3; n++ {
			if _, trips, err := create(n, 5, 9); err != nil || (n > 1 && trips != 2) {
				t.Fatalf("booking %d of 3 places: %v, %d round trips", n, err, trips)
			}
		}
		assertLedger(t, st, "three bookings")
		was := stored(t, st)
		_, _, err := create(4, 5, 9)
		if got := fullDays(t, err); !slices.Equal(got, []occupancy.Day{day(5), day(6), day(7), day(8), day(9)}) {
			t.Fatalf("full days %v, want days 5 to 9", got)
		}
		// Only the days over the limit are named.
		_, _, err = create(5, 8, 12)
		if got := fullDays(t, err); !slices.Equal(got, []occupancy.Day{day(8), day(9)}) {
			t.Fatalf("full days %v, want days 8 and 9", got)
		}
		if now := stored(t, st); now != was {
			t.Fatalf("refused bookings stored rows: %s, was %s", now, was)
		}
		assertLedger(t, st, "after the refusals")
		// The days after the full ones still book, on the exact path.
		if _, _, err := create(6, 10, 12); err != nil {
			t.Fatalf("after the full days: %v", err)
		}
		assertLedger(t, st, "after a booking beside the full days")
	})
}

// A drawn reference already taken fails the transaction inside the database: the
// booking draws again, and stores one reservation; references taken on every draw
// end in store.ErrReferenceTaken with nothing stored.
func TestPipelinedReferenceCollision(t *testing.T) {
	pgOnly(t, func(t *testing.T) {
		svc, st, _ := capacityService(t, store.Postgres, 100, 0)
		ctx := context.Background()
		if _, err := svc.Create(ctx, booking.Public, stayBooking(1, 5, 6)); err != nil {
			t.Fatal(err)
		}
		// The next `collisions` inserts take the first reservation's reference (a
		// sequence: its count survives the failed transactions' rollbacks).
		collide := func(collisions int) {
			t.Helper()
			if _, err := st.WriteDB().Exec(fmt.Sprintf(`DROP TRIGGER IF EXISTS collide ON reservation;
				DROP SEQUENCE IF EXISTS collisions; CREATE SEQUENCE collisions;
				CREATE OR REPLACE FUNCTION collide() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN
					IF nextval('collisions') <= %d THEN
						NEW.reference := (SELECT reference FROM reservation ORDER BY id_reservation LIMIT 1);
					END IF;
					RETURN NEW;
				END $$;
				CREATE TRIGGER collide BEFORE INSERT ON reservation FOR EACH ROW EXECUTE FUNCTION collide()`, collisions)); err != nil {
				t.Fatal(err)
			}
		}
		collide(2)
		was := stored(t, st)
		c, err := svc.Create(ctx, booking.Public, stayBooking(2, 5, 6))
		if err != nil {
			t.Fatalf("after two collisions: %v", err)
		}
		var draws int
		if err := st.DB().QueryRow(`SELECT last_value FROM collisions`).Scan(&draws); err != nil || draws != 3 {
			t.Fatalf("%d draws, want 3 (%v)", draws, err)
		}
		var n int
		if err := st.DB().QueryRow(`SELECT COUNT(*) FROM reservation WHERE reference = $1`, c.Reservation.Reference).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d reservations with the booking's reference %q (%v)", n, c.Reservation.Reference, err)
		}
		assertLedger(t, st, "after the collisions")

		collide(1000)
		was = stored(t, st)
		if _, err := svc.Create(ctx, booking.Public, stayBooking(3, 5, 6)); !errors.Is(err, store.ErrReferenceTaken) {
			t.Fatalf("every draw taken: %v, want ErrReferenceTaken", err)
		}
		if now := stored(t, st); now != was {
			t.Fatalf("a booking whose references were all taken stored rows: %s, was %s", now, was)
		}
	})
}

// Another instance takes the key while this booking runs: its insert waits for the
// other's commit, then the transaction fails inside the database and the other's
// answer is sent; this booking stores nothing.
func TestPipelinedKeyTakenConcurrently(t *testing.T) {
	pgOnly(t, func(t *testing.T) {
		svc, st, _ := capacityService(t, store.Postgres, 100, 0)
		ctx := context.Background()
		if _, err := svc.Create(ctx, booking.Public, stayBooking(1, 5, 6)); err != nil {
			t.Fatal(err)
		}
		was := stored(t, st)
		other, err := st.WriteDB().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = other.Rollback() }()
		if _, err := other.Exec(`INSERT INTO idempotency_key (route, idem_key, body_hash, state, status, content_type, body, created_at)
			VALUES ('public-booking', 'taken', 'h', 'done', 201, 'application/json', 'elsewhere', $1)`, store.Time(st.Clock()())); err != nil {
			t.Fatal(err)
		}
		type result struct {
			a   *booking.Answer
			err error
		}
		done := make(chan result, 1)
		go func() {
			_, a, err := svc.CreateOnce(ctx, once("taken", "h"), func(opts ...booking.CreateOption) (booking.Created, error) {
				return svc.Create(ctx, booking.Public, stayBooking(2, 5, 6), opts...)
			})
			done <- result{a, err}
		}()
		// The booking's key waits for the other transaction's lock.
		for waiting := 0; waiting == 0; {
			select {
			case r := <-done:
				t.Fatalf("the booking ended before the other instance committed: %+v, %v", r.a, r.err)
			default:
			}
			if err := st.DB().QueryRow(`SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()
				AND wait_event_type = 'Lock' AND query LIKE '%idempotency_key%'`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
		}
		if err := other.Commit(); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.err != nil || r.a == nil || string(r.a.Body) != "elsewhere" {
			t.Fatalf("key taken concurrently: %+v, %v; want the other's answer", r.a, r.err)
		}
		var keys int
		if err := st.DB().QueryRow(`SELECT COUNT(*) FROM idempotency_key`).Scan(&keys); err != nil || keys != 1 {
			t.Fatalf("%d keys (%v)", keys, err)
		}
		if _, err := st.WriteDB().Exec(`DELETE FROM idempotency_key`); err != nil {
			t.Fatal(err)
		}
		if now := stored(t, st); now != was {
			t.Fatalf("the booking whose key was taken stored rows: %s, was %s", now, was)
		}
	})
}

// The key read in the booking's transaction (PostgreSQL) answers as the key read
// before it (SQLite): a replay refused before its transaction reads the key (its
// entry now past) still gets the stored answer, another body the key's refusal, and
// a replay costs no write (two round trips on PostgreSQL: the first and the rollback).
func TestKeyReadInTheTransaction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, st, clk := capacityService(t, d, 100, 0)
		ctx := context.Background()
		b := stayBooking(1, 1, 2)
		exit := st.Clock()().Add(26 * time.Hour)
		b.Entry, b.Exit = st.Clock()().Add(time.Hour), &exit
		create := func(opts ...booking.CreateOption) (booking.Created, error) {
			return svc.Create(ctx, booking.Public, b, opts...)
		}
		c, _, err := svc.CreateOnce(ctx, once("replay", "h"), create)
		if err != nil {
			t.Fatal(err)
		}
		was, trips := stored(t, st), st.RoundTrips()
		_, a, err := svc.CreateOnce(ctx, once("replay", "h"), create)
		if err != nil || a == nil || string(a.Body) != fmt.Sprint(c.Reservation.ID) {
			t.Fatalf("replay: %+v, %v", a, err)
		}
		if want := map[store.Dialect]int64{store.SQLite: 0, store.Postgres: 2}[d]; st.RoundTrips()-trips != want {
			t.Errorf("replay: %d round trips, want %d", st.RoundTrips()-trips, want)
		}
		clk.Advance(2 * time.Hour) // the entry is now past: the booking itself would be refused
		if _, err := svc.Create(ctx, booking.Public, b); err == nil {
			t.Fatal("a booking entering in the past was made")
		}
		_, a, err = svc.CreateOnce(ctx, once("replay", "h"), create)
		if err != nil || a == nil || string(a.Body) != fmt.Sprint(c.Reservation.ID) {
			t.Fatalf("replay refused before its transaction: %+v, %v", a, err)
		}
		if _, a, err := svc.CreateOnce(ctx, once("replay", "other"), create); a != nil || !errors.Is(err, booking.ErrKeyReused) {
			t.Fatalf("another body refused before its transaction: %+v, %v, want ErrKeyReused", a, err)
		}
		if now := stored(t, st); now != was {
			t.Fatalf("replays stored rows: %s, was %s", now, was)
		}

		// A walk-in's key (its claim is judged by the service: an override may keep a
		// full day) is read the same way.
		w := once("walk-in-key", "h")
		w.Route = "walk-in"
		walkIn := func(opts ...booking.CreateOption) (booking.Created, error) {
			return svc.WalkIn(ctx, stayBooking(2, 3, 4), opts...)
		}
		c, _, err = svc.CreateOnce(ctx, w, walkIn)
		if err != nil {
			t.Fatal(err)
		}
		was = stored(t, st)
		if _, a, err := svc.CreateOnce(ctx, w, walkIn); err != nil || a == nil || string(a.Body) != fmt.Sprint(c.Reservation.ID) {
			t.Fatalf("walk-in replay: %+v, %v", a, err)
		}
		if now := stored(t, st); now != was {
			t.Fatalf("the walk-in's replay stored rows: %s, was %s", now, was)
		}
	})
}
