package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
)

// seedBoard inserts a customer, a vehicle and n reservations entering at entry.
func seedBoard(t *testing.T, st *store.Store, n int, entry time.Time) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	err := st.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO main_service (id_main_service, name) VALUES (1, 'ECO')`); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			var c, v, r int64
			if err := tx.QueryRow(ctx, `INSERT INTO customer (full_name, phone, created_at) VALUES ($1, $2, $3) RETURNING id_customer`,
				fmt.Sprintf("C%d", i), fmt.Sprintf("6000000%02d", i), tx.Now).Scan(&c); err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, `INSERT INTO vehicle (license_plate, type, created_at) VALUES ($1, 'COCHE', $2) RETURNING id_vehicle`,
				fmt.Sprintf("P%d", i), tx.Now).Scan(&v); err != nil {
				return err
			}
			at := store.Time(entry.Add(time.Duration(i) * time.Microsecond * 1234567))
			if err := tx.QueryRow(ctx, `INSERT INTO reservation (reservation_date, entry_date, exit_date, total_price_cents, id_customer, id_vehicle, id_main_service, updated_at)
				VALUES ($1, $2, $3, 100, $4, $5, 1, $1) RETURNING id_reservation`, tx.Now, at, at.Add(time.Hour), c, v).Scan(&r); err != nil {
				return err
			}
			ids = append(ids, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// DayMovements reads times back exactly (microseconds included) on both databases,
// and the board version moves once per committing transaction that changes a
// board, not per row.
func TestDayMovementsAndVersion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		v0, err := st.Records().BoardVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		entry := time.Date(2026, 11, 21, 9, 0, 0, 123456000, time.UTC)
		ids := seedBoard(t, st, 5, entry)
		v1, _ := st.Records().BoardVersion(ctx)
		if d == store.Postgres && v1 != v0+1 {
			t.Errorf("PostgreSQL: version %d → %d after one transaction, want one bump", v0, v1)
		}
		if v1 <= v0 {
			t.Errorf("version did not move: %d → %d", v0, v1)
		}
		m, err := st.Records().DayMovements(ctx, entry.Add(-time.Hour), entry.Add(23*time.Hour), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Version != v1 || len(m.Entries) != 5 || len(m.Exits) != 5 {
			t.Fatalf("movements: version %d (want %d), %d entries, %d exits", m.Version, v1, len(m.Entries), len(m.Exits))
		}
		for i, it := range m.Entries {
			want := store.Time(entry.Add(time.Duration(i) * time.Microsecond * 1234567))
			if it.ID != ids[i] || !it.Entry.Equal(want) || it.Exit == nil || !it.Exit.Equal(want.Add(time.Hour)) {
				t.Errorf("entry %d: %+v, want id %d at %v", i, it, ids[i], want)
			}
		}
		// A rolled-back change moves nothing.
		err = st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, `UPDATE reservation SET status = 'CANCELADA'`); err != nil {
				return err
			}
			return fmt.Errorf("roll back")
		})
		if v, _ := st.Records().BoardVersion(ctx); v != v1 {
			t.Errorf("rolled-back change moved the version %d → %d", v1, v)
		}
	})
}

// The version row adds no deadlock: on PostgreSQL it is locked only at commit,
// after every other lock a transaction takes. Here half the writers change their
// own reservation and then lock a shared one, the other half lock the shared one
// first and then change their own; were the version bumped at the first change,
// those orders would deadlock (each holding what the other waits for).
func TestBoardVersionConcurrentWriters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		// At most the PostgreSQL pool's 12 connections: a writer holding the shared
		// row waits for its partner, who must not be left waiting for a connection.
		const writers = 12
		ids := seedBoard(t, st, writers+1, time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
		shared := ids[0]
		lock := `SELECT id_reservation FROM reservation WHERE id_reservation = $1 FOR UPDATE`
		if d == store.SQLite {
			lock = `UPDATE reservation SET notes = 'lock' WHERE id_reservation = $1` // one writer at a time anyway
		}
		v0, _ := st.Records().BoardVersion(ctx)
		var wg sync.WaitGroup
		errs := make([]error, writers)
		// Writers go in pairs (2k changes then takes, 2k+1 takes then changes). On
		// PostgreSQL the second holds the shared row until its partner has changed
		// its own: the interleaving that would deadlock were the version bumped at
		// the first change. (SQLite runs one writer at a time: nothing to force.)
		changed := make([]chan struct{}, writers)
		for i := range changed {
			changed[i] = make(chan struct{})
		}
		for i := 0; i < writers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				own := ids[i+1]
				errs[i] = st.InTx(ctx, func(tx *store.Tx) error {
					change := func() error {
						_, err := tx.Exec(ctx, `UPDATE reservation SET status = 'EN CURSO' WHERE id_reservation = $1`, own)
						if i%2 == 0 {
							close(changed[i])
						}
						return err
					}
					take := func() error {
						var id int64
						if d == store.SQLite {
							_, err := tx.Exec(ctx, lock, shared)
							return err
						}
						if err := tx.QueryRow(ctx, lock, shared).Scan(&id); err != nil {
							return err
						}
						if i%2 == 1 {
							<-changed[i-1] // the partner has changed its row
						}
						return nil
					}
					steps := []func() error{change, take}
					if i%2 == 1 {
						steps = []func() error{take, change}
					}
					for _, step := range steps {
						if err := step(); err != nil {
							return err
						}
					}
					return nil
				})
			}(i)
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		}
		if v, _ := st.Records().BoardVersion(ctx); v < v0+writers {
			t.Errorf("version %d → %d after %d committed writers", v0, v, writers)
		}
	})
}
