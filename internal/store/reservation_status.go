package store

import (
	"context"
	"database/sql"
	"fmt"

	"parking/internal/reservation"
)

// The administrator's writes on a reservation. Every state change is one
// conditional UPDATE (… WHERE id_reservation = $1 AND status = <expected>) that
// reports whether it applied, so two concurrent clicks cannot both win: the caller
// reads the row under LockReservation, decides, and the UPDATE re-checks.

// MarkCancelled moves a reservation from status from to CANCELADA and frees its spot
// (docs/reservations.md#transitions: cancel sets cod_parking_spot to null).
func (tx ReservationsTx) MarkCancelled(ctx context.Context, id int64, from reservation.Status) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE reservation SET status = 'CANCELADA', cod_parking_spot = NULL, updated_at = $3
		WHERE id_reservation = $1 AND status = $2`, id, string(from), tx.Now)
	return applied(res, err, "cancel reservation %d", id)
}

// AdminStay is everything of a reservation an administrator's update replaces.
type AdminStay struct {
	Stay
	Spot  *string
	Notes *string
	// KeepExtras leaves the stored additional services (and their booked prices)
	// untouched, when neither they nor anything else that prices changed.
	KeepExtras bool
}

// UpdateAdminStay replaces dates, main service, total, spot, notes and (unless
// KeepExtras) the additional services, provided the status is still status.
func (tx ReservationsTx) UpdateAdminStay(ctx context.Context, id int64, status reservation.Status, st AdminStay) (bool, error) {
	exit := optTime(st.Exit)
	res, err := tx.Exec(ctx, `UPDATE reservation
		SET entry_date = $3, exit_date = $4, id_main_service = $5, total_price_cents = $6,
		    cod_parking_spot = $7, notes = $8, updated_at = $9
		WHERE id_reservation = $1 AND status = $2`,
		id, string(status), Time(st.Entry), exit, st.MainServiceID, int64(st.TotalPrice), st.Spot, st.Notes, tx.Now)
	ok, err := applied(res, err, "update reservation %d", id)
	if !ok || err != nil || st.KeepExtras {
		return ok, err
	}
	return true, tx.ReplaceReservationExtras(ctx, id, st.Extras)
}

// SetReservationContact rewrites a reservation's own contact (docs/public-booking.md#privacy-of-anonymous-bookings).
func (tx ReservationsTx) SetReservationContact(ctx context.Context, id int64, c reservation.Contact) error {
	if _, err := tx.Exec(ctx, `UPDATE reservation SET contact_name = $2, contact_email = $3, contact_phone = $4 WHERE id_reservation = $1`,
		id, c.FullName, c.Email, c.Phone); err != nil {
		return fmt.Errorf("update contact of reservation %d: %w", id, err)
	}
	return nil
}

// applied turns the result of a conditional UPDATE into "did it match a row".
func applied(res sql.Result, err error, format string, args ...any) (bool, error) {
	if err != nil {
		return false, fmt.Errorf(format+": %w", append(args, err)...)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf(format+": %w", append(args, err)...)
	}
	return n > 0, nil
}
