package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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
			err = s.InTx(ctx, func(tx *Tx) error {
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
	err := s.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO service_secret (name, value, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (name) DO NOTHING`, name, generate(), tx.Now); err != nil {
			return fmt.Errorf("store secret %s: %w", name, err)
		}
		if err := tx.QueryRow(ctx, `SELECT value FROM service_secret WHERE name = $1`, name).Scan(&v); err != nil {
			return fmt.Errorf("read secret %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return v, nil
}

// InsertPasswordReset records a password reset request by the hashes of its link's
// token and of the email asked for. customerID 0 is a request that sends nothing
// (no such account, or too many links already): its row has no customer, and no
// link can use it (docs/security.md#password-reset).
func (tx AccountsTx) InsertPasswordReset(ctx context.Context, tokenHash, emailHash string, customerID int64, expires time.Time) error {
	var id *int64
	if customerID != 0 {
		id = &customerID
	}
	if _, err := tx.Exec(ctx, `INSERT INTO password_reset (token_hash, email_hash, id_customer, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		tokenHash, emailHash, id, tx.Now, Time(expires)); err != nil {
		return fmt.Errorf("insert password reset: %w", err)
	}
	return nil
}

// UsePasswordReset marks the reset link used, if it is unused and unexpired at
// tx.Now, and returns its customer; ErrNotFound otherwise. One conditional update:
// of two concurrent uses exactly one wins.
func (tx AccountsTx) UsePasswordReset(ctx context.Context, tokenHash string) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `UPDATE password_reset SET used_at = $2
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND id_customer IS NOT NULL
		RETURNING id_customer`, tokenHash, tx.Now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("use password reset: %w", notFound(err))
	}
	return id, nil
}

// PasswordResetValid reports whether a reset link can still be used at now.
func (s Accounts) PasswordResetValid(ctx context.Context, tokenHash string, now time.Time) (bool, error) {
	var one int
	err := s.QueryRow(ctx, `SELECT 1 FROM password_reset WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND id_customer IS NOT NULL`,
		tokenHash, Time(now)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// ResetPassword sets a customer's password hash, ends every one of their sessions
// and revokes every API token, and drops their other reset links (docs/manage-booking.md#password-reset).
func (tx AccountsTx) ResetPassword(ctx context.Context, customerID int64, newHash string) error {
	if _, err := tx.Exec(ctx, `UPDATE customer SET password_hash = $2 WHERE id_customer = $1`, customerID, newHash); err != nil {
		return fmt.Errorf("reset password of %d: %w", customerID, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE api_token SET revoked_at = $2 WHERE id_customer = $1 AND revoked_at IS NULL`, customerID, tx.Now); err != nil {
		return fmt.Errorf("revoke tokens of %d: %w", customerID, err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM web_session WHERE id_customer = $1`, customerID); err != nil {
		return fmt.Errorf("end sessions of %d: %w", customerID, err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM password_reset WHERE id_customer = $1 AND used_at IS NULL`, customerID); err != nil {
		return fmt.Errorf("drop reset links of %d: %w", customerID, err)
	}
	return nil
}

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

// RecentPasswordResets counts the reset requests for an email (by its hash) since
// `since`, whether or not they sent a link.
func (tx AccountsTx) RecentPasswordResets(ctx context.Context, emailHash string, since time.Time) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM password_reset WHERE email_hash = $1 AND created_at > $2`,
		emailHash, Time(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("recent password resets: %w", err)
	}
	return n, nil
}
