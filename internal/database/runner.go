package database

import (
	"context"
	"database/sql"
)

// Runner runs a read: a write transaction (Tx), a read transaction (ReadTx) or the
// read pool (Engine) all implement it, so that a query serving both a transaction
// and a plain read is written once.
type Runner interface {
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	Dialect() Dialect
}

// QueryRow runs a single-row read of a fixed query text on the read pool with a
// cached prepared statement.
func (s *Engine) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := s.readStmts.get(q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.read.QueryRowContext(ctx, q, args...)
}

// Query runs a read of a fixed query text on the read pool with a cached prepared
// statement.
func (s *Engine) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := s.readStmts.get(q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.read.QueryContext(ctx, q, args...)
}

// Generated is the read pool for query texts built per call (a search's WHERE
// clause, an IN list): they run unprepared, since caching them would only crowd
// the fixed texts out of the statement cache.
func (s *Engine) Generated() Runner { return generated{s.read, s.dialect} }

type generated struct {
	db      *sql.DB
	dialect Dialect
}

func (g generated) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return g.db.QueryRowContext(ctx, q, args...)
}

func (g generated) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return g.db.QueryContext(ctx, q, args...)
}

func (g generated) Dialect() Dialect { return g.dialect }

// ReadTx is a read-only transaction on the read pool: its reads share one snapshot.
// Fixed query texts run with the read pool's cached prepared statements.
type ReadTx struct {
	tx      *sql.Tx
	stmts   *stmtCache
	dialect Dialect
}

// BeginRead starts a read transaction; opts.ReadOnly is implied. The caller ends it
// with Commit or Rollback.
func (s *Engine) BeginRead(ctx context.Context, opts sql.TxOptions) (*ReadTx, error) {
	opts.ReadOnly = true
	tx, err := s.read.BeginTx(ctx, &opts)
	if err != nil {
		return nil, err
	}
	return &ReadTx{tx: tx, stmts: s.readStmts, dialect: s.dialect}, nil
}

// Exec runs a statement that sets up the read transaction (SET LOCAL, say).
func (r *ReadTx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := r.stmts.get(q); st != nil {
		return r.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return r.tx.ExecContext(ctx, q, args...)
}

func (r *ReadTx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := r.stmts.get(q); st != nil {
		return r.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return r.tx.QueryRowContext(ctx, q, args...)
}

func (r *ReadTx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := r.stmts.get(q); st != nil {
		return r.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return r.tx.QueryContext(ctx, q, args...)
}

func (r *ReadTx) Dialect() Dialect { return r.dialect }

// Commit ends the read transaction.
func (r *ReadTx) Commit() error { return r.tx.Commit() }

// Rollback abandons the read transaction; after Commit it does nothing.
func (r *ReadTx) Rollback() error { return r.tx.Rollback() }

var (
	_ Runner = (*Engine)(nil)
	_ Runner = (*Tx)(nil)
	_ Runner = (*ReadTx)(nil)
)
