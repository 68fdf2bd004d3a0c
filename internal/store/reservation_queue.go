package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"parking/internal/database"
	"parking/internal/reservation"
)

// ErrReferenceTaken is a queued reservation insert's refusal: the random reference
// it drew is another reservation's (one in 2^40 per stored booking). Its
// transaction has failed; the caller runs it again, which draws another reference
// (docs/manage-booking.md#booking-reference).
var ErrReferenceTaken = errors.New("booking reference already taken")

// ReserveID draws, on PostgreSQL, the id of the reservation the transaction is about
// to insert (NewReservation.ID), queued: *id is set by the transaction's next round
// trip (docs/performance.md#the-public-booking-in-two-round-trips), so that the
// insert and every row that names the reservation can go out together. On SQLite it
// leaves *id at 0: the insert numbers the reservation.
func (tx ReservationsTx) ReserveID(ctx context.Context, id *int64) error {
	if tx.Dialect() != Postgres {
		return nil
	}
	return tx.Queue(ctx, database.Stmt{Query: `SELECT nextval('reservation_id_reservation_seq')`, Dest: []any{id},
		What: "draw a reservation id"})
}

// queueReservation queues the insert of r under its drawn id and of its services
// (InsertReservation with NewReservation.ID set). A reference already taken inserts
// nothing and fails the transaction with ErrReferenceTaken.
func (tx ReservationsTx) queueReservation(ctx context.Context, r NewReservation, out reservation.Reservation,
	name, email, phone, bookedBy *string, partner *int64, partnerRef *string, rate *int64) (reservation.Reservation, error) {
	out.ID = r.ID
	out.Reference = reservation.NewReference()
	if err := tx.Queue(ctx, database.Stmt{Query: `INSERT INTO reservation
			(id_reservation, reservation_date, entry_date, exit_date, status, total_price_cents, is_paid, notes, cod_parking_spot,
			 id_customer, id_vehicle, id_main_service, updated_at, contact_name, contact_email, contact_phone, booked_by, reference, claimed_at, language,
			 channel, id_partner, partner_reference, commission_bp)
			VALUES ($22, $1, $2, $3, 'PENDIENTE', $4, $5, $6, $7, $8, $9, $10, $1, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
		Args: []any{tx.Now, out.Entry, out.Exit, int64(r.TotalPrice), false, r.Notes, r.Spot,
			r.CustomerID, r.VehicleID, r.MainServiceID, name, email, phone, bookedBy, out.Reference, out.ClaimedAt, out.Language,
			out.Channel, partner, partnerRef, rate, r.ID},
		// Refused inside the database, by the reference's unique index: a COMMIT may
		// go out in the same round trip (docs/performance.md#the-public-booking-in-two-round-trips).
		Refused: func(pe *pgconn.PgError) error {
			if pe.Code == "23505" && pe.ConstraintName == "reservation_reference" {
				return ErrReferenceTaken
			}
			return nil
		},
		What: fmt.Sprintf("insert reservation %d", r.ID)}); err != nil {
		return out, err
	}
	return out, tx.insertExtras(ctx, out.ID, r.Extras)
}
