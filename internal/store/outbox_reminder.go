package store

import (
	"context"
	"fmt"
	"time"
)

// Reminder outbox rows (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder): a booking_reminder is inserted due at entry
// − 24 h; while it is still pending and unattempted it is moved (payload and due
// time) or dropped (status cancelled).

// NotificationCancelled is the status of a row dropped before it was due.
const NotificationCancelled = "cancelled"

// MovePendingReminder rewrites the unsent reminder of a reservation (payload and
// due time): a pending one, or one recorded as skipped (no email, no webhook), so
// that a booking keeps one reminder row however often it moves. It reports false
// when there is none.
func (tx OutboxTx) MovePendingReminder(ctx context.Context, reservationID int64, payload []byte, due time.Time) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE notification SET payload = $2, next_attempt_at = $3
		WHERE id_reservation = $1 AND type = 'booking_reminder' AND status IN ('pending', 'skipped') AND attempts = 0`,
		reservationID, string(payload), Time(due))
	if err != nil {
		return false, fmt.Errorf("move reminder of %d: %w", reservationID, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// CancelPendingReminder drops the pending reminder of a reservation (status
// cancelled, with the reason); it reports whether there was one.
func (tx OutboxTx) CancelPendingReminder(ctx context.Context, reservationID int64, reason string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE notification SET status = 'cancelled', last_error = $2, locked_until = NULL, lease_token = NULL
		WHERE id_reservation = $1 AND type = 'booking_reminder' AND status = 'pending'`, reservationID, reason)
	if err != nil {
		return false, fmt.Errorf("cancel reminder of %d: %w", reservationID, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
