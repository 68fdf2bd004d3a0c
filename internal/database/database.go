// Package database is the storage engine under the store's queries: the connection
// pools of embedded SQLite (the default) or PostgreSQL, transactions with SQLite's
// group commit and the statement cache, migrations, and the signals between
// instances. It knows no table but the ones it keeps itself (schema_migrations, the
// full-text queue it applies at commit); the queries live in internal/store.
package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver (pure Go)

	"parking/internal/clock"
)

// Dialect names the database behind an Engine.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Engine holds the connection pools. On SQLite, writes go through a single connection
// whose transactions begin IMMEDIATE (SQLite has one writer anyway; queueing in Go
// is cheaper than busy-waiting on the file lock), reads through a separate pool.
// On PostgreSQL both are the same pool.
type Engine struct {
	dialect    Dialect
	read       *sql.DB
	write      *sql.DB
	readStmts  *stmtCache
	writeStmts *stmtCache
	group      *groupWriter  // SQLite: the writer goroutine behind InTx (groupcommit.go)
	ckpt       *checkpointer // SQLite: the background checkpoints (checkpoint.go); nil when off
	now        clock.Clock   // the service's clock (Tx.Now, migration times)
	// PostgreSQL: the URL the LISTEN connection opens, and the channel instances
	// signal each other on (signal.go).
	pgURL, channel string
	// trips counts the round trips of PostgreSQL write transactions (RoundTrips).
	trips atomic.Int64
}

// Options tune an Engine; the zero value gives the defaults. Each knob lives here, in
// the value that uses it, so that a test or an operator sets it for one engine and
// nothing is shared between engines.
type Options struct {
	// SQLiteSync is SQLite's synchronous setting (PARKING_SQLITE_SYNC); default FULL.
	SQLiteSync SQLiteSync
	// GroupCommit bounds SQLite's group commit (groupcommit.go).
	GroupCommit GroupCommit
	// Checkpoints tunes SQLite's checkpoints (checkpoint.go).
	Checkpoints Checkpoints
	// Clock is the service's clock: every transaction's Now comes from it, and the
	// operations built on the store read the same one (Engine.Clock), so the whole
	// service agrees on the time. Default clock.Real; tests inject a fake one.
	Clock clock.Clock
}

// SQLiteSync is SQLite's synchronous setting on the WAL file.
//
// FULL (the default) syncs the WAL at every COMMIT: a booking answered 201 survives
// a power cut or an OS crash. NORMAL syncs only at checkpoints: a killed process
// still loses nothing, but a power cut or an OS crash can roll back the last
// committed transactions, whose clients were already told they succeeded. It is for
// operators who accept that risk for throughput (docs/performance.md has both
// figures), and for tests.
type SQLiteSync string

const (
	SyncFull   SQLiteSync = "FULL"
	SyncNormal SQLiteSync = "NORMAL"
)

// ParseSQLiteSync reads a synchronous setting, FULL or NORMAL (any case).
func ParseSQLiteSync(v string) (SQLiteSync, error) {
	switch s := SQLiteSync(strings.ToUpper(strings.TrimSpace(v))); s {
	case SyncFull, SyncNormal:
		return s, nil
	}
	return "", fmt.Errorf("%q must be FULL or NORMAL", v)
}

// Open connects to the database named by rawURL: "sqlite:PATH" or "postgres://…",
// with the default Options. It does not migrate; call Migrate.
func Open(ctx context.Context, rawURL string) (*Engine, error) {
	return OpenWith(ctx, rawURL, Options{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, rawURL string, opts Options) (*Engine, error) {
	if opts.SQLiteSync == "" {
		opts.SQLiteSync = SyncFull
	}
	if _, err := ParseSQLiteSync(string(opts.SQLiteSync)); err != nil {
		return nil, fmt.Errorf("SQLite synchronous setting: %w", err)
	}
	var (
		s   *Engine
		err error
	)
	switch {
	case strings.HasPrefix(rawURL, "sqlite:"):
		s, err = openSQLite(ctx, strings.TrimPrefix(rawURL, "sqlite:"), opts)
	case strings.HasPrefix(rawURL, "postgres://"), strings.HasPrefix(rawURL, "postgresql://"):
		s, err = openPostgres(ctx, rawURL)
	default:
		return nil, fmt.Errorf("database URL %q: want sqlite:PATH or postgres://…", rawURL)
	}
	if err != nil {
		return nil, err
	}
	if opts.Clock != nil {
		s.now = opts.Clock
	}
	return s, nil
}

func openSQLite(ctx context.Context, path string, opts Options) (*Engine, error) {
	if path == "" {
		return nil, errors.New("database URL sqlite: needs a file path, e.g. sqlite:parking.db")
	}
	// busy_timeout first: the driver applies pragmas in order, and the others may
	// need to wait for a lock. _time_format=sqlite stores times in a sortable text
	// form; we only ever store UTC, so text order is time order. mmap_size lets
	// reads use the first GiB of the file in place instead of a read system call
	// per page: the daily board (thousands of primary-key lookups) went from 16 to
	// 11 ms of CPU on a 1,000,000-reservation database. synchronous goes through the
	// driver's _synchronous shorthand: in the _pragma list it can be silently
	// overridden (see SQLiteSync for what each setting risks).
	base := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
		"&_synchronous=" + string(opts.SQLiteSync) + "&_pragma=mmap_size(1073741824)&_time_format=sqlite"
	ckpt := opts.Checkpoints.withDefaults()
	write, err := sql.Open("sqlite", base+"&_pragma=temp_store(MEMORY)&_txlock=immediate"+
		"&_pragma=wal_autocheckpoint("+strconv.Itoa(ckpt.WriterPages)+")")
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	if err := write.PingContext(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	read, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	read.SetConnMaxLifetime(0)
	s := newEngine(SQLite, read, write)
	s.writeStmts.owned = true // prepared by the writer between its transactions
	if ckpt.Every > 0 {
		db, err := sql.Open("sqlite", base)
		if err != nil {
			read.Close()
			write.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", path, err)
		}
		s.ckpt = startCheckpointer(db, ckpt)
	}
	s.group = newGroupWriter(s, opts.GroupCommit)
	return s, nil
}

func openPostgres(ctx context.Context, rawURL string) (*Engine, error) {
	db, err := sql.Open("pgx", rawURL)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	// 12 connections, not more: on this 2-core machine every extra busy backend
	// only adds context switches. Public booking with wrk at 50 connections went
	// from 570-710/s to 710-930/s (three back-to-back pairs) with 12 instead of 40;
	// commits still group (12 backends flush together).
	db.SetMaxOpenConns(pgPoolSize)
	db.SetMaxIdleConns(pgPoolSize)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	s := newEngine(Postgres, db, db)
	s.pgURL = rawURL
	if s.channel, err = signalChannel(pingCtx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	return s, nil
}

// pgPoolSize is the PostgreSQL pool size (see openPostgres).
const pgPoolSize = 12

func newEngine(d Dialect, read, write *sql.DB) *Engine {
	s := &Engine{dialect: d, read: read, write: write, now: clock.Real}
	if d == SQLite {
		s.readStmts, s.writeStmts = newStmtCache(read), newStmtCache(write)
	}
	return s
}

// Clock is the store's clock (WithClock): the one every operation reads "now" from.
func (s *Engine) Clock() clock.Clock { return s.now }

// Dialect tells which database this is.
func (s *Engine) Dialect() Dialect { return s.dialect }

// Ping checks that the database answers (readiness).
func (s *Engine) Ping(ctx context.Context) error {
	if err := s.read.PingContext(ctx); err != nil {
		return err
	}
	var one int
	return s.read.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Close closes the pools.
func (s *Engine) Close() error {
	if s.group != nil {
		s.group.close()
	}
	var err error
	if s.ckpt != nil {
		err = s.ckpt.close()
	}
	s.readStmts.close()
	s.writeStmts.close()
	err = errors.Join(err, s.write.Close())
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return err
}

// DB exposes the read pool to tests and tools that need raw SQL (data generator, benchmarks).
func (s *Engine) DB() *sql.DB { return s.read }

// WriteDB exposes the write pool to tools that load data in bulk.
func (s *Engine) WriteDB() *sql.DB { return s.write }

// Tx is a write transaction: the statements of the store's write operations run
// through Exec, QueryRow and Query. Now is the engine's clock read when the
// transaction began, so every row written in it agrees on the time.
type Tx struct {
	tx          *sql.Tx // SQLite
	pg          *pgTx   // PostgreSQL (pipeline.go)
	dialect     Dialect
	stmts       *stmtCache
	Now         time.Time
	afterCommit []func()
	detached    bool // statements ignore cancellation (a group-committed SQLite call)
}

// c is the context a statement runs with: the caller's, or on a group-committed
// SQLite transaction the same without its cancellation (see groupWriter.call).
func (tx *Tx) c(ctx context.Context) context.Context {
	if tx.detached {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// InTx runs fn in one write transaction and commits if fn returns nil; any error,
// or a panic, rolls everything back, so a failed operation leaves no partial rows.
// InTx returns (or re-panics) only once the outcome is final: on success the
// commit is done, and the AfterCommit callbacks have run on the caller's goroutine.
// On SQLite, concurrent calls share one database transaction, each in its own
// savepoint (group commit, groupcommit.go); nothing about that is visible to fn.
func (s *Engine) InTx(ctx context.Context, fn func(tx *Tx) error) (err error) {
	if s.group != nil {
		return s.group.inTx(ctx, fn)
	}
	if s.dialect == Postgres {
		return s.inTxPG(ctx, fn)
	}
	sqlTx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	tx := &Tx{tx: sqlTx, dialect: s.dialect, stmts: s.writeStmts, Now: s.now()}
	returned := false
	defer func() {
		if p := recover(); p != nil {
			_ = sqlTx.Rollback()
			panic(p)
		}
		// !returned: fn called runtime.Goexit (t.FailNow in a test); without the
		// rollback the transaction would hold its connection and locks forever.
		if err != nil || !returned {
			_ = sqlTx.Rollback()
		}
	}()
	err = fn(tx)
	returned = true
	if err != nil {
		return err
	}
	if err = ctx.Err(); err != nil { // reported as on SQLite (groupWriter.call)
		return fmt.Errorf("commit: %w", err)
	}
	if err = sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	for _, f := range tx.afterCommit {
		f()
	}
	return nil
}

// AfterCommit registers f to run once the transaction has committed, never after a
// rollback: it is how the outbox wakes the notification dispatcher only for rows
// that exist. f runs on the caller's goroutine and must not block.
func (tx *Tx) AfterCommit(f func()) { tx.afterCommit = append(tx.afterCommit, f) }

// Dialect tells which database the transaction runs on.
func (tx *Tx) Dialect() Dialect { return tx.dialect }

// Exec, QueryRow and Query run a fixed query text inside the transaction with a
// cached prepared statement (SQLite; pgx caches per connection). Every statement of
// a transaction runs through them, or through Queue and Send (pipeline.go); on
// PostgreSQL the queued statements go out first, an Exec in the same round trip.
func (tx *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if tx.pg != nil {
		return tx.pg.exec(ctx, query, args)
	}
	if st := tx.stmts.get(query); st != nil {
		return tx.tx.StmtContext(tx.c(ctx), st).ExecContext(tx.c(ctx), args...)
	}
	return tx.tx.ExecContext(tx.c(ctx), query, args...)
}

func (tx *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if tx.pg != nil {
		if tx.pg.ready(ctx) != nil {
			ctx = failedCtx(ctx)
		}
		tx.pg.trips.Add(1)
		return tx.pg.conn.QueryRowContext(ctx, query, args...)
	}
	if st := tx.stmts.get(query); st != nil {
		return tx.tx.StmtContext(tx.c(ctx), st).QueryRowContext(tx.c(ctx), args...)
	}
	return tx.tx.QueryRowContext(tx.c(ctx), query, args...)
}

func (tx *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if tx.pg != nil {
		if err := tx.pg.ready(ctx); err != nil {
			return nil, err
		}
		tx.pg.trips.Add(1)
		return tx.pg.conn.QueryContext(ctx, query, args...)
	}
	if st := tx.stmts.get(query); st != nil {
		return tx.tx.StmtContext(tx.c(ctx), st).QueryContext(tx.c(ctx), args...)
	}
	return tx.tx.QueryContext(tx.c(ctx), query, args...)
}

// Time normalises a time for storage: UTC, truncated to microseconds, the precision
// both databases keep (as clock.Real does), so a value read back equals the value
// written.
func Time(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
