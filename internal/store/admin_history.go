package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"parking/internal/reservation"
)

// HistoryFilter selects reservations for the administrators' history
// (GET /admin/history). Zero values do not filter.
type HistoryFilter struct {
	Status reservation.Status
	// Search matches part of the customer's name or of the plate, ignoring case.
	// It is data, never SQL or a LIKE pattern: %, _ and \ match themselves.
	Search string
	// From and To bound reservation_date (the creation time): From <= it < To.
	From, To time.Time
	Limit    int
	Offset   int
}

// HistoryRow is one reservation of the history with what the list shows of its
// customer, vehicle and main service.
type HistoryRow struct {
	Reservation     reservation.Reservation
	CustomerName    string
	Phone           *string
	Email           *string
	LicensePlate    string
	Brand           string
	Model           string
	Color           string
	VehicleType     string
	MainServiceName string
}

// History returns one page of the reservations that match f, newest first
// (reservation_date, then id, descending), and how many match in all.
//
// The search is the costly part on a large database. The customers and vehicles
// whose name or plate contains the text are found first, by their own index
// (PostgreSQL: pg_trgm GIN indexes; SQLite: FTS5 trigram tables, migration 0003),
// then their reservations by reservation_customer / reservation_vehicle. The page and
// the count read the same candidate set.
func (s *Store) History(ctx context.Context, f HistoryFilter) ([]HistoryRow, int, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.Status != "" {
		where = append(where, "r.status = "+arg(string(f.Status)))
	}
	if !f.From.IsZero() {
		where = append(where, "r.reservation_date >= "+arg(Time(f.From)))
	}
	if !f.To.IsZero() {
		where = append(where, "r.reservation_date < "+arg(Time(f.To)))
	}
	if f.Search != "" {
		where = append(where, s.searchCondition(f.Search, arg))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}

	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM reservation r`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count history: %w", err)
	}
	out := []HistoryRow{}
	if total == 0 || f.Offset >= total {
		return out, total, nil
	}
	limit, offset := arg(f.Limit), arg(f.Offset)
	rows, err := s.read.QueryContext(ctx, `SELECT `+reservationColumns+`,
			c.full_name, c.phone, c.email, v.license_plate, v.brand, v.model, v.color, v.type, m.name
		FROM (SELECT r.id_reservation FROM reservation r`+cond+`
		      ORDER BY r.reservation_date DESC, r.id_reservation DESC LIMIT `+limit+` OFFSET `+offset+`) page
		JOIN reservation r ON r.id_reservation = page.id_reservation
		JOIN customer c ON c.id_customer = r.id_customer
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle
		JOIN main_service m ON m.id_main_service = r.id_main_service
		ORDER BY r.reservation_date DESC, r.id_reservation DESC`, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("history page: %w", err)
	}
	for rows.Next() {
		var h HistoryRow
		var phone, email sql.NullString
		r, err := scanReservation(moreColumns{rows, []any{&h.CustomerName, &phone, &email,
			&h.LicensePlate, &h.Brand, &h.Model, &h.Color, &h.VehicleType, &h.MainServiceName}})
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		h.Reservation = r
		if phone.Valid {
			h.Phone = &phone.String
		}
		if email.Valid {
			h.Email = &email.String
		}
		out = append(out, h)
	}
	return out, total, closeRows(rows)
}

// searchCondition is the SQL condition "the reservation's customer name or plate
// contains text", for each dialect.
func (s *Store) searchCondition(text string, arg func(any) string) string {
	p := arg(likePattern(text))
	if s.dialect == Postgres {
		// ILIKE with a pg_trgm GIN index on each column: the planner reads the
		// matching customers and vehicles from the indexes, then their reservations.
		return `(r.id_customer IN (SELECT id_customer FROM customer WHERE full_name ILIKE ` + p + ` ESCAPE '\')
			OR r.id_vehicle IN (SELECT id_vehicle FROM vehicle WHERE license_plate ILIKE ` + p + ` ESCAPE '\'))`
	}
	return `(r.id_customer IN (SELECT id_customer FROM customer WHERE lower(full_name) LIKE ` + p + ` ESCAPE '\')
		OR r.id_vehicle IN (SELECT id_vehicle FROM vehicle WHERE lower(license_plate) LIKE ` + p + ` ESCAPE '\'))`
}
