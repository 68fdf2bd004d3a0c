package database_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parking/internal/database"
	"parking/internal/store"
	"parking/internal/storetest"
)

// Concurrent InTx calls, some failing by error, by a constraint violation or by a
// panic, leave exactly the successful calls' rows, whatever transactions SQLite's
// group commit put them in; AfterCommit runs for the successful calls only, after
// their rows are visible to other connections.
func TestInTxConcurrentFailuresIsolated(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		const n = 120
		errFail := errors.New("refused")
		var (
			wg        sync.WaitGroup
			start     = make(chan struct{})
			committed atomic.Int32
			invisible atomic.Int32
		)
		outcome := make([]string, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				phone := fmt.Sprintf("7%08d", i)
				<-start
				defer func() {
					if p := recover(); p != nil {
						if p != "boom" {
							t.Errorf("call %d: panic %v, want boom", i, p)
						}
						outcome[i] = "panic"
					}
				}()
				err := st.InTx(ctx, func(tx *store.Tx) error {
					if _, err := tx.Exec(ctx, `INSERT INTO customer (full_name, phone, created_at) VALUES ($1, $2, $3)`,
						fmt.Sprintf("Cliente %d", i), phone, tx.Now); err != nil {
						return err
					}
					tx.AfterCommit(func() {
						committed.Add(1)
						var one int
						if err := st.DB().QueryRowContext(ctx, `SELECT 1 FROM customer WHERE phone = $1`, phone).Scan(&one); err != nil {
							invisible.Add(1)
						}
					})
					switch i % 5 {
					case 1:
						return errFail
					case 2:
						panic("boom")
					case 3: // the same phone again: a failed statement after a successful one
						_, err := tx.Exec(ctx, `INSERT INTO customer (full_name, phone, created_at) VALUES ('x', $1, $2)`, phone, tx.Now)
						return err
					}
					return nil
				})
				switch {
				case err == nil:
					outcome[i] = "ok"
				case errors.Is(err, errFail):
					outcome[i] = "error"
				case store.IsUniqueViolation(err):
					outcome[i] = "unique"
				default:
					t.Errorf("call %d: %v", i, err)
				}
			}(i)
		}
		grouped := database.GroupedCalls(st.Engine)
		close(start)
		wg.Wait()
		if d == store.SQLite && database.GroupedCalls(st.Engine) == grouped {
			t.Error("no call was group-committed: the test did not exercise savepoints")
		}
		want := map[int]string{0: "ok", 1: "error", 2: "panic", 3: "unique", 4: "ok"}
		oks := 0
		for i, o := range outcome {
			if o != want[i%5] {
				t.Errorf("call %d: outcome %q, want %q", i, o, want[i%5])
			}
			var got int
			if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM customer WHERE phone = $1`, fmt.Sprintf("7%08d", i)).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if exp := map[bool]int{true: 1, false: 0}[want[i%5] == "ok"]; got != exp {
				t.Errorf("call %d (%s): %d rows, want %d", i, want[i%5], got, exp)
			}
			if want[i%5] == "ok" {
				oks++
			}
		}
		if int(committed.Load()) != oks {
			t.Errorf("AfterCommit ran %d times, want %d (successful calls only)", committed.Load(), oks)
		}
		if invisible.Load() != 0 {
			t.Errorf("%d AfterCommit callbacks ran before their rows were visible", invisible.Load())
		}
		if d == store.SQLite {
			// The full-text index, written at commit from the queue (migration 0005), holds
			// exactly the committed customers: FTS5's integrity check compares it with the
			// customer table, and the queue is empty.
			err := st.InTx(ctx, func(tx *store.Tx) error {
				_, err := tx.Exec(ctx, `INSERT INTO customer_name_fts (customer_name_fts) VALUES ('integrity-check')`)
				return err
			})
			if err != nil {
				t.Errorf("full-text index out of step with customer: %v", err)
			}
			var queued, found int
			if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM fts_queue`).Scan(&queued); err != nil || queued != 0 {
				t.Errorf("fts_queue holds %d rows (%v), want 0", queued, err)
			}
			if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM customer_name_fts WHERE customer_name_fts MATCH '"Cliente"'`).Scan(&found); err != nil || found != oks {
				t.Errorf("full-text search finds %d customers (%v), want %d", found, err, oks)
			}
		}
	})
}

// A call whose context is already cancelled writes nothing and reports the
// cancellation; the store keeps serving others.
func TestInTxCancelledContext(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		ran := false
		err := st.InTx(ctx, func(tx *store.Tx) error {
			ran = true
			_, err := tx.Exec(ctx, `INSERT INTO customer (full_name, phone, created_at) VALUES ('x', '700', $1)`, tx.Now)
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v (fn ran: %v), want context.Canceled", err, ran)
		}
		var n int
		if err := st.DB().QueryRowContext(context.Background(), `SELECT COUNT(*) FROM customer WHERE phone = '700'`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("rows = %d, %v; want 0", n, err)
		}
		if err := st.InTx(context.Background(), func(tx *store.Tx) error { return nil }); err != nil {
			t.Fatalf("next call: %v", err)
		}
	})
}

// A transaction function that ends its goroutine (runtime.Goexit, as t.FailNow
// does) ends the caller's goroutine as before, leaves no rows, and the store keeps
// serving: calls that shared its transaction get an error or succeed, none hangs.
func TestInTxGoexit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		insert := func(tx *store.Tx, phone string) error {
			_, err := tx.Exec(ctx, `INSERT INTO customer (full_name, phone, created_at) VALUES ('x', $1, $2)`, phone, tx.Now)
			return err
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		returned := make([]bool, 20)
		errs := make([]error, 20)
		for i := range 20 {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				errs[i] = st.InTx(ctx, func(tx *store.Tx) error {
					if err := insert(tx, fmt.Sprintf("8%03d", i)); err != nil {
						return err
					}
					if i == 7 {
						runtime.Goexit()
					}
					return nil
				})
				returned[i] = true
			}(i)
		}
		close(start)
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("InTx calls hang after a function called runtime.Goexit")
		}
		for i := range 20 {
			var n int
			if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM customer WHERE phone = $1`, fmt.Sprintf("8%03d", i)).Scan(&n); err != nil {
				t.Fatal(err)
			}
			switch {
			case i == 7:
				if returned[i] || n != 0 {
					t.Errorf("Goexit call: returned %v, %d rows; want its goroutine ended and no row", returned[i], n)
				}
			case errs[i] == nil && n != 1, errs[i] != nil && n != 0:
				t.Errorf("call %d: err %v but %d rows", i, errs[i], n)
			}
		}
		if err := st.InTx(ctx, func(tx *store.Tx) error { return insert(tx, "8999") }); err != nil {
			t.Fatalf("next call: %v", err)
		}
	})
}
