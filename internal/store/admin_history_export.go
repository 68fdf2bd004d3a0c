package store

import (
	"context"
	"database/sql"
	"fmt"
)

// HistoryEach calls fn with every reservation that matches f, in the history's
// order (reservation_date, then id, descending); f.Limit and f.Offset are ignored.
// The rows are streamed from one query on the read pool, so an export of a million
// reservations holds one row in memory at a time, not the result. fn's error stops
// the walk and is returned.
//
// The plan is History's, without the page bounds: with no search the date index is
// walked in order (no sort); with a search the count step finds the matching
// customers and vehicles first and the reservations are gathered through them, or,
// when they are too many to carry, the date index is walked testing each row.
func (s *Store) HistoryEach(ctx context.Context, f HistoryFilter, fn func(HistoryRow) error) error {
	h := historyQuery{dialect: s.dialect, f: f}
	const cols = reservationColumns + `,
			c.full_name, c.phone, c.email, v.license_plate, v.brand, v.model, v.color, v.type, m.name`
	const order = ` ORDER BY r.reservation_date DESC, r.id_reservation DESC`
	q := &sqlQuery{}
	if f.Search == "" {
		q.text = `SELECT ` + cols + ` FROM reservation r` + h.dateIndex() + `
			JOIN customer c ON c.id_customer = r.id_customer
			JOIN vehicle v ON v.id_vehicle = r.id_vehicle
			JOIN main_service m ON m.id_main_service = r.id_main_service
			WHERE 1 = 1` + h.filters(q) + order
	} else {
		total, err := h.count(ctx, s, nil)
		if err != nil {
			return fmt.Errorf("count history export: %w", err)
		}
		if total == 0 {
			return nil
		}
		h.f.Limit, h.f.Offset = total, 0
		page, err := h.page(ctx, s, total)
		if err != nil {
			return err
		}
		q = page
		q.text = `SELECT ` + cols + ` FROM (` + page.text + `) page
			JOIN reservation r ON r.id_reservation = page.id_reservation
			JOIN customer c ON c.id_customer = r.id_customer
			JOIN vehicle v ON v.id_vehicle = r.id_vehicle
			JOIN main_service m ON m.id_main_service = r.id_main_service` + order
	}
	rows, err := s.read.QueryContext(ctx, q.text, q.args...)
	if err != nil {
		return fmt.Errorf("history export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var hr HistoryRow
		var phone, email sql.NullString
		r, err := scanReservation(moreColumns{rows, []any{&hr.CustomerName, &phone, &email,
			&hr.LicensePlate, &hr.Brand, &hr.Model, &hr.Color, &hr.VehicleType, &hr.MainServiceName}})
		if err != nil {
			return fmt.Errorf("history export row: %w", err)
		}
		hr.Reservation = r
		if phone.Valid {
			hr.Phone = &phone.String
		}
		if email.Valid {
			hr.Email = &email.String
		}
		if err := fn(hr); err != nil {
			return err
		}
	}
	return closeRows(rows)
}
