package store

import (
	"context"
	"database/sql"
	"fmt"

	"parking/internal/database"
	"parking/internal/reservation"
)

// closeRows closes rows and returns the iteration error, if any.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// nullString scans a nullable text column into an optional string.
type nullString struct{ sql.NullString }

func (n nullString) ptr() *string {
	if !n.Valid {
		return nil
	}
	s := n.String
	return &s
}

// eachRow runs query on q and hands scan each row, until the rows end or scan
// fails; the rows are closed either way. A failed query is wrapped with what.
func eachRow(ctx context.Context, q database.Runner, what string, scan func(*sql.Rows) error, query string, args ...any) error {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for rows.Next() {
		if err := scan(rows); err != nil {
			rows.Close()
			return err
		}
	}
	return closeRows(rows)
}

// listRows runs query on q and reads every row with scan; a failure is wrapped
// with what.
func listRows[T any](ctx context.Context, q database.Runner, what string, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := eachRow(ctx, q, what, func(rows *sql.Rows) error {
		v, err := scan(rows)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
		return nil
	}, query, args...)
	return out, err
}

// reservationList runs query, which selects reservationColumns of reservation r, on q
// and reads every row; a failure is wrapped with what.
func reservationList(ctx context.Context, q database.Runner, what, query string, args ...any) ([]reservation.Reservation, error) {
	return listRows(ctx, q, what, scanReservation, query, args...)
}
