package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/reservation"
)

// ParkingBoard lists the reservations that hold a spot now or today: every EN CURSO
// one (the vehicle is in), and every PENDIENTE one with a spot whose stay overlaps
// the day [dayStart, dayEnd). Ordered by spot, then entry.
func (s Records) ParkingBoard(ctx context.Context, dayStart, dayEnd time.Time) ([]reservation.ParkingRow, error) {
	// Both branches read the partial index reservation_spot, which holds only the
	// spot-holding reservations that are not terminal: a small set however large
	// the history grows.
	rows, err := s.Query(ctx, `SELECT `+reservationColumns+`,
			c.full_name, c.phone, v.license_plate, v.brand, v.model, v.color, v.type
		FROM reservation r
		JOIN customer c ON c.id_customer = r.id_customer
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle
		WHERE r.cod_parking_spot IS NOT NULL AND r.status IN ('PENDIENTE', 'EN CURSO')
		  AND (r.status = 'EN CURSO' OR (r.entry_date < $2 AND (r.exit_date IS NULL OR r.exit_date > $1)))
		ORDER BY r.cod_parking_spot, r.entry_date, r.id_reservation`, Time(dayStart), Time(dayEnd))
	if err != nil {
		return nil, fmt.Errorf("parking board: %w", err)
	}
	out := []reservation.ParkingRow{}
	for rows.Next() {
		var p reservation.ParkingRow
		var phone sql.NullString
		r, err := scanReservation(moreColumns{rows, []any{&p.CustomerName, &phone, &p.LicensePlate, &p.Brand, &p.Model, &p.Color, &p.VehicleType}})
		if err != nil {
			rows.Close()
			return nil, err
		}
		p.Reservation = r
		c := r.ContactOr(reservation.Contact{FullName: p.CustomerName, Phone: nullable(phone)})
		p.CustomerName, p.Phone = c.FullName, c.Phone
		out = append(out, p)
	}
	return out, closeRows(rows)
}

// moreColumns scans a row that has the reservation columns followed by others:
// scanReservation fills the first, extra the rest.
type moreColumns struct {
	rows  *sql.Rows
	extra []any
}

func (m moreColumns) Scan(dest ...any) error { return m.rows.Scan(append(dest, m.extra...)...) }
