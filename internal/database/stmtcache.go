package database

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps prepared statements by query text. SQLite (modernc) otherwise
// parses and plans every statement on every call, which was a third of a booking's
// CPU time. pgx already caches statements per connection, so PostgreSQL stores use
// no cache (a nil *stmtCache).
//
// get never blocks: a statement not yet prepared runs unprepared this time and is
// queued to be prepared. Preparing on the spot could deadlock, because the caller
// may be a transaction holding the only write connection. The read cache prepares
// in the background. The write cache (SQLite's one write connection, used only by
// the group writer) is prepared by the writer itself between two transactions
// (groupWriter.loop): a background preparer had to wait for the connection between
// the writer's transactions, so under load the first few hundred bookings after a
// start ran their statements unprepared, each compiling every trigger of the
// reservation table again (docs/performance.md#the-writers-statements). Only fixed
// query texts belong here; the cache stops growing at maxCached so generated SQL
// can never make it unbounded.
type stmtCache struct {
	db        *sql.DB
	owned     bool // prepared by its owner calling preparePending, never in the background
	mu        sync.Mutex
	stmts     map[string]*sql.Stmt
	pending   map[string]bool
	preparing bool
	closed    bool
}

const maxCached = 512

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: make(map[string]*sql.Stmt), pending: make(map[string]bool)}
}

// get returns the prepared statement for q, or nil when it must run unprepared.
func (c *stmtCache) get(q string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[q]; ok {
		return st
	}
	if !c.closed && !c.pending[q] && len(c.stmts)+len(c.pending) < maxCached {
		c.pending[q] = true
		if !c.owned && !c.preparing {
			c.preparing = true
			go c.preparePending()
		}
	}
	return nil
}

// preparePending prepares the queued statements one by one, outside any
// transaction: on its own goroutine, or, for an owned cache, called by its owner
// while it holds no transaction.
func (c *stmtCache) preparePending() {
	if c == nil {
		return
	}
	for {
		c.mu.Lock()
		var q string
		for k := range c.pending {
			q = k
			break
		}
		if q == "" || c.closed {
			c.preparing = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		st, err := c.db.PrepareContext(context.Background(), q)
		c.mu.Lock()
		delete(c.pending, q)
		if err == nil && !c.closed {
			c.stmts[q] = st
		} else if st != nil {
			st.Close()
		}
		c.mu.Unlock()
	}
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = map[string]*sql.Stmt{}
}
