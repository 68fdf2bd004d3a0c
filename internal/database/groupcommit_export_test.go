package database

import "database/sql"

// GroupedCalls tells how many calls st's group commit ran in transactions of two or
// more (0 on PostgreSQL), so that a test can assert its calls were really grouped.
func GroupedCalls(st *Engine) int64 {
	if st.group == nil {
		return 0
	}
	return st.group.grouped.Load()
}

// WaitQueued returns once n calls wait in st's group-commit queue (at once on
// PostgreSQL, which has none). Tests hold the writer with one call and queue others
// behind it one by one, so that they form one batch in a known order.
func WaitQueued(st *Engine, n int) {
	g := st.group
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for len(g.queue) < n {
		g.wake.Wait()
	}
}

// SQLTx is the database transaction a call runs in: calls of one group-committed
// batch share it.
func SQLTx(tx *Tx) *sql.Tx { return tx.tx }
