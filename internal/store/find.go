package store

import (
	"context"
	"fmt"
	"strings"

	"parking/internal/reservation"
)

// FindKeys are what a typed search may name, each in its stored form; empty (0)
// when the text does not read as one (docs/admin.md#find).
type FindKeys struct {
	Reference string
	Plate     string
	Phone     string // E.164: the customer's phone
	ID        int64
}

// FoundReservation is one reservation a search named.
type FoundReservation struct {
	ID     int64
	Status reservation.Status
}

// Find returns up to limit reservations the keys name, active (PENDIENTE or EN
// CURSO) ones only when active is set, newest first. Each key reads its own
// index (reference, plate, customer phone, primary key).
func (s Records) Find(ctx context.Context, k FindKeys, active bool, limit int) ([]FoundReservation, error) {
	q := &sqlQuery{}
	var parts []string
	cond := ""
	if active {
		cond = ` AND r.status IN ('PENDIENTE', 'EN CURSO')`
	}
	if k.Reference != "" {
		parts = append(parts, `SELECT r.id_reservation, r.status, r.reservation_date FROM reservation r WHERE r.reference = `+q.arg(k.Reference)+cond)
	}
	if k.Plate != "" {
		parts = append(parts, `SELECT r.id_reservation, r.status, r.reservation_date FROM reservation r
			JOIN vehicle v ON v.id_vehicle = r.id_vehicle WHERE v.license_plate = `+q.arg(k.Plate)+cond)
	}
	if k.Phone != "" {
		parts = append(parts, `SELECT r.id_reservation, r.status, r.reservation_date FROM reservation r
			JOIN customer c ON c.id_customer = r.id_customer WHERE c.phone = `+q.arg(k.Phone)+cond)
	}
	if k.ID > 0 {
		parts = append(parts, `SELECT r.id_reservation, r.status, r.reservation_date FROM reservation r WHERE r.id_reservation = `+q.arg(k.ID)+cond)
	}
	out := []FoundReservation{}
	if len(parts) == 0 {
		return out, nil
	}
	rows, err := s.Query(ctx, `SELECT id_reservation, status FROM (`+strings.Join(parts, " UNION ")+`) m
		ORDER BY reservation_date DESC, id_reservation DESC LIMIT `+q.arg(limit), q.args...)
	if err != nil {
		return nil, fmt.Errorf("find reservations: %w", err)
	}
	for rows.Next() {
		var f FoundReservation
		var st string
		if err := rows.Scan(&f.ID, &st); err != nil {
			rows.Close()
			return nil, err
		}
		f.Status = reservation.Status(st)
		out = append(out, f)
	}
	return out, closeRows(rows)
}
