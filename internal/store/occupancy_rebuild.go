package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"parking/internal/occupancy"
)

// LedgeredStays calls fn with every active stay that has an exit: what the ledger
// counts. Inside the transaction, so a rebuild reads the reservations it locked.
func (tx OccupancyTx) LedgeredStays(ctx context.Context, fn func(occupancy.Stay)) error {
	rows, err := tx.Query(ctx, `SELECT entry_date, exit_date, status FROM reservation
		WHERE status IN ('PENDIENTE', 'EN CURSO') AND exit_date IS NOT NULL`)
	if err != nil {
		return fmt.Errorf("stays: %w", err)
	}
	for rows.Next() {
		st, err := scanStay(rows)
		if err != nil {
			rows.Close()
			return err
		}
		fn(st)
	}
	return closeRows(rows)
}

// LockOccupancyTable makes the transaction the only writer of the ledger until it
// ends (PostgreSQL; SQLite has one writer anyway): a rebuild takes it before reading
// the reservations, so a booking either committed before (and is read) or waits.
func (tx OccupancyTx) LockOccupancyTable(ctx context.Context) error {
	if tx.Dialect() != Postgres {
		return nil
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE occupancy IN EXCLUSIVE MODE`); err != nil {
		return fmt.Errorf("lock occupancy: %w", err)
	}
	return nil
}

// ReplaceOccupancy makes the ledger exactly counts and records that it was built.
func (tx OccupancyTx) ReplaceOccupancy(ctx context.Context, counts map[occupancy.Day]int) error {
	if _, err := tx.Exec(ctx, `DELETE FROM occupancy`); err != nil {
		return fmt.Errorf("clear occupancy: %w", err)
	}
	days := make([]occupancy.Day, 0, len(counts))
	for d, n := range counts {
		if n != 0 {
			days = append(days, d)
		}
	}
	slices.Sort(days)
	rows := make([][]any, len(days))
	for i, d := range days {
		rows[i] = []any{int64(d), 0, counts[d]} // stripe 0 holds the day's count
	}
	if err := tx.BulkInsert(ctx, "occupancy", []string{"day", "stripe", "booked"}, rows); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO occupancy_state (id, built_at) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET built_at = excluded.built_at`, tx.Now); err != nil {
		return fmt.Errorf("record occupancy build: %w", err)
	}
	return nil
}

// OccupancyBuilt reports whether the ledger has been built from the reservations.
func (s Occupancy) OccupancyBuilt(ctx context.Context) (bool, error) {
	var n int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM occupancy_state`).Scan(&n); err != nil {
		return false, fmt.Errorf("occupancy state: %w", err)
	}
	return n > 0, nil
}

// SetCapacityOverride records that staff accepted the reservation over the capacity.
func (tx OccupancyTx) SetCapacityOverride(ctx context.Context, id int64) error {
	if _, err := tx.Exec(ctx, `UPDATE reservation SET capacity_override_at = $2 WHERE id_reservation = $1`, id, tx.Now); err != nil {
		return fmt.Errorf("record capacity override of %d: %w", id, err)
	}
	return nil
}

// RebuildOccupancy recomputes the ledger from the reservations (`parking occupancy
// rebuild`, and at start on a database whose ledger was never built), in one
// transaction that locks the ledger first; loc is the facility's zone (its days). It
// returns how many days had a count other than the recount.
func (s Occupancy) RebuildOccupancy(ctx context.Context, loc *time.Location) (changed int, err error) {
	err = inTx(ctx, s.Engine, func(tx *Tx) error {
		if err := tx.Occupancy().LockOccupancyTable(ctx); err != nil {
			return err
		}
		want, err := tx.Occupancy().recount(ctx, loc)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT day, SUM(booked) FROM occupancy GROUP BY day HAVING SUM(booked) <> 0`)
		if err != nil {
			return fmt.Errorf("occupancy ledger: %w", err)
		}
		have, err := scanCounts(rows)
		if err != nil {
			return err
		}
		changed = diffCounts(have, want)
		return tx.Occupancy().ReplaceOccupancy(ctx, want)
	})
	return changed, err
}

// RecountOccupancy is what the ledger should hold, counted from the reservations
// (tests compare it with OccupancyLedger).
func (s Occupancy) RecountOccupancy(ctx context.Context, loc *time.Location) (map[occupancy.Day]int, error) {
	var out map[occupancy.Day]int
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		var err error
		out, err = tx.Occupancy().recount(ctx, loc)
		return err
	})
	return out, err
}

func (tx OccupancyTx) recount(ctx context.Context, loc *time.Location) (map[occupancy.Day]int, error) {
	// A difference array over the days: +1 at each entry day, −1 after each exit day.
	delta := map[occupancy.Day]int{}
	err := tx.LedgeredStays(ctx, func(st occupancy.Stay) {
		if sp := occupancy.Ledgered(st, loc); !sp.Empty() {
			delta[sp.First]++
			delta[sp.Last+1]--
		}
	})
	if err != nil {
		return nil, err
	}
	days := make([]occupancy.Day, 0, len(delta))
	for d := range delta {
		days = append(days, d)
	}
	slices.Sort(days)
	out := map[occupancy.Day]int{}
	n := 0
	for i, d := range days {
		n += delta[d]
		if n == 0 || i+1 == len(days) {
			continue
		}
		for x := d; x < days[i+1]; x++ {
			out[x] = n
		}
	}
	return out, nil
}

// diffCounts counts the days where a and b differ (a missing day is 0).
func diffCounts(a, b map[occupancy.Day]int) int {
	n := 0
	for d, v := range a {
		if b[d] != v {
			n++
		}
	}
	for d, v := range b {
		if _, ok := a[d]; !ok && v != 0 {
			n++
		}
	}
	return n
}

// CapacityOverrideAt is when staff accepted reservation id over the capacity (nil:
// never).
func (s Occupancy) CapacityOverrideAt(ctx context.Context, id int64) (*time.Time, error) {
	var at sql.NullTime
	if err := s.QueryRow(ctx, `SELECT capacity_override_at FROM reservation WHERE id_reservation = $1`, id).Scan(&at); err != nil {
		return nil, fmt.Errorf("capacity override of %d: %w", id, notFound(err))
	}
	if !at.Valid {
		return nil, nil
	}
	t := at.Time.UTC()
	return &t, nil
}
