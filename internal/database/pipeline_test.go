package database_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"parking/internal/database"
	"parking/internal/store"
	"parking/internal/storetest"
)

const insertCustomer = `INSERT INTO customer (full_name, phone, created_at) VALUES ($1, $2, $3)`

// Queued statements (PostgreSQL: sent with the transaction's next round trip) are
// all or nothing with their transaction: one that fails, by the database or by its
// check, fails the call that sent it, every later call, and the transaction, which
// leaves no row; a checked statement decides before anything commits, even when
// it is the last one before the commit. Afterwards the pool's connections serve
// new transactions (none is left inside the failed one), and queued rows commit.
func TestQueuedStatementsAllOrNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		count := func() int {
			t.Helper()
			var n int
			if err := st.QueryRow(ctx, `SELECT COUNT(*) FROM customer`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		errCheck := errors.New("refused by its check")
		for round := 0; round < 3; round++ { // more rounds than one connection: failures must not poison the pool
			phone := func(i int) string { return fmt.Sprintf("+346%02d%06d", round, i) }

			// A duplicate phone fails in the database: the Send after it reports it, by name.
			err := st.InTx(ctx, func(tx *store.Tx) error {
				if err := tx.Queue(ctx, database.Stmt{Query: insertCustomer, Args: []any{"A", phone(1), tx.Now}, What: "first"}); err != nil {
					return err
				}
				if err := tx.Queue(ctx, database.Stmt{Query: insertCustomer, Args: []any{"B", phone(1), tx.Now}, What: "second"}); err != nil {
					return err
				}
				var one int
				return tx.Send(ctx, database.Stmt{Query: `SELECT 1`, Dest: []any{&one}})
			})
			if err == nil || !strings.Contains(err.Error(), "second") {
				t.Fatalf("round %d: a duplicate queued: %v, want the second insert's failure", round, err)
			}

			// A check that refuses, last before the commit: nothing commits.
			err = st.InTx(ctx, func(tx *store.Tx) error {
				return tx.Queue(ctx, database.Stmt{Query: insertCustomer, Args: []any{"C", phone(2), tx.Now},
					Check: func(int64) error { return errCheck }})
			})
			if !errors.Is(err, errCheck) {
				t.Fatalf("round %d: a refusing check before the commit: %v, want %v", round, err, errCheck)
			}

			// A statement through QueryRow after a failed queued one fails, and the
			// transaction reports the queued statement's failure.
			err = st.InTx(ctx, func(tx *store.Tx) error {
				if err := tx.Queue(ctx, database.Stmt{Query: insertCustomer, Args: []any{"D", phone(3), tx.Now},
					Check: func(int64) error { return errCheck }}); err != nil {
					return err
				}
				var n int
				if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM customer`).Scan(&n); err == nil && d == store.Postgres {
					return errors.New("QueryRow ran after a failed statement")
				}
				return nil
			})
			if !errors.Is(err, errCheck) {
				t.Fatalf("round %d: QueryRow after a refusing check: %v, want %v", round, err, errCheck)
			}
			if n := count(); n != round*2 {
				t.Fatalf("round %d: %d customers after the failed transactions, want %d", round, n, round*2)
			}

			// On PostgreSQL, a refusal raised inside the database shares the COMMIT's
			// round trip (no check holds it back): Refused maps it, nothing commits,
			// and the transaction is that round trip and its ROLLBACK.
			if d == store.Postgres {
				errRefused := errors.New("refused inside the database")
				trips := st.RoundTrips()
				err = st.InTx(ctx, func(tx *store.Tx) error {
					if err := tx.Queue(ctx, database.Stmt{Query: insertCustomer, Args: []any{"G", phone(6), tx.Now}}); err != nil {
						return err
					}
					return tx.Queue(ctx, database.Stmt{Query: `SELECT refuse_unless(false, 'PK999', 'refused')`,
						Refused: func(pe *pgconn.PgError) error {
							if pe.Code == "PK999" {
								return errRefused
							}
							return nil
						}})
				})
				if !errors.Is(err, errRefused) {
					t.Fatalf("round %d: a refusal in the COMMIT's round trip: %v, want %v", round, err, errRefused)
				}
				if n := st.RoundTrips() - trips; n != 2 {
					t.Fatalf("round %d: %d round trips, want the COMMIT's and the ROLLBACK", round, n)
				}
				if n := count(); n != round*2 {
					t.Fatalf("round %d: %d customers after the refusal, want %d", round, n, round*2)
				}
			}

			// Queued rows commit, the ones flushed by the commit itself included, and a
			// queued read's destination is set by the round trip that carried it.
			var id, seen int64
			if err := st.InTx(ctx, func(tx *store.Tx) error {
				if err := tx.Queue(ctx, database.Stmt{Query: insertCustomer, Args: []any{"E", phone(4), tx.Now}}); err != nil {
					return err
				}
				if err := tx.Queue(ctx, database.Stmt{Query: `SELECT id_customer FROM customer WHERE phone = $1`, Args: []any{phone(4)}, Dest: []any{&id}}); err != nil {
					return err
				}
				if err := tx.Send(ctx, database.Stmt{Query: `SELECT COUNT(*) FROM customer WHERE id_customer = $1`, Args: []any{1}, Dest: []any{&seen}}); err != nil {
					return err
				}
				if id == 0 {
					return errors.New("the queued read's destination was not set by the round trip")
				}
				// A read that finds no row is sql.ErrNoRows for its call, the rest of the
				// round trip runs, and the transaction goes on.
				var none int64
				if err := tx.Send(ctx, database.Stmt{Query: `SELECT id_customer FROM customer WHERE phone = 'none'`, Dest: []any{&none}},
					database.Stmt{Query: insertCustomer, Args: []any{"F", phone(5), tx.Now}}); !errors.Is(err, sql.ErrNoRows) {
					return fmt.Errorf("a read with no row: %v, want sql.ErrNoRows", err)
				}
				return nil
			}); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if n := count(); n != round*2+2 {
				t.Fatalf("round %d: %d customers, want %d", round, n, round*2+2)
			}
		}
	})
}
