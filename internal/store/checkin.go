package store

// Check-in: the reservation moves to EN CURSO with the moment and the keys, and the
// hand-over record of the entry (mileage, fuel, damage) is written in the same
// transaction (booking/transitions.go; docs/reservations.md#transitions, docs/photos.md).

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/reservation"
)

// MarkStarted moves a PENDIENTE reservation that holds a spot to EN CURSO
// (docs/reservations.md#transitions: administrator start), recording the moment of
// check-in (tx.Now) and whether the keys were handed over.
func (tx ReservationsTx) MarkStarted(ctx context.Context, id int64, keys bool) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE reservation SET status = 'EN CURSO', updated_at = $2, checked_in_at = $2, keys_handed_over = $3
		WHERE id_reservation = $1 AND status = 'PENDIENTE' AND cod_parking_spot IS NOT NULL`, id, tx.Now, keys)
	return applied(res, err, "start reservation %d", id)
}

// SaveHandover records (or replaces) the hand-over of h.Phase on a reservation,
// at tx.Now.
func (tx HandoverTx) SaveHandover(ctx context.Context, reservationID int64, h reservation.Handover) error {
	if _, err := tx.Exec(ctx, `INSERT INTO reservation_handover (id_reservation, phase, mileage_km, fuel_percent, damage_notes, recorded_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (id_reservation, phase) DO UPDATE SET mileage_km = excluded.mileage_km, fuel_percent = excluded.fuel_percent,
			damage_notes = excluded.damage_notes, recorded_at = excluded.recorded_at`,
		reservationID, h.Phase, h.MileageKm, h.FuelPercent, h.DamageNotes, tx.Now); err != nil {
		return fmt.Errorf("save hand-over of %d: %w", reservationID, err)
	}
	return nil
}

// Handovers lists a reservation's hand-over records, the start's first.
func (s Handover) Handovers(ctx context.Context, reservationID int64) ([]reservation.Handover, error) {
	rows, err := s.Query(ctx, `SELECT phase, mileage_km, fuel_percent, damage_notes, recorded_at
		FROM reservation_handover WHERE id_reservation = $1 ORDER BY CASE phase WHEN 'entrada' THEN 0 ELSE 1 END`, reservationID)
	if err != nil {
		return nil, fmt.Errorf("hand-overs of %d: %w", reservationID, err)
	}
	var out []reservation.Handover
	for rows.Next() {
		var h reservation.Handover
		var km, fuel sql.NullInt64
		var notes sql.NullString
		if err := rows.Scan(&h.Phase, &km, &fuel, &notes, &h.RecordedAt); err != nil {
			rows.Close()
			return nil, err
		}
		if km.Valid {
			v := int(km.Int64)
			h.MileageKm = &v
		}
		if fuel.Valid {
			v := int(fuel.Int64)
			h.FuelPercent = &v
		}
		if notes.Valid {
			h.DamageNotes = &notes.String
		}
		h.RecordedAt = h.RecordedAt.UTC()
		out = append(out, h)
	}
	return out, closeRows(rows)
}

// AssignSpot gives a PENDIENTE reservation its spot at check-in, inside the start's
// transaction (the caller checked the spot is free over its stay).
func (tx ReservationsTx) AssignSpot(ctx context.Context, id int64, spot string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE reservation SET cod_parking_spot = $2, updated_at = $3
		WHERE id_reservation = $1 AND status = 'PENDIENTE'`, id, spot, tx.Now)
	return applied(res, err, "assign spot to reservation %d", id)
}

// FreeSpots lists up to limit spot codes used since since that no reservation
// other than id, not terminal, holds over [entry, exit) (an open exit: to the end
// of time), in code order: the check-in dialog's suggestions (docs/reservations.md#parking-spot).
// The codes in use are walked one by one, in order, in reservation_spot_used (spot,
// entry: every stay with a spot), a seek each for the next code and for its last
// entry, and each code's holders are looked up in reservation_spot (the pending and
// running stays only, spotHolders). The walk stops at the limit-th free code; a GROUP BY
// read every stay of every code before it, the whole index when the car park is full
// (docs/performance.md#free-spots-from-their-own-index).
func (s Records) FreeSpots(ctx context.Context, id int64, entry time.Time, exit *time.Time, since time.Time, limit int) ([]string, error) {
	end := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
	if exit != nil {
		end = *exit
	}
	rows, err := s.Query(ctx, `WITH RECURSIVE codes (code) AS (
			SELECT MIN(cod_parking_spot) FROM reservation WHERE cod_parking_spot > ''
			UNION ALL
			SELECT (SELECT MIN(n.cod_parking_spot) FROM reservation n WHERE n.cod_parking_spot > codes.code)
			FROM codes WHERE codes.code IS NOT NULL)
		SELECT code FROM codes
		WHERE code IS NOT NULL
		  AND (SELECT MAX(u.entry_date) FROM reservation u WHERE u.cod_parking_spot = codes.code) >= $4
		  AND NOT EXISTS (SELECT 1 FROM `+spotHolders(s.Dialect(), "o")+` WHERE o.cod_parking_spot = codes.code
			AND o.status IN ('PENDIENTE', 'EN CURSO') AND o.id_reservation <> $1
			AND o.entry_date < $3 AND (o.exit_date IS NULL OR o.exit_date > $2))
		LIMIT $5`, id, Time(entry), Time(end), Time(since), limit)
	if err != nil {
		return nil, fmt.Errorf("free spots for %d: %w", id, err)
	}
	out := []string{}
	for rows.Next() {
		var code string
		if err := rows.Scan(&code); err != nil {
			rows.Close()
			return nil, fmt.Errorf("free spots for %d: %w", id, err)
		}
		out = append(out, code)
	}
	return out, closeRows(rows)
}
