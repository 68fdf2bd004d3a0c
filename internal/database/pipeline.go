package database

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Round trips on PostgreSQL (docs/performance.md#the-public-booking-in-two-round-trips).
// A write transaction there is one connection of the pool and the statements sent
// on it: BEGIN goes out with the transaction's first statement, and statements
// whose outcome the operation needs only at the end (an insert whose failure fails
// the whole transaction anyway) wait in the transaction (Queue) and go out, in
// order, with its next statement that reads (Send, or any Exec, QueryRow or Query)
// or with its COMMIT: pgx's pipeline, one round trip for all of them. A statement
// that fails fails the transaction: the rest of its round trip is skipped by the
// server, the error is returned by the call that sent it (and by every later
// one), and the transaction rolls back. On SQLite the statements are calls into the
// same process: Queue and Send run them at once.

// Stmt is one statement of a round trip (Tx.Queue, Tx.Send).
type Stmt struct {
	Query string
	Args  []any
	// Dest receives the one row the statement returns; nil: its rows, if any, are
	// not read. A queued statement's Dest is set once the round trip that carries it
	// is done. No row is sql.ErrNoRows for the call that sent it, after the rest of
	// its round trip was read: it does not fail the transaction.
	Dest []any
	// Check, when set, judges how many rows the statement changed: its error fails
	// the transaction. A COMMIT never goes out in the round trip of a checked
	// statement.
	Check func(rowsAffected int64) error
	// Refused, when set, turns the statement's failure inside PostgreSQL (an
	// exception it raised, a constraint it violated) into the operation's error;
	// nil keeps the failure as it is. A refusal raised inside the database aborts
	// the transaction: unlike Check, it lets a COMMIT share the statement's round
	// trip (docs/performance.md#the-public-booking-in-two-round-trips).
	Refused func(*pgconn.PgError) error
	// What names the statement in its error ("insert reservation").
	What string
}

// refused is err, turned by s.Refused when the database refused the statement.
func (s Stmt) refused(err error) error {
	var pe *pgconn.PgError
	if s.Refused != nil && errors.As(err, &pe) {
		if e := s.Refused(pe); e != nil {
			return e
		}
	}
	return err
}

func (s Stmt) wrap(err error) error {
	if err == nil || s.What == "" {
		return err
	}
	return fmt.Errorf("%s: %w", s.What, err)
}

// Queue sends s with the transaction's next round trip on PostgreSQL; its error,
// if any, is returned by the call that sends it. On SQLite s runs now.
func (tx *Tx) Queue(ctx context.Context, s Stmt) error {
	if tx.pg == nil {
		return tx.run(ctx, s)
	}
	if tx.pg.failed != nil {
		return tx.pg.failed
	}
	tx.pg.pending = append(tx.pg.pending, s)
	return nil
}

// Send runs the queued statements and ss, in order, in one round trip on
// PostgreSQL; on SQLite one after the other. It returns the first failure.
func (tx *Tx) Send(ctx context.Context, ss ...Stmt) error {
	if tx.pg == nil {
		var noRow error
		for _, s := range ss {
			if err := tx.run(ctx, s); errors.Is(err, sql.ErrNoRows) {
				noRow = cmp.Or(noRow, err)
			} else if err != nil {
				return err
			}
		}
		return noRow
	}
	return tx.pg.send(ctx, ss, false)
}

// run runs s at once through the transaction's Exec or QueryRow.
func (tx *Tx) run(ctx context.Context, s Stmt) error {
	if s.Dest != nil {
		return s.wrap(tx.QueryRow(ctx, s.Query, s.Args...).Scan(s.Dest...))
	}
	res, err := tx.Exec(ctx, s.Query, s.Args...)
	if err == nil && s.Check != nil {
		var n int64
		if n, err = res.RowsAffected(); err == nil {
			err = s.Check(n)
		}
	}
	return s.wrap(err)
}

// pgTx is a PostgreSQL write transaction: its connection, whether BEGIN went out,
// the statements waiting for the next round trip, and the failure that doomed it.
type pgTx struct {
	trips   *atomic.Int64 // the engine's count (Engine.RoundTrips)
	conn    *sql.Conn
	begun   bool
	pending []Stmt
	failed  error
	done    bool
}

// send runs the pending statements and ss in one round trip, after BEGIN when it has
// not gone out yet and followed by COMMIT when commit is set.
func (p *pgTx) send(ctx context.Context, ss []Stmt, commit bool) error {
	if p.failed != nil {
		return p.failed
	}
	all := p.pending
	if len(ss) > 0 {
		all = append(all[:len(all):len(all)], ss...)
	}
	p.pending = nil
	if len(all) == 0 && !commit && p.begun {
		return nil
	}
	begin := !p.begun
	p.trips.Add(1)
	var noRow error
	err := p.conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		b := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(all)+2)}
		if begin {
			b.Queue("begin")
		}
		for _, s := range all {
			b.Queue(s.Query, s.Args...)
		}
		if commit {
			b.Queue("commit")
		}
		br := c.SendBatch(ctx, b)
		var err error
		noRow, err = readBatch(br, begin, all, commit)
		if cerr := br.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("round trip: %w", cerr)
		}
		return err
	})
	p.begun = true
	if err != nil {
		p.failed = err
		return err
	}
	return noRow
}

// readBatch reads a round trip's results in the order sent: the first failure ends
// it (the server skipped what followed); the first read that found no row is
// noRow, and the reading goes on.
func readBatch(br pgx.BatchResults, begin bool, all []Stmt, commit bool) (noRow, err error) {
	if begin {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
	}
	for _, s := range all {
		var err error
		if s.Dest != nil {
			if err = br.QueryRow().Scan(s.Dest...); errors.Is(err, sql.ErrNoRows) {
				if noRow == nil {
					noRow = s.wrap(err)
				}
				continue
			}
		} else {
			tag, e := br.Exec()
			if err = e; err == nil && s.Check != nil {
				err = s.Check(tag.RowsAffected())
			}
		}
		if err != nil {
			return nil, s.wrap(s.refused(err))
		}
	}
	if commit {
		tag, err := br.Exec()
		if err != nil {
			return nil, err
		}
		if tag.String() == "ROLLBACK" { // the transaction had failed: nothing committed
			return nil, pgx.ErrTxCommitRollback
		}
	}
	return noRow, nil
}

// ready sends BEGIN and the pending statements, if any, before a statement that
// goes through database/sql (Exec, QueryRow, Query).
func (p *pgTx) ready(ctx context.Context) error {
	if p.begun && len(p.pending) == 0 {
		return p.failed
	}
	return p.send(ctx, nil, false)
}

// commit sends the pending statements and COMMIT in one round trip (checked ones
// first in a round trip of their own: their check decides before anything commits).
func (p *pgTx) commit(ctx context.Context) error {
	if p.failed != nil {
		return p.failed
	}
	if !p.begun && len(p.pending) == 0 {
		return nil // nothing was sent: nothing to commit
	}
	for _, s := range p.pending {
		if s.Check != nil || s.Dest != nil {
			if err := p.send(ctx, nil, false); err != nil {
				return err
			}
			break
		}
	}
	return p.send(ctx, nil, true)
}

// end rolls back what the transaction sent unless it committed, and gives its
// connection back to the pool; a connection left inside a transaction (its
// ROLLBACK failed) is closed by the pool instead (stdlib's ResetSession).
func (p *pgTx) end(committed bool) {
	if p.done {
		return
	}
	p.done = true
	if !committed && p.begun {
		p.trips.Add(1)
		_, _ = p.conn.ExecContext(context.Background(), "rollback")
	}
	_ = p.conn.Close()
}

// inTxPG is InTx on PostgreSQL (see the top of the file).
func (s *Engine) inTxPG(ctx context.Context, fn func(tx *Tx) error) (err error) {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	p := &pgTx{conn: conn, trips: &s.trips}
	tx := &Tx{pg: p, dialect: s.dialect, Now: s.now()}
	committed, returned := false, false
	defer func() {
		if r := recover(); r != nil {
			p.end(false)
			panic(r)
		}
		// !returned: fn called runtime.Goexit (t.FailNow in a test).
		p.end(committed && returned)
	}()
	err = fn(tx)
	returned = true
	if p.failed != nil && (err == nil || !errors.Is(err, p.failed)) {
		// The statement that failed first is the cause; a later one only saw the
		// transaction aborted.
		err = errors.Join(p.failed, err)
	}
	if err != nil {
		return err
	}
	if err = ctx.Err(); err != nil { // reported as on SQLite (groupWriter.call)
		return fmt.Errorf("commit: %w", err)
	}
	if err = p.commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	committed = true
	p.end(true)
	for _, f := range tx.afterCommit {
		f()
	}
	return nil
}

// RoundTrips is how many round trips PostgreSQL write transactions have sent, BEGIN
// to COMMIT or ROLLBACK (0 on SQLite): what tests hold an operation's count to
// (docs/performance.md#the-public-booking-in-two-round-trips).
func (s *Engine) RoundTrips() int64 { return s.trips.Load() }

// execResult is an Exec's result on PostgreSQL sent in a round trip of several.
type execResult int64

func (n execResult) RowsAffected() (int64, error) { return int64(n), nil }
func (execResult) LastInsertId() (int64, error) {
	return 0, errors.New("LastInsertId is not supported by PostgreSQL: use RETURNING")
}

// pgExec is Exec on PostgreSQL: with the pending statements (and BEGIN) in one round trip.
func (p *pgTx) exec(ctx context.Context, query string, args []any) (sql.Result, error) {
	var n int64
	if err := p.send(ctx, []Stmt{{Query: query, Args: args, Check: func(rows int64) error { n = rows; return nil }}}, false); err != nil {
		return nil, err
	}
	return execResult(n), nil
}

// failedCtx is ctx cancelled: a QueryRow or Query on a failed transaction returns
// at once with an error, without running (InTx reports the first failure).
func failedCtx(ctx context.Context) context.Context {
	c, cancel := context.WithCancel(ctx)
	cancel()
	return c
}
