// Package storetest gives tests a fresh, migrated database of each dialect: a SQLite
// file in t.TempDir(), and, when PARKING_TEST_POSTGRES_URL is set, a PostgreSQL
// schema of its own that is dropped afterwards. The same test body runs on both.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"parking/internal/clock"
	"parking/internal/clock/clocktest"
	"parking/internal/pricing"
	"parking/internal/store"
)

// EnvPostgres names the variable holding an administrative PostgreSQL URL for tests.
const EnvPostgres = "PARKING_TEST_POSTGRES_URL"

// Dialects are the databases tests run on.
var Dialects = []store.Dialect{store.SQLite, store.Postgres}

// Each runs fn once per database as subtests "sqlite" and "postgres"; the postgres
// one is skipped, saying why, when PARKING_TEST_POSTGRES_URL is not set.
func Each(t *testing.T, fn func(t *testing.T, d store.Dialect)) {
	t.Helper()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			if d == store.Postgres && os.Getenv(EnvPostgres) == "" {
				t.Skip(EnvPostgres + " not set: PostgreSQL variant skipped")
			}
			fn(t, d)
		})
	}
}

// URL returns the database URL of a fresh, empty database of dialect d, removed when
// the test ends.
func URL(tb testing.TB, d store.Dialect) string {
	tb.Helper()
	if d == store.SQLite {
		return "sqlite:" + filepath.Join(tb.TempDir(), "parking.db")
	}
	base := os.Getenv(EnvPostgres)
	if base == "" {
		tb.Skip(EnvPostgres + " not set")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("open postgres: %v", err)
	}
	ctx := context.Background()
	// Extensions live in public, created once under a lock, so that a test schema
	// being dropped never takes them along.
	tx, err := admin.BeginTx(ctx, nil)
	if err != nil {
		tb.Fatalf("postgres: %v", err)
	}
	for _, q := range []string{
		"SELECT pg_advisory_xact_lock(4242)",
		"CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public",
		"CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			tx.Rollback()
			tb.Fatalf("postgres setup %q: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatalf("postgres setup: %v", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema+",public")
	u.RawQuery = q.Encode()
	return u.String()
}

// Open returns a fresh migrated store of dialect d, closed when the test ends. Its
// clock is a fake one stopped at clocktest.Base (see OpenClock).
func Open(tb testing.TB, d store.Dialect) *store.Store {
	tb.Helper()
	s, _ := OpenClock(tb, d)
	return s
}

// OpenClock is Open, also returning the store's clock: a fake stopped at
// clocktest.Base (PARKING_TEST_CLOCK_BASE) that the test sets and advances. Services
// built on the store read the same clock.
func OpenClock(tb testing.TB, d store.Dialect) (*store.Store, *clock.Fake) {
	tb.Helper()
	clk := clocktest.New()
	return OpenURL(tb, URL(tb, d), store.Options{Clock: clk.Now}), clk
}

// OpenURL opens (and migrates) the database at url with opts, closed when the test
// ends; several stores may share one URL, to run the same data under different
// options, or as another process of the service would (give them one clock).
// Without opts.Clock the store runs on a fresh fake clock at clocktest.Base. SQLite
// runs with synchronous=NORMAL unless opts say otherwise: a test database need not
// survive a power cut, and the suite stays fast.
func OpenURL(tb testing.TB, url string, opts store.Options) *store.Store {
	tb.Helper()
	if opts.SQLiteSync == "" {
		opts.SQLiteSync = store.SyncNormal
	}
	if opts.Clock == nil {
		opts.Clock = clocktest.New().Now
	}
	s, err := store.OpenWith(context.Background(), url, opts)
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		tb.Fatalf("migrate: %v", err)
	}
	return s
}

// Catalog seeds st with the default catalog and returns it loaded, as the service
// holds it.
func Catalog(tb testing.TB, st *store.Store) *pricing.Holder {
	tb.Helper()
	ctx := context.Background()
	if _, err := st.Catalog().SeedCatalog(ctx, pricing.Default()); err != nil {
		tb.Fatal(err)
	}
	cat, err := st.Catalog().LoadCatalog(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	h := &pricing.Holder{}
	h.Store(pricing.NewSnapshot(cat))
	return h
}

// OpenCatalog is Open with the default catalog seeded, and the catalog as the
// service holds it.
func OpenCatalog(tb testing.TB, d store.Dialect) (*store.Store, *pricing.Holder) {
	tb.Helper()
	st := Open(tb, d)
	return st, Catalog(tb, st)
}
