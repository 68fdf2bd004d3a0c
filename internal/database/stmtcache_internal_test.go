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
	st, err := OpenWith(ctx, "sqlite:"+filepath.Join(t.TempDir(), "c.db"), Options{SQLiteSync: SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
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
