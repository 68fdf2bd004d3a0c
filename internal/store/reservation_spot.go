package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"parking/internal/database"
)

// Spots are physical (issue 4): a spot cannot be held by two reservations that are
// not terminal and whose stays [entry, exit) overlap; an open exit overlaps
// everything after its entry. PostgreSQL enforces it with the exclusion constraint
// reservation_spot_no_overlap (migration 0003); SQLite has one writer, so the check
// below, made inside the write transaction, is enough there.

// LockSpot serialises, until the transaction ends, the writers that assign spot, so
// that SpotConflict followed by the write is race-free on PostgreSQL as well (two
// transactions checking the same free spot at once would otherwise both see it
// free, and the loser would only learn from the constraint, without the name of
// the other reservation). SQLite write transactions are already one at a time.
func (tx ReservationsTx) LockSpot(ctx context.Context, spot string) error {
	if tx.Dialect() != Postgres || spot == "" {
		return nil
	}
	// The key space is shared with nothing else of ours but migrations' single
	// bigint key; hashtextextended gives a 64-bit key, the namespace string keeps
	// it apart from other uses.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('parking-spot:' || $1, 0))`, spot); err != nil {
		return fmt.Errorf("lock spot %s: %w", spot, err)
	}
	return nil
}

// SpotHolder is the reservation that already holds a spot over an overlapping stay.
type SpotHolder struct {
	ID    int64
	Entry time.Time
	Exit  *time.Time
}

// SpotConflict returns the earliest reservation other than exclude that is not
// terminal, holds spot, and whose stay overlaps [entry, exit) (exit nil: open);
// ErrNotFound when the spot is free over that stay.
func (tx ReservationsTx) SpotConflict(ctx context.Context, spot string, entry time.Time, exit *time.Time, exclude int64) (SpotHolder, error) {
	return spotConflict(ctx, tx, spot, entry, exit, exclude)
}

// SpotConflict is the same outside a transaction, used to name the other
// reservation after the database refused a write (SQLSTATE 23P01).
func (s Reservations) SpotConflict(ctx context.Context, spot string, entry time.Time, exit *time.Time, exclude int64) (SpotHolder, error) {
	return spotConflict(ctx, s.Engine, spot, entry, exit, exclude)
}

func spotConflict(ctx context.Context, q database.Runner, spot string, entry time.Time, exit *time.Time, exclude int64) (SpotHolder, error) {
	// Overlap of [a1, a2) and [b1, b2): a1 < b2 and b1 < a2, where a NULL end is +∞.
	// Two texts rather than "$4 IS NULL OR …", so each is a plain index range on
	// reservation_spot (cod_parking_spot, entry_date).
	query := `SELECT id_reservation, entry_date, exit_date FROM reservation
		WHERE cod_parking_spot = $1 AND status IN ('PENDIENTE', 'EN CURSO') AND id_reservation <> $2
		  AND (exit_date IS NULL OR exit_date > $3)`
	args := []any{spot, exclude, Time(entry)}
	if exit != nil {
		query += ` AND entry_date < $4`
		args = append(args, Time(*exit))
	}
	query += ` ORDER BY entry_date, id_reservation LIMIT 1`
	var h SpotHolder
	var out sql.NullTime
	err := q.QueryRow(ctx, query, args...).Scan(&h.ID, &h.Entry, &out)
	if errors.Is(err, sql.ErrNoRows) {
		return h, ErrNotFound
	}
	if err != nil {
		return h, fmt.Errorf("check spot %s: %w", spot, err)
	}
	h.Entry = h.Entry.UTC()
	h.Exit = timePtr(out)
	return h, nil
}

// timePtr turns a nullable timestamp into an optional UTC time.
func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}
