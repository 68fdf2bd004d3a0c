package store

import (
	"context"
	"fmt"

	"parking/internal/occupancy"
)

// claimSQLite is SQLite's path for a new stay (OccupancyChange.fast): one statement
// creates the stay's missing day rows and adds one to each (SQLite has one row a
// day), and returns each day's count with the sellable limit when c asks for it, read
// in the same statement. The single writer runs one transaction at a time, so the
// counts it returns are final until the commit: the checked days over the limit are
// the answer, as the exact path gives (docs/capacity.md#what-counts).
func (tx OccupancyTx) claimSQLite(ctx context.Context, c OccupancyChange) ([]occupancy.Day, error) {
	sp := c.Claim[0]
	limit := `CAST($3 AS INTEGER)`
	args := []any{sp.First, sp.Last, c.Limit}
	if c.SellableLimit {
		// settings.Facility.SellableLimit; no settings row: no limit (settings.Defaults(0)).
		limit = `COALESCE((SELECT CASE WHEN sellable > 0 THEN sellable ELSE capacity END FROM facility_settings WHERE id = 1), 0)`
		args = args[:2]
	}
	rows, err := tx.Query(ctx, `WITH RECURSIVE d(x) AS (SELECT CAST($1 AS INTEGER) UNION ALL SELECT x + 1 FROM d WHERE x < CAST($2 AS INTEGER))
		INSERT INTO occupancy (day, stripe, booked) SELECT x, 0, 1 FROM d WHERE true
		ON CONFLICT (day, stripe) DO UPDATE SET booked = booked + 1
		RETURNING day, booked, `+limit, args...)
	if err != nil {
		return nil, fmt.Errorf("claim occupancy: %w", err)
	}
	counts := map[occupancy.Day]int{}
	for rows.Next() {
		var d occupancy.Day
		var n int
		if err := rows.Scan(&d, &n, &c.Limit); err != nil {
			rows.Close()
			return nil, fmt.Errorf("claim occupancy: %w", err)
		}
		counts[d] = n
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("claim occupancy: %w", err)
	}
	if c.Limit <= 0 {
		return nil, nil
	}
	return overLimit(c, counts, 0), nil
}
