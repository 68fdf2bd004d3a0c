package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/reservation"
)

// The gate (docs/gate.md, migration 0027): the plate-recognition cameras staff
// register, the events they send, and the arrival they mark on a reservation.

// GateDevice is a registered camera; only the hash of its token is stored.
type GateDevice struct {
	ID        int64
	Name      string
	CreatedAt time.Time
}

// GateEvent is one plate a camera read.
type GateEvent struct {
	ID            int64
	DeviceID      int64
	Plate         string // canonical form
	Direction     string // "in" or "out"
	At            time.Time
	Open          bool
	ReservationID *int64
	ReceivedAt    time.Time
}

// InsertDevice stores a camera with the hash of its token.
func (tx GateTx) InsertDevice(ctx context.Context, name, tokenHash string) (GateDevice, error) {
	d := GateDevice{Name: name, CreatedAt: tx.Now}
	err := tx.QueryRow(ctx, `INSERT INTO gate_device (name, token_hash, created_at) VALUES ($1, $2, $3) RETURNING id_device`,
		name, tokenHash, Time(tx.Now)).Scan(&d.ID)
	if err != nil {
		return d, fmt.Errorf("insert gate device: %w", err)
	}
	return d, nil
}

// DeleteDevice removes a camera (its events stay); ErrNotFound if there is none.
func (tx GateTx) DeleteDevice(ctx context.Context, id int64) (GateDevice, error) {
	var d GateDevice
	err := tx.QueryRow(ctx, `DELETE FROM gate_device WHERE id_device = $1 RETURNING id_device, name, created_at`, id).
		Scan(&d.ID, &d.Name, &d.CreatedAt)
	if err != nil {
		return d, fmt.Errorf("delete gate device %d: %w", id, notFound(err))
	}
	return d, nil
}

// Devices lists the cameras, oldest first.
func (s Gate) Devices(ctx context.Context) ([]GateDevice, error) {
	rows, err := s.Query(ctx, `SELECT id_device, name, created_at FROM gate_device ORDER BY id_device`)
	if err != nil {
		return nil, fmt.Errorf("gate devices: %w", err)
	}
	out := []GateDevice{}
	for rows.Next() {
		var d GateDevice
		if err := rows.Scan(&d.ID, &d.Name, &d.CreatedAt); err != nil {
			rows.Close()
			return nil, err
		}
		d.CreatedAt = d.CreatedAt.UTC()
		out = append(out, d)
	}
	return out, closeRows(rows)
}

// DeviceByToken reads the camera whose token has this hash; ErrNotFound if none.
func (s Gate) DeviceByToken(ctx context.Context, tokenHash string) (GateDevice, error) {
	var d GateDevice
	err := s.QueryRow(ctx, `SELECT id_device, name, created_at FROM gate_device WHERE token_hash = $1`, tokenHash).
		Scan(&d.ID, &d.Name, &d.CreatedAt)
	if err != nil {
		return d, fmt.Errorf("gate device: %w", notFound(err))
	}
	return d, nil
}

// RecentEvents counts a camera's events received at or after since, and gives the
// oldest of them (zero when none): the per-camera limit (docs/gate.md#refusals).
func (tx GateTx) RecentEvents(ctx context.Context, device int64, since time.Time) (int, time.Time, error) {
	var n int
	var oldest time.Time
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM gate_event WHERE id_device = $1 AND received_at >= $2`,
		device, Time(since)).Scan(&n)
	if err == nil && n > 0 {
		// Not MIN(): SQLite gives an aggregate of times back as text.
		err = tx.QueryRow(ctx, `SELECT received_at FROM gate_event WHERE id_device = $1 AND received_at >= $2
			ORDER BY received_at LIMIT 1`, device, Time(since)).Scan(&oldest)
	}
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("recent gate events: %w", err)
	}
	return n, oldest.UTC(), nil
}

// InsertEvent keeps one event, received now.
func (tx GateTx) InsertEvent(ctx context.Context, e GateEvent) (GateEvent, error) {
	e.ReceivedAt = tx.Now
	err := tx.QueryRow(ctx, `INSERT INTO gate_event (id_device, plate, direction, at, open, id_reservation, received_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id_event`,
		e.DeviceID, e.Plate, e.Direction, Time(e.At), e.Open, e.ReservationID, Time(tx.Now)).Scan(&e.ID)
	if err != nil {
		return e, fmt.Errorf("insert gate event: %w", err)
	}
	return e, nil
}

// plateReservations reads the reservations of the vehicle with this canonical plate
// that satisfy cond (on r, with $2 and $3), by entry date.
func (tx GateTx) plateReservations(ctx context.Context, plate, cond string, a, b time.Time) ([]reservation.Reservation, error) {
	return reservationList(ctx, tx, "reservations of plate", `SELECT `+reservationColumns+` FROM reservation r
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle
		WHERE v.license_plate = $1 AND `+cond+` ORDER BY r.entry_date, r.id_reservation`, plate, Time(a), Time(b))
}

// Arriving lists the PENDIENTE reservations of the plate whose entry is in [from, to].
func (tx GateTx) Arriving(ctx context.Context, plate string, from, to time.Time) ([]reservation.Reservation, error) {
	return tx.plateReservations(ctx, plate, `r.status = 'PENDIENTE' AND r.entry_date >= $2 AND r.entry_date <= $3`, from, to)
}

// Leaving lists the plate's EN CURSO reservations and those checked out in [from, to].
func (tx GateTx) Leaving(ctx context.Context, plate string, from, to time.Time) ([]reservation.Reservation, error) {
	return tx.plateReservations(ctx, plate,
		`(r.status = 'EN CURSO' OR (r.status = 'FINALIZADA' AND r.checked_out_at >= $2 AND r.checked_out_at <= $3))`, from, to)
}

// MarkArrived sets a PENDIENTE reservation's arrived_at; false when it is no
// longer PENDIENTE.
func (tx GateTx) MarkArrived(ctx context.Context, id int64, at time.Time) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE reservation SET arrived_at = $1 WHERE id_reservation = $2 AND status = 'PENDIENTE'`, Time(at), id)
	if err != nil {
		return false, fmt.Errorf("mark arrived %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Events lists the newest events, at most limit.
func (s Gate) Events(ctx context.Context, limit int) ([]GateEvent, error) {
	rows, err := s.Query(ctx, `SELECT id_event, id_device, plate, direction, at, open, id_reservation, received_at
		FROM gate_event ORDER BY received_at DESC, id_event DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("gate events: %w", err)
	}
	out := []GateEvent{}
	for rows.Next() {
		var e GateEvent
		var res sql.NullInt64
		if err := rows.Scan(&e.ID, &e.DeviceID, &e.Plate, &e.Direction, &e.At, &e.Open, &res, &e.ReceivedAt); err != nil {
			rows.Close()
			return nil, err
		}
		if res.Valid {
			e.ReservationID = &res.Int64
		}
		e.At, e.ReceivedAt = e.At.UTC(), e.ReceivedAt.UTC()
		out = append(out, e)
	}
	return out, closeRows(rows)
}

// PruneEvents deletes the events received before before, in its own transaction.
func (s Gate) PruneEvents(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM gate_event WHERE received_at < $1`, Time(before))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("prune gate events: %w", err)
	}
	return n, nil
}
