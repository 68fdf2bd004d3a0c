// Package store holds the service's queries: every SQL text the service runs on its
// data, one text for both SQLite and PostgreSQL wherever the dialects agree and the
// two variants side by side where they do not. The engine they run on (pools,
// transactions, group commit, statement cache, migrations) is internal/database.
// The queries are grouped by capability (capabilities.go): s.Catalog().Rates(ctx)
// reads, tx.Catalog().SaveRate(ctx, …) writes inside a transaction.
package store

import (
	"context"
	"time"

	"parking/internal/clock"
	"parking/internal/database"
)

// Dialect names the database behind a Store.
type Dialect = database.Dialect

const (
	SQLite   = database.SQLite
	Postgres = database.Postgres
)

// SQLiteSync is SQLite's synchronous setting on the WAL file (database.SQLiteSync).
type SQLiteSync = database.SQLiteSync

const (
	SyncFull   = database.SyncFull
	SyncNormal = database.SyncNormal
)

// GroupCommit bounds SQLite's group commit (database.GroupCommit).
type GroupCommit = database.GroupCommit

// Checkpoints tunes SQLite's checkpoints (database.Checkpoints).
type Checkpoints = database.Checkpoints

// ParseSQLiteSync reads a synchronous setting, FULL or NORMAL (any case).
func ParseSQLiteSync(v string) (SQLiteSync, error) { return database.ParseSQLiteSync(v) }

// MigrationNames lists the embedded migration files of a dialect in the order they run.
func MigrationNames(d Dialect) ([]string, error) { return database.MigrationNames(d) }

// Time normalises a time for storage (database.Time).
func Time(t time.Time) time.Time { return database.Time(t) }

// Store is the engine with the service's queries on it, reached by capability
// (capabilities.go).
type Store struct {
	*database.Engine
	history HistoryTuning
}

// Options tune a Store; the zero value gives the defaults. Each knob lives here, in
// the value that uses it, so that a test or an operator sets it for one store and
// nothing is shared between stores.
type Options struct {
	// SQLiteSync is SQLite's synchronous setting (PARKING_SQLITE_SYNC); default FULL.
	SQLiteSync SQLiteSync
	// GroupCommit bounds SQLite's group commit (internal/database/groupcommit.go).
	GroupCommit GroupCommit
	// Checkpoints tunes SQLite's checkpoints (internal/database/checkpoint.go).
	Checkpoints Checkpoints
	// History steers the history search's choice of plan (history_plan.go).
	History HistoryTuning
	// Clock is the service's clock: every transaction's Now comes from it, and the
	// operations built on the store read the same one (Store.Clock), so the whole
	// service agrees on the time. Default clock.Real; tests inject a fake one.
	Clock clock.Clock
}

// Open connects to the database named by rawURL: "sqlite:PATH" or "postgres://…",
// with the default Options. It does not migrate; call Migrate.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	return OpenWith(ctx, rawURL, Options{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	e, err := database.OpenWith(ctx, rawURL, database.Options{
		SQLiteSync:  opts.SQLiteSync,
		GroupCommit: opts.GroupCommit,
		Checkpoints: opts.Checkpoints,
		Clock:       opts.Clock,
	})
	if err != nil {
		return nil, err
	}
	return &Store{Engine: e, history: opts.History.withDefaults()}, nil
}

// Tx is a write transaction: the engine's (Exec, QueryRow, Query, Now,
// AfterCommit) with the service's write queries on it, reached by capability.
type Tx struct{ *database.Tx }

// InTx runs fn in one write transaction and commits if fn returns nil; any error,
// or a panic, rolls everything back (database.Engine.InTx has the whole contract).
func (s *Store) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	return inTx(ctx, s.Engine, fn)
}

// inTx runs fn in one write transaction of e (database.Engine.InTx), as a store Tx.
func inTx(ctx context.Context, e *database.Engine, fn func(tx *Tx) error) error {
	return e.InTx(ctx, func(tx *database.Tx) error { return fn(&Tx{tx}) })
}

// optTime is Time for an optional time (an open stay's exit): nil stays nil.
func optTime(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}
