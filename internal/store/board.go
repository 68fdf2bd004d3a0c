package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/reservation"
)

// BoardItem is one line of the administrators' daily board (spec, GET /api/reservations:
// reservation item).
type BoardItem struct {
	ID           int64
	Entry        time.Time
	Exit         *time.Time
	Status       reservation.Status
	LicensePlate string
	Brand        string
	Color        string
	CustomerName string
	Phone        string
	ServiceName  string
}

// boardQuery lists the reservations entering in [$1, $2) (kind 0) and those leaving
// in it (kind 1), in one statement so both lists come from the same snapshot. Each
// branch is a range on a plain indexed column (reservation_entry, and the partial
// reservation_exit, whose "exit_date IS NOT NULL" the range implies), never a
// function of the column, so the database reads only that day's index entries.
// A null exit_date never satisfies the range, so it never lands in the exits.
const boardQuery = `
SELECT 0, r.id_reservation, r.entry_date, r.exit_date, r.status,
       v.license_plate, v.brand, v.color, c.full_name, c.phone, m.name
FROM reservation r
JOIN vehicle v ON v.id_vehicle = r.id_vehicle
JOIN customer c ON c.id_customer = r.id_customer
JOIN main_service m ON m.id_main_service = r.id_main_service
WHERE r.entry_date >= $1 AND r.entry_date < $2
UNION ALL
SELECT 1, r.id_reservation, r.entry_date, r.exit_date, r.status,
       v.license_plate, v.brand, v.color, c.full_name, c.phone, m.name
FROM reservation r
JOIN vehicle v ON v.id_vehicle = r.id_vehicle
JOIN customer c ON c.id_customer = r.id_customer
JOIN main_service m ON m.id_main_service = r.id_main_service
WHERE r.exit_date >= $1 AND r.exit_date < $2
ORDER BY 3, 2`

// BoardQuery is the SQL text of DayMovements, for EXPLAIN in benchmarks.
const BoardQuery = boardQuery

// DayMovements returns the reservations whose entry date falls in [from, to) and
// those whose exit date does, each list ordered by entry date ascending (then id,
// so that equal entry times keep a stable order). A reservation that both enters
// and leaves in the range is in both lists.
func (s *Store) DayMovements(ctx context.Context, from, to time.Time) (entries, exits []BoardItem, err error) {
	rows, err := s.read.QueryContext(ctx, boardQuery, Time(from), Time(to))
	if err != nil {
		return nil, nil, fmt.Errorf("day movements: %w", err)
	}
	entries, exits = []BoardItem{}, []BoardItem{}
	for rows.Next() {
		var it BoardItem
		var kind int
		var exit sql.NullTime
		var status string
		var phone nullString
		if err := rows.Scan(&kind, &it.ID, &it.Entry, &exit, &status,
			&it.LicensePlate, &it.Brand, &it.Color, &it.CustomerName, &phone, &it.ServiceName); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("day movements: %w", err)
		}
		it.Entry = it.Entry.UTC()
		if exit.Valid {
			t := exit.Time.UTC()
			it.Exit = &t
		}
		it.Status = reservation.Status(status)
		it.Phone = phone.String
		if kind == 0 {
			entries = append(entries, it)
		} else {
			exits = append(exits, it)
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, nil, fmt.Errorf("day movements: %w", err)
	}
	return entries, exits, nil
}
