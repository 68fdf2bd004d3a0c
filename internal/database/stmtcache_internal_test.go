package database

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// The statement cache's failure cases: a statement first met inside a transaction
// that holds the only write connection runs unprepared instead of waiting for that
// connection (which would deadlock) and is prepared once the connection is free;
// generated query texts cannot grow the cache past maxCached; a closed cache
// prepares nothing.
func TestStmtCacheNeverBlocksAndStaysBounded(t *testing.T) {
	ctx := context.Background()
	st := migratedSQLite(t)
	c := st.writeStmts
	const q = `SELECT COUNT(*) FROM customer WHERE phone = $1`
	done := make(chan error, 1)
	go func() {
		done <- st.InTx(ctx, func(tx *Tx) error {
			var n int
			return tx.QueryRow(ctx, q, "600").Scan(&n)
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a statement first met inside a write transaction blocked it")
	}
	for deadline := time.Now().Add(time.Minute); c.get(q) == nil; runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatal("the statement was never prepared")
		}
	}

	for i := range 2 * maxCached {
		c.get(fmt.Sprintf("SELECT %d", i))
		c.mu.Lock()
		n := len(c.stmts) + len(c.pending)
		c.mu.Unlock()
		if n > maxCached {
			t.Fatalf("%d statements cached or pending, bound %d", n, maxCached)
		}
	}

	c.close()
	if c.get(q) != nil || c.get("SELECT 'after close'") != nil {
		t.Error("a closed cache handed out a statement")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.stmts) != 0 {
		t.Errorf("a closed cache holds %d statements", len(c.stmts))
	}
}

// The write cache is prepared by the writer between its transactions: a statement a
// transaction met unprepared is prepared before the next transaction starts, with
// no preparer of its own competing for the write connection; a statement that
// fails to prepare is not cached and does not stop the writer.
func TestWriterPreparesItsStatementsBetweenTransactions(t *testing.T) {
	ctx := context.Background()
	st := migratedSQLite(t)
	c := st.writeStmts
	if !c.owned {
		t.Fatal("the write cache of a SQLite store is not prepared by its writer")
	}
	const q = `SELECT COUNT(*) FROM vehicle WHERE license_plate = $1`
	const bad = `SELECT no_such_column FROM vehicle`
	if err := st.InTx(ctx, func(tx *Tx) error {
		if tx.stmts.get(q) != nil {
			t.Error("a statement never met is already prepared")
		}
		var n int
		if err := tx.QueryRow(ctx, q, "1234BCD").Scan(&n); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, bad); err == nil {
			t.Error("a statement naming no column ran")
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.preparing {
			t.Error("a background preparer started on the write connection")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.InTx(ctx, func(tx *Tx) error {
		if tx.stmts.get(q) == nil {
			t.Error("the statement met by the previous transaction is not prepared for the next one")
		}
		var n int
		return tx.QueryRow(ctx, q, "1234BCD").Scan(&n)
	}); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.stmts[bad]; ok {
		t.Error("a statement that fails to prepare was cached")
	}
}

// migratedSQLite is a new migrated SQLite store in the test's folder, closed with the
// test.
func migratedSQLite(t *testing.T) *Engine {
	t.Helper()
	ctx := context.Background()
	st, err := OpenWith(ctx, "sqlite:"+filepath.Join(t.TempDir(), "s.db"), Options{SQLiteSync: SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}
