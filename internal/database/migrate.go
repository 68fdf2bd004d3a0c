package database

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
)

//go:embed migrations
var migrationFiles embed.FS

// migrationLockKey is an arbitrary constant for pg_advisory_lock, so that several
// instances starting at once migrate one after the other.
const migrationLockKey = 7_340_120_551

// Migrate applies, in name order, every embedded migration of this dialect not yet
// recorded in schema_migrations; each file runs in its own transaction.
func (s *Engine) Migrate(ctx context.Context) error {
	names, err := MigrationNames(s.dialect)
	if err != nil {
		return err
	}
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if s.dialect == Postgres {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockKey); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockKey)
	}
	ts := "DATETIME"
	if s.dialect == Postgres {
		ts = "TIMESTAMPTZ"
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at `+ts+` NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	applied := map[string]bool{}
	rows, err := conn.QueryContext(ctx, "SELECT name FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("migrate: read schema_migrations: %w", err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		applied[n] = true
	}
	rows.Close()
	for _, name := range names {
		if applied[name] {
			continue
		}
		body, err := migrationFiles.ReadFile("migrations/" + string(s.dialect) + "/" + name)
		if err != nil {
			return err
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)", name, s.now()); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s: record: %w", name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate %s: commit: %w", name, err)
		}
	}
	return nil
}

// MigrationNames lists the embedded migration files of a dialect in the order they run.
func MigrationNames(d Dialect) ([]string, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations/"+string(d))
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names, nil
}
