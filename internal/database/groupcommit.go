package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit (SQLite). SQLite has one writer, and most of a small write
// transaction's cost is its COMMIT: every dirty page (the reservation and its
// indexes, customer, vehicle, the search and tally tables, board_version, the
// outbox row) becomes one WAL frame written by its own system call, and with
// synchronous=FULL the COMMIT also waits for an fsync of the WAL. The shared pages
// (board_version, reservation_tally, the index leaves at the end of the reservation
// table) are written again by every transaction. So one writer goroutine takes the
// InTx calls that are waiting and runs them, one after another, in ONE database
// transaction, each inside its own SAVEPOINT, and commits once.
//
// What a caller can rely on (each point has a test in groupcommit_test.go):
//
//   - Isolation of failures. A call whose function returns an error, panics, or
//     whose context is done by the time its function returns, is rolled back to its
//     savepoint BEFORE the next call of the batch starts. So no other call ever reads
//     a row of a call that does not commit: the next call sees exactly the rows of
//     the calls before it that succeeded, and those commit or fail together with it
//     (next point). The failed call gets its own error (a panic is re-raised on its
//     own goroutine); the others are unaffected.
//   - All or nothing at COMMIT. Every call is answered only after the batch's
//     COMMIT; a failed COMMIT is reported to every call of the batch and none is
//     acknowledged (its AfterCommit callbacks do not run). A call that read another
//     call's rows in the batch is thus acknowledged only if those rows committed.
//   - Cancellation. A caller whose context is done while it waits (queued, or in a
//     batch but not started) returns at once with the context's error, and its
//     function never runs. Once started, its statements run uncancelled (an
//     interrupted write makes SQLite roll back the whole transaction, the other
//     calls' work included); if its context is done when its function returns, it is
//     rolled back to its savepoint and gets the error.
//   - Slowness is bounded. A batch holds at most MaxBatch calls, and starts no new
//     call once it has run for MaxBatchTime: the rest wait for the next transaction.
//     So a slow call delays only the calls that ran before it in its batch (they
//     wait for its COMMIT) and those queued behind it, as it would with one
//     transaction per call (SQLite has one writer), and the batch completes when it
//     returns. A function that never returns holds the writer forever, as it would
//     hold the only write connection without group commit; waiting callers can
//     still leave through their contexts.
//   - A lone call runs without a savepoint, exactly as one transaction per call.
//
// Measured with bench/run.sh (docs/performance.md): public booking on SQLite
// 1,190/s p99 209 ms → 1,970/s p99 50 ms with synchronous=NORMAL.

// GroupCommit bounds SQLite's group commit (Options.GroupCommit); zero fields take
// the defaults.
type GroupCommit struct {
	// MaxBatch is the most calls one transaction runs. Default 64; 1 turns group
	// commit off (one transaction per call).
	MaxBatch int
	// MaxBatchTime: once a transaction has run calls for this long, it starts no
	// other and commits. Default 50 ms (a booking takes about 0.3 ms).
	MaxBatchTime time.Duration
}

func (o GroupCommit) withDefaults() GroupCommit {
	if o.MaxBatch <= 0 {
		o.MaxBatch = 64
	}
	if o.MaxBatchTime <= 0 {
		o.MaxBatchTime = 50 * time.Millisecond
	}
	return o
}

type txRequest struct {
	ctx   context.Context
	fn    func(tx *Tx) error
	state atomic.Int32 // reqQueued → reqStarted by the writer, or → reqAbandoned by the caller
	done  chan txResult
	// answered is set by the writer goroutine only.
	answered bool
}

const (
	reqQueued int32 = iota
	reqStarted
	reqAbandoned
)

type txResult struct {
	goexit      bool // fn called runtime.Goexit: the caller's goroutine exits too
	err         error
	panicked    bool
	panicVal    any
	afterCommit []func()
}

func (r txResult) failed() bool { return r.err != nil || r.panicked }

// groupWriter owns the single SQLite write connection's transactions.
type groupWriter struct {
	s   *Engine
	opt GroupCommit

	mu      sync.Mutex
	wake    sync.Cond    // signalled when the queue grows or the writer is closed
	queue   []*txRequest // in arrival order
	closed  bool
	stopped chan struct{}

	// The writer goroutine's current transaction, for recovery from runtime.Goexit:
	// batch[:next] have started, batch[next:] have not.
	batch   []*txRequest
	next    int
	sqlTx   *sql.Tx
	running *txRequest

	grouped atomic.Int64 // calls run in a transaction of two or more (tests)
}

// errGoexit fails the calls that shared a transaction with a function that called
// runtime.Goexit (t.FailNow in a test, say) on the writer goroutine.
var errGoexit = errors.New("transaction rolled back: another call in it exited its goroutine")

var errStoreClosed = errors.New("store closed")

func newGroupWriter(s *Engine, opt GroupCommit) *groupWriter {
	g := &groupWriter{s: s, opt: opt.withDefaults(), stopped: make(chan struct{})}
	g.wake.L = &g.mu
	go g.loop()
	return g
}

// close stops the writer after its current transaction; calls still queued fail.
func (g *groupWriter) close() {
	g.mu.Lock()
	g.closed = true
	g.wake.Broadcast()
	g.mu.Unlock()
	<-g.stopped
}

func (g *groupWriter) answer(r *txRequest, res txResult) {
	if !r.answered {
		r.answered = true
		r.done <- res // buffered: never blocks, even for a caller that left
	}
}

// inTx is InTx on SQLite: same contract, run by the writer goroutine.
func (g *groupWriter) inTx(ctx context.Context, fn func(tx *Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	req := &txRequest{ctx: ctx, fn: fn, done: make(chan txResult, 1)}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return fmt.Errorf("begin transaction: %w", errStoreClosed)
	}
	g.queue = append(g.queue, req)
	g.wake.Broadcast()
	g.mu.Unlock()
	var res txResult
	select {
	case res = <-req.done:
	case <-ctx.Done():
		if req.state.CompareAndSwap(reqQueued, reqAbandoned) {
			return fmt.Errorf("begin transaction: %w", ctx.Err())
		}
		res = <-req.done // started: its outcome is the answer
	}
	if res.panicked {
		panic(res.panicVal)
	}
	if res.goexit {
		runtime.Goexit()
	}
	if res.err != nil {
		return res.err
	}
	for _, f := range res.afterCommit {
		f()
	}
	return nil
}

// take waits for calls and removes up to MaxBatch of them from the head of the
// queue, leaving out the ones whose callers left. It returns nil once closed.
func (g *groupWriter) take() []*txRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		for len(g.queue) == 0 && !g.closed {
			g.wake.Wait()
		}
		if g.closed {
			for _, r := range g.queue {
				g.answer(r, txResult{err: fmt.Errorf("begin transaction: %w", errStoreClosed)})
			}
			g.queue = nil
			return nil
		}
		var batch []*txRequest
		k := 0
		for ; k < len(g.queue) && len(batch) < g.opt.MaxBatch; k++ {
			if r := g.queue[k]; r.state.Load() == reqQueued {
				batch = append(batch, r)
			}
		}
		n := copy(g.queue, g.queue[k:])
		clear(g.queue[n:])
		g.queue = g.queue[:n]
		if len(batch) > 0 {
			return batch
		}
	}
}

// requeue puts calls that have not started back at the head of the queue, in order.
func (g *groupWriter) requeue(reqs []*txRequest) {
	if len(reqs) == 0 {
		return
	}
	g.mu.Lock()
	g.queue = append(append(make([]*txRequest, 0, len(reqs)+len(g.queue)), reqs...), g.queue...)
	g.mu.Unlock()
}

func (g *groupWriter) loop() {
	stopped := false
	defer func() {
		if stopped {
			close(g.stopped)
			return
		}
		// A transaction function called runtime.Goexit on this goroutine (a panic
		// would not stop here: call recovers those). Its transaction is abandoned:
		// roll it back, answer the calls that ran in it (the culprit's goroutine exits
		// in turn, as it would have without group commit), put back the ones that did
		// not start, and serve on.
		if g.sqlTx != nil {
			_ = g.sqlTx.Rollback()
		}
		for _, r := range g.batch[:g.next] {
			g.answer(r, txResult{err: errGoexit, goexit: r == g.running})
		}
		g.requeue(g.batch[g.next:])
		g.batch, g.next, g.sqlTx, g.running = nil, 0, nil, nil
		go g.loop()
	}()
	for {
		batch := g.take()
		if batch == nil {
			stopped = true
			return
		}
		g.runTx(batch)
		g.batch, g.next, g.sqlTx = nil, 0, nil
		// The statements the transaction met unprepared, prepared now that the
		// connection is free (stmtCache): from the next transaction on they run
		// prepared.
		g.s.writeStmts.preparePending()
	}
}

// start marks r as started unless its caller has left.
func (g *groupWriter) start(r *txRequest) bool {
	return r.state.CompareAndSwap(reqQueued, reqStarted)
}

// runTx runs batch in one transaction and answers the calls it ran; the ones it did
// not start (the time bound was reached, or SQLite abandoned the transaction) go
// back to the head of the queue.
func (g *groupWriter) runTx(batch []*txRequest) {
	bg := context.Background()
	began := time.Now()
	sqlTx, err := g.s.write.BeginTx(bg, nil)
	if err != nil {
		for _, r := range batch {
			if g.start(r) {
				g.answer(r, txResult{err: fmt.Errorf("begin transaction: %w", err)})
			}
		}
		return
	}
	g.batch, g.sqlTx = batch, sqlTx
	if len(batch) == 1 {
		r := batch[0]
		if !g.start(r) {
			_ = sqlTx.Rollback()
			return
		}
		g.next = 1
		res := g.call(sqlTx, r)
		if res.failed() {
			_ = sqlTx.Rollback()
		} else if err := g.commit(sqlTx); err != nil {
			res = txResult{err: fmt.Errorf("commit: %w", err)}
		}
		g.answer(r, res)
		return
	}
	sp := &Tx{tx: sqlTx, dialect: g.s.dialect, stmts: g.s.writeStmts}
	var ran []*txRequest
	var results []txResult
	for i, r := range batch {
		if len(ran) > 0 && time.Since(began) >= g.opt.MaxBatchTime {
			g.requeue(batch[i:])
			break
		}
		g.next = i + 1
		if !g.start(r) {
			continue
		}
		ran = append(ran, r)
		if _, err := sp.Exec(bg, "SAVEPOINT grp"); err != nil {
			g.broken(sqlTx, ran, append(results, txResult{}), batch[i+1:], err)
			return
		}
		res := g.call(sqlTx, r)
		if res.failed() {
			_, err = sp.Exec(bg, "ROLLBACK TO grp")
			if err == nil {
				_, err = sp.Exec(bg, "RELEASE grp")
			}
		} else {
			_, err = sp.Exec(bg, "RELEASE grp")
		}
		results = append(results, res)
		if err != nil {
			g.broken(sqlTx, ran, results, batch[i+1:], err)
			return
		}
	}
	if len(ran) > 1 {
		g.grouped.Add(int64(len(ran)))
	}
	cerr := g.commit(sqlTx)
	for i, r := range ran {
		res := results[i]
		if cerr != nil && !res.failed() {
			res = txResult{err: fmt.Errorf("commit: %w", cerr)}
		}
		g.answer(r, res)
	}
}

// broken answers the calls of a transaction SQLite has abandoned (a savepoint
// statement failed: SQLite rolled the whole transaction back, which only I/O errors
// do here, since statements run uncancelled): the calls that ran fail (a failed one
// keeps its own error or panic), and the ones not started go back to the queue for
// a new transaction.
func (g *groupWriter) broken(sqlTx *sql.Tx, ran []*txRequest, results []txResult, notStarted []*txRequest, cause error) {
	_ = sqlTx.Rollback()
	fail := fmt.Errorf("transaction aborted: %w", cause)
	for i, r := range ran {
		res := results[i]
		if !res.failed() {
			res = txResult{err: fail}
		}
		g.answer(r, res)
	}
	g.requeue(notStarted)
}

// call runs one caller's fn with its own clock. Statements run with the caller's
// context values but never cancelled mid-statement (an interrupted write makes
// SQLite roll back the whole transaction, which would take the other callers'
// work with it); a context done by the time fn returns fails the call instead,
// and its savepoint is rolled back, as an interrupted transaction would have been.
func (g *groupWriter) call(sqlTx *sql.Tx, r *txRequest) (res txResult) {
	tx := &Tx{tx: sqlTx, dialect: g.s.dialect, stmts: g.s.writeStmts, Now: g.s.now(), detached: true}
	defer func() {
		if p := recover(); p != nil {
			g.running = nil // (a runtime.Goexit recovers nothing and leaves it for loop)
			res = txResult{panicked: true, panicVal: p}
		}
	}()
	if err := r.ctx.Err(); err != nil {
		return txResult{err: fmt.Errorf("begin transaction: %w", err)}
	}
	g.running = r
	err := r.fn(tx)
	g.running = nil
	if err != nil {
		return txResult{err: err}
	}
	if err := r.ctx.Err(); err != nil {
		return txResult{err: fmt.Errorf("commit: %w", err)}
	}
	return txResult{afterCommit: tx.afterCommit}
}

// Statements that apply the queued full-text index changes (migration 0005).
const (
	ftsQueued        = `SELECT EXISTS (SELECT 1 FROM fts_queue)`
	ftsApplyCustomer = `INSERT INTO customer_name_fts (customer_name_fts, rowid, full_name)
		SELECT CASE WHEN del = 1 THEN 'delete' END, id, body FROM fts_queue WHERE tbl = 1 ORDER BY seq`
	ftsApplyVehicle = `INSERT INTO vehicle_plate_fts (vehicle_plate_fts, rowid, license_plate)
		SELECT CASE WHEN del = 1 THEN 'delete' END, id, body FROM fts_queue WHERE tbl = 2 ORDER BY seq`
	ftsClear = `DELETE FROM fts_queue`
)

// commit applies the queued full-text index changes of the transaction's calls, in
// order, then commits: the search index changes in the same transaction as the
// rows it indexes, with one FTS5 segment write per transaction instead of one per
// call. On any error the transaction is rolled back (the driver rolls back a
// failed COMMIT too, so the connection never stays inside a transaction).
func (g *groupWriter) commit(sqlTx *sql.Tx) error {
	if err := g.applyFTS(sqlTx); err != nil {
		_ = sqlTx.Rollback()
		return err
	}
	return sqlTx.Commit()
}

func (g *groupWriter) applyFTS(sqlTx *sql.Tx) error {
	bg := context.Background()
	tx := &Tx{tx: sqlTx, dialect: g.s.dialect, stmts: g.s.writeStmts}
	var queued bool
	if err := tx.QueryRow(bg, ftsQueued).Scan(&queued); err != nil {
		return fmt.Errorf("full-text queue: %w", err)
	}
	if !queued {
		return nil
	}
	for _, q := range []string{ftsApplyCustomer, ftsApplyVehicle, ftsClear} {
		if _, err := tx.Exec(bg, q); err != nil {
			return fmt.Errorf("apply full-text queue: %w", err)
		}
	}
	return nil
}
