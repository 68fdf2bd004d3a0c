package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Group commit (SQLite). SQLite has one writer, and most of a small write
// transaction's cost is its COMMIT: every dirty page (the reservation and its
// indexes, customer, vehicle, the search and tally tables, board_version, the
// outbox row) becomes one WAL frame written by its own system call, and the shared
// pages (board_version, reservation_tally, the index leaves at the end of the
// reservation table) are written again by every transaction. So one writer
// goroutine takes the InTx calls that are waiting and runs them in ONE database
// transaction, each inside its own SAVEPOINT: an error or a panic rolls back to
// that savepoint only, so a caller's failure never touches another caller's rows.
// The batch commits once; each caller is answered only after that COMMIT (a failed
// COMMIT fails every call of the batch), and its AfterCommit callbacks then run on
// its own goroutine, as before. A lone call runs exactly as before, without a
// savepoint.
//
// Measured with bench/run.sh (wrk, 50 connections, 2 cores shared, load ~4.5):
// public booking on SQLite 1,190/s p99 209 ms → 1,970/s p99 50 ms.

// maxGroup bounds a batch, so that the first caller of a large batch does not wait
// for too many others' work.
const maxGroup = 64

type txRequest struct {
	ctx   context.Context
	fn    func(tx *Tx) error
	state atomic.Int32 // reqQueued → reqTaken by the writer, or → reqAbandoned by the caller
	done  chan txResult
	// answered is set by the writer goroutine only.
	answered bool
}

const (
	reqQueued int32 = iota
	reqTaken
	reqAbandoned
)

type txResult struct {
	goexit      bool // fn called runtime.Goexit: the caller's goroutine exits too
	err         error
	panicked    bool
	panicVal    any
	afterCommit []func()
}

// groupWriter owns the single SQLite write connection's transactions.
type groupWriter struct {
	s       *Store
	queue   chan *txRequest // unbuffered: a request is either taken or never sent
	quit    chan struct{}
	stopped chan struct{}
	once    sync.Once

	// The writer goroutine's current work, for recovery from runtime.Goexit.
	batch   []*txRequest
	sqlTx   *sql.Tx
	running *txRequest
}

// errGoexit fails the calls that shared a transaction with a function that called
// runtime.Goexit (t.FailNow in a test, say) on the writer goroutine.
var errGoexit = errors.New("transaction rolled back: another call in it exited its goroutine")

func (g *groupWriter) answer(r *txRequest, res txResult) {
	r.answered = true
	r.done <- res
}

// groupedCalls counts the calls run in a batch of two or more (tests assert that
// their concurrent calls were really grouped).
var groupedCalls atomic.Int64

var errStoreClosed = errors.New("store closed")

func newGroupWriter(s *Store) *groupWriter {
	g := &groupWriter{s: s, queue: make(chan *txRequest), quit: make(chan struct{}), stopped: make(chan struct{})}
	go g.loop()
	return g
}

func (g *groupWriter) close() {
	g.once.Do(func() { close(g.quit) })
	<-g.stopped
}

// inTx is InTx on SQLite: same contract, run by the writer goroutine.
func (g *groupWriter) inTx(ctx context.Context, fn func(tx *Tx) error) error {
	req := &txRequest{ctx: ctx, fn: fn, done: make(chan txResult, 1)}
	select {
	case g.queue <- req:
	case <-ctx.Done():
		return fmt.Errorf("begin transaction: %w", ctx.Err())
	case <-g.quit:
		return fmt.Errorf("begin transaction: %w", errStoreClosed)
	}
	var res txResult
	select {
	case res = <-req.done:
	case <-ctx.Done():
		if req.state.CompareAndSwap(reqQueued, reqAbandoned) {
			return fmt.Errorf("begin transaction: %w", ctx.Err())
		}
		res = <-req.done // already running: its outcome is the answer
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

func (g *groupWriter) loop() {
	stopped := false
	defer func() {
		if stopped {
			close(g.stopped)
			return
		}
		// A transaction function called runtime.Goexit on this goroutine (a panic
		// would not stop here: call recovers those). Its transaction is abandoned:
		// roll it back, answer every call of it (the culprit's goroutine exits in
		// turn, as it would have without group commit), and serve on.
		if g.sqlTx != nil {
			_ = g.sqlTx.Rollback()
		}
		for _, r := range g.batch {
			if !r.answered {
				g.answer(r, txResult{err: errGoexit, goexit: r == g.running})
			}
		}
		g.batch, g.sqlTx, g.running = nil, nil, nil
		go g.loop()
	}()
	batch := make([]*txRequest, 0, maxGroup)
	for {
		select {
		case r := <-g.queue:
			batch = append(batch[:0], r)
		case <-g.quit:
			stopped = true
			return
		}
	fill:
		for len(batch) < maxGroup {
			select {
			case r := <-g.queue:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		live := batch[:0]
		for _, r := range batch {
			if r.state.CompareAndSwap(reqQueued, reqTaken) {
				live = append(live, r)
			}
		}
		for len(live) > 0 {
			g.batch = live
			live = g.runTx(live)
		}
		g.batch, g.sqlTx = nil, nil
		clear(batch)
	}
}

// runTx runs reqs in one transaction and answers them. If the transaction breaks
// (a savepoint statement fails: SQLite rolled the whole transaction back, which
// only I/O errors do here, since statements run uncancelled), the calls already run
// fail with that error and the ones not yet run are returned for a new transaction.
func (g *groupWriter) runTx(reqs []*txRequest) (rest []*txRequest) {
	bg := context.Background()
	sqlTx, err := g.s.write.BeginTx(bg, nil)
	g.sqlTx = sqlTx
	if err != nil {
		for _, r := range reqs {
			g.answer(r, txResult{err: fmt.Errorf("begin transaction: %w", err)})
		}
		return nil
	}
	if len(reqs) == 1 {
		res := g.call(sqlTx, reqs[0])
		if res.err != nil || res.panicked {
			_ = sqlTx.Rollback()
		} else if err := g.commit(sqlTx); err != nil {
			res = txResult{err: fmt.Errorf("commit: %w", err)}
		}
		g.answer(reqs[0], res)
		return nil
	}
	groupedCalls.Add(int64(len(reqs)))
	sp := &Tx{tx: sqlTx, dialect: g.s.dialect, stmts: g.s.writeStmts}
	results := make([]txResult, 0, len(reqs))
	for i, r := range reqs {
		if _, err := sp.Exec(bg, "SAVEPOINT grp"); err != nil {
			return g.broken(sqlTx, reqs[:i], results, txResult{}, nil, reqs[i:], err)
		}
		res := g.call(sqlTx, r)
		if res.err != nil || res.panicked {
			_, err = sp.Exec(bg, "ROLLBACK TO grp")
			if err == nil {
				_, err = sp.Exec(bg, "RELEASE grp")
			}
		} else {
			_, err = sp.Exec(bg, "RELEASE grp")
		}
		if err != nil {
			return g.broken(sqlTx, reqs[:i], results, res, r, reqs[i+1:], err)
		}
		results = append(results, res)
	}
	cerr := g.commit(sqlTx)
	for i, r := range reqs {
		res := results[i]
		if cerr != nil && res.err == nil && !res.panicked {
			res = txResult{err: fmt.Errorf("commit: %w", cerr)}
		}
		g.answer(r, res)
	}
	return rest
}

// broken answers the calls of a transaction SQLite has abandoned: those already
// run and the current one fail (a failed one keeps its own error or panic), and the
// ones not run yet are handed back.
func (g *groupWriter) broken(sqlTx *sql.Tx, ran []*txRequest, results []txResult, cur txResult, curReq *txRequest,
	notRun []*txRequest, cause error) []*txRequest {
	_ = sqlTx.Rollback()
	fail := fmt.Errorf("transaction aborted: %w", cause)
	for i, r := range ran {
		res := results[i]
		if res.err == nil && !res.panicked {
			res = txResult{err: fail}
		}
		g.answer(r, res)
	}
	if curReq != nil {
		if cur.err == nil && !cur.panicked {
			cur = txResult{err: fail}
		}
		g.answer(curReq, cur)
	}
	return notRun
}

// call runs one caller's fn with its own clock. Statements run with the caller's
// context values but never cancelled mid-statement (an interrupted write makes
// SQLite roll back the whole transaction, which would take the other callers'
// work with it); a context cancelled by the time fn returns fails the call instead,
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
// call. On any error the transaction is rolled back.
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
