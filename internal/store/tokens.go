package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/reservation"
)

// TokenRecord is a stored API token with its customer.
type TokenRecord struct {
	Customer    reservation.Customer
	SessionHash *string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	RevokedAt   *time.Time
}

// APIToken reads an API token by its hash; ErrNotFound if there is none.
func (s Accounts) APIToken(ctx context.Context, hash string) (TokenRecord, error) {
	var rec TokenRecord
	var sessionHash nullString
	var revoked sql.NullTime
	var c reservation.Customer
	var phone, email, pw nullString
	var typ string
	err := s.QueryRow(ctx, `SELECT t.session_hash, t.created_at, t.expires_at, t.revoked_at,
		c.id_customer, c.full_name, c.phone, c.email, c.type, c.password_hash, c.created_at
		FROM api_token t JOIN customer c ON c.id_customer = t.id_customer
		WHERE t.token_hash = $1 AND c.disabled_at IS NULL`, hash).Scan(&sessionHash, &rec.CreatedAt, &rec.ExpiresAt, &revoked,
		&c.ID, &c.FullName, &phone, &email, &typ, &pw, &c.CreatedAt)
	if err != nil {
		return rec, fmt.Errorf("api token: %w", notFound(err))
	}
	c.Type = reservation.CustomerType(typ)
	c.Phone, c.Email, c.PasswordHash = phone.ptr(), email.ptr(), pw.ptr()
	c.CreatedAt = c.CreatedAt.UTC()
	rec.Customer = c
	rec.SessionHash = sessionHash.ptr()
	rec.CreatedAt, rec.ExpiresAt = rec.CreatedAt.UTC(), rec.ExpiresAt.UTC()
	if revoked.Valid {
		t := revoked.Time.UTC()
		rec.RevokedAt = &t
	}
	return rec, nil
}

// InsertAPIToken stores a new API token; sessionHash (may be nil) binds it to the web
// session it was issued through, so that ending the session revokes it.
func (tx AccountsTx) InsertAPIToken(ctx context.Context, hash string, customerID int64, sessionHash *string, expires time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO api_token (token_hash, id_customer, session_hash, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5)`, hash, customerID, sessionHash, tx.Now, Time(expires))
	if err != nil {
		return fmt.Errorf("insert api token: %w", err)
	}
	return nil
}

// RevokeAPIToken marks a live token revoked and reports whether one was.
func (tx AccountsTx) RevokeAPIToken(ctx context.Context, hash string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE api_token SET revoked_at = $2
		WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2`, hash, tx.Now)
	if err != nil {
		return false, fmt.Errorf("revoke api token: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// PruneAPITokens deletes tokens that expired before cutoff (revoked ones included:
// a revoked token is refused whether or not its row still exists).
func (tx AccountsTx) PruneAPITokens(ctx context.Context, cutoff time.Time) error {
	if _, err := tx.Exec(ctx, `DELETE FROM api_token WHERE expires_at < $1`, Time(cutoff)); err != nil {
		return fmt.Errorf("prune api tokens: %w", err)
	}
	return nil
}
