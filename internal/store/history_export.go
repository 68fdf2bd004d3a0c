package store

import (
	"context"
	"database/sql"
	"fmt"

	"parking/internal/reservation"
)

// HistoryEach calls fn with every reservation that matches f, in the history's
// order (reservation_date, then id, descending); f.Limit and f.Offset are ignored.
// The rows are streamed from one query on the read pool, so an export of a million
// reservations holds one row in memory at a time, not the result. fn's error stops
// the walk and is returned.
//
// The plan is History's, without the page bounds: with no search the date index is
// walked in order (no sort, the first row goes out at once); with a search the
// count step finds the matching customers and vehicles first, and the reservations
// are gathered through them and sorted when they are few, or, when they are too
// many to carry, the date index is walked testing each row, streaming in order.
// With entry days (dateFrom/dateTo) the range of the entry-date index is read
// instead of the date index, and sorted before the first row goes out.
func (s Records) HistoryEach(ctx context.Context, f HistoryFilter, fn func(reservation.HistoryRow) error) error {
	h := historyQuery{dialect: s.Dialect(), f: f}
	// The output's joins are aliased apart from rowTest's (c and v), which on
	// PostgreSQL are the search tables.
	const cols = reservationColumns + `,
			oc.full_name, oc.phone, oc.email, ov.license_plate, ov.brand, ov.model, ov.color, ov.type, om.name`
	const joins = `
			JOIN customer oc ON oc.id_customer = r.id_customer
			JOIN vehicle ov ON ov.id_vehicle = r.id_vehicle
			JOIN main_service om ON om.id_main_service = r.id_main_service`
	const order = ` ORDER BY r.reservation_date DESC, r.id_reservation DESC`
	q := &sqlQuery{}
	switch {
	case f.Search == "":
		q.text = `SELECT ` + cols + ` FROM reservation r` + h.rangeIndex() + joins + ` WHERE 1 = 1` + h.filters(q) + order
	default:
		total, err := h.count(ctx, s, nil)
		if err != nil {
			return fmt.Errorf("count history export: %w", err)
		}
		if total == 0 {
			return nil
		}
		if h.customers.ids == nil || h.vehicles.ids == nil {
			// Dense matches: walk the date index, testing each reservation, so the
			// rows stream out in order from the first one found.
			searchJoins, test := h.rowTest(q)
			q.text = `SELECT ` + cols + ` FROM reservation r` + h.rangeIndex() + searchJoins + joins +
				` WHERE (` + test + `)` + h.filters(q) + order
			break
		}
		// Sparse matches: gathered through the matching customers and vehicles,
		// then sorted (they are at most a few per matching id).
		h.f.Limit, h.f.Offset = total, 0
		page, err := h.page(ctx, s, total)
		if err != nil {
			return err
		}
		q = page
		q.text = `SELECT ` + cols + ` FROM (` + page.text + `) page
			JOIN reservation r ON r.id_reservation = page.id_reservation` + joins + order
	}
	rows, err := s.Generated().Query(ctx, q.text, q.args...)
	if err != nil {
		return fmt.Errorf("history export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var hr reservation.HistoryRow
		var phone, email sql.NullString
		r, err := scanReservation(moreColumns{rows, []any{&hr.CustomerName, &phone, &email,
			&hr.LicensePlate, &hr.Brand, &hr.Model, &hr.Color, &hr.VehicleType, &hr.MainServiceName}})
		if err != nil {
			return fmt.Errorf("history export row: %w", err)
		}
		hr.Reservation = r
		setHistoryContact(&hr, phone, email)
		if err := fn(hr); err != nil {
			return err
		}
	}
	return closeRows(rows)
}
