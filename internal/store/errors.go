package store

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is returned when a row asked for by key does not exist.
var ErrNotFound = errors.New("not found")

// IsUniqueViolation reports whether err is a unique-constraint violation on either database.
func IsUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return lite.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || lite.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsExclusionViolation reports a PostgreSQL exclusion-constraint violation (23P01).
func IsExclusionViolation(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "23P01"
}

// IsCheckViolation reports whether err is a CHECK-constraint violation on either database.
func IsCheckViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23514"
	}
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return lite.Code() == sqlite3.SQLITE_CONSTRAINT_CHECK
	}
	return false
}

// ConstraintName returns the name of the violated constraint where the driver tells it.
func ConstraintName(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.ConstraintName
	}
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return lite.Error()
	}
	return ""
}

// noRows reports whether err says a query found no row.
func noRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func notFound(err error) error {
	if noRows(err) {
		return ErrNotFound
	}
	return err
}

// likePattern escapes LIKE wildcards in user input and wraps it for a
// case-insensitive "contains" match with ESCAPE '\'.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + strings.ToLower(r.Replace(s)) + "%"
}
