package store

import (
	"context"
	"fmt"
	"time"
)

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
	if noRows(err) {
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
