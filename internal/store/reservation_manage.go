package store

import (
	"context"
	"fmt"

	"parking/internal/reservation"
)

// maxReferenceDraws bounds the redraws of a colliding booking reference: with 2^40
// references a second collision in a row means something else is wrong.
const maxReferenceDraws = 8

// AssignReferences gives a booking reference (docs/manage-booking.md#booking-reference) to every reservation
// stored before references existed (migration 0012 adds the column empty: SQL
// cannot draw cryptographic randomness portably). It runs at start, in batches;
// a batch that meets a collision is drawn again. It returns how many rows it gave
// a reference; a later start finds nothing left to do.
func (s Reservations) AssignReferences(ctx context.Context) (int, error) {
	done := 0
	for {
		var ids []int64
		rows, err := s.Query(ctx, `SELECT id_reservation FROM reservation WHERE reference IS NULL
			ORDER BY id_reservation LIMIT 500`)
		if err != nil {
			return done, fmt.Errorf("reservations without a reference: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return done, err
			}
			ids = append(ids, id)
		}
		if err := closeRows(rows); err != nil {
			return done, err
		}
		if len(ids) == 0 {
			return done, nil
		}
		for attempt := 0; ; attempt++ {
			n := 0
			err = inTx(ctx, s.Engine, func(tx *Tx) error {
				n = 0
				for _, id := range ids {
					res, err := tx.Exec(ctx, `UPDATE reservation SET reference = $2 WHERE id_reservation = $1 AND reference IS NULL`,
						id, reservation.NewReference())
					if err != nil {
						return err
					}
					k, _ := res.RowsAffected()
					n += int(k)
				}
				return nil
			})
			if err == nil {
				done += n
				break
			}
			if !IsUniqueViolation(err) || attempt >= maxReferenceDraws {
				return done, fmt.Errorf("assign references: %w", err)
			}
		}
	}
}

// ReservationByReference reads one reservation by its reference (stored form);
// ErrNotFound if there is none.
func (s Reservations) ReservationByReference(ctx context.Context, ref string) (reservation.Reservation, error) {
	r, err := scanReservation(s.QueryRow(ctx, `SELECT `+reservationColumns+` FROM reservation r WHERE r.reference = $1`, ref))
	if err != nil {
		return r, fmt.Errorf("reservation %s: %w", ref, notFound(err))
	}
	return r, nil
}

// Secret returns the service secret called name, storing generate()'s value if
// there is none yet. Two instances starting at once both try to insert; the first
// wins (ON CONFLICT DO NOTHING) and both read the winner's value, so every instance
// signs with the same key.
func (s Reservations) Secret(ctx context.Context, name string, generate func() string) (string, error) {
	// The value is read back in the same transaction: the one stored first, by
	// this instance or another, is the secret.
	var v string
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO service_secret (name, value, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (name) DO NOTHING`, name, generate(), tx.Now); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT value FROM service_secret WHERE name = $1`, name).Scan(&v); err != nil {
			return fmt.Errorf("read back: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("store secret %s: %w", name, err)
	}
	return v, nil
}
