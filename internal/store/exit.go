package store

// Check-out: the finalize moves an EN CURSO reservation to FINALIZADA with the
// moment, the payment and the amount charged (booking/exit.go).

import (
	"context"
	"time"

	"parking/internal/money"
	"parking/internal/reservation"
)

// Finalization is what check-out records.
type Finalization struct {
	Method reservation.PaymentMethod
	// Exit and TotalPrice replace the stored ones (an open exit is closed at
	// check-out and repriced, docs/dates.md#open-exits); pass the stored values otherwise.
	Exit       time.Time
	TotalPrice money.Cents
	Extras     []BookedExtra // replaced when Repriced
	Repriced   bool
	// CheckedOutAt is the moment of check-out. BookedExit and BookedPrice keep
	// what was booked when a late car is repriced at the exit (docs/exit.md);
	// nil otherwise.
	CheckedOutAt time.Time
	BookedExit   *time.Time
	BookedPrice  *money.Cents
}

// MarkFinalized moves an EN CURSO reservation to FINALIZADA, paid with f.Method;
// the spot stays assigned (docs/reservations.md#transitions: administrator finalize).
func (tx ReservationsTx) MarkFinalized(ctx context.Context, id int64, f Finalization) (bool, error) {
	bookedExit := optTime(f.BookedExit)
	var bookedPrice *int64
	if f.BookedPrice != nil {
		p := int64(*f.BookedPrice)
		bookedPrice = &p
	}
	res, err := tx.Exec(ctx, `UPDATE reservation
		SET status = 'FINALIZADA', is_paid = $2, payment_method = $3, exit_date = $4, total_price_cents = $5, updated_at = $6,
		    checked_out_at = $7, booked_exit_date = $8, booked_price_cents = $9
		WHERE id_reservation = $1 AND status = 'EN CURSO'`,
		id, true, string(f.Method), Time(f.Exit), int64(f.TotalPrice), tx.Now, Time(f.CheckedOutAt), bookedExit, bookedPrice)
	ok, err := applied(res, err, "finalize reservation %d", id)
	if !ok || err != nil || !f.Repriced {
		return ok, err
	}
	return true, tx.ReplaceReservationExtras(ctx, id, f.Extras)
}
