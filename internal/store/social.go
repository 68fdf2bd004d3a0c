package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"parking/internal/reservation"
)

// Social login (OpenID Connect): linked identities, logins in progress and links
// waiting for the account's password. See docs/social-login.md.

// CustomerBySocialIdentity reads the customer linked to a provider's subject.
func (tx AccountsTx) CustomerBySocialIdentity(ctx context.Context, provider, subject string) (reservation.Customer, error) {
	return scanCustomer(tx.QueryRow(ctx, `SELECT `+prefixed("c.", customerColumns)+`
		FROM social_identity si JOIN customer c ON c.id_customer = si.id_customer
		WHERE si.provider = $1 AND si.subject = $2`, provider, subject))
}

// AccountByEmailTx is AccountByEmail inside a transaction.
func (tx AccountsTx) AccountByEmailTx(ctx context.Context, email string) (reservation.Customer, error) {
	return scanCustomer(tx.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer
		WHERE lower(email) = lower($1) AND type <> 'NO-REGISTRADO' AND email IS NOT NULL`, email))
}

// InsertSocialIdentity links a provider's subject to a customer; an identity
// already linked is a unique violation (the primary key decides).
func (tx AccountsTx) InsertSocialIdentity(ctx context.Context, provider, subject string, customerID int64, email string) error {
	_, err := tx.Exec(ctx, `INSERT INTO social_identity (provider, subject, id_customer, email, created_at)
		VALUES ($1, $2, $3, $4, $5)`, provider, subject, customerID, nullIfEmpty(email), tx.Now)
	if err != nil {
		return fmt.Errorf("insert social identity: %w", err)
	}
	return nil
}

// SocialIdentity is one linked provider identity.
type SocialIdentity struct {
	Provider, Subject, Email string
	CreatedAt                time.Time
}

// SocialIdentitiesOf lists the identities linked to a customer.
func (s Accounts) SocialIdentitiesOf(ctx context.Context, customerID int64) ([]SocialIdentity, error) {
	rows, err := s.Query(ctx, `SELECT provider, subject, COALESCE(email, ''), created_at
		FROM social_identity WHERE id_customer = $1 ORDER BY created_at, provider`, customerID)
	if err != nil {
		return nil, fmt.Errorf("social identities of %d: %w", customerID, err)
	}
	defer rows.Close()
	var out []SocialIdentity
	for rows.Next() {
		var si SocialIdentity
		if err := rows.Scan(&si.Provider, &si.Subject, &si.Email, &si.CreatedAt); err != nil {
			return nil, err
		}
		si.CreatedAt = si.CreatedAt.UTC()
		out = append(out, si)
	}
	return out, rows.Err()
}

// OIDCState is a login in progress with a provider.
type OIDCState struct {
	Provider, Nonce, Verifier string
	ExpiresAt                 time.Time
}

// InsertOIDCState stores a login in progress under the hash of its state, and
// deletes the expired ones (at the rate of logins, so the table stays small).
func (tx AccountsTx) InsertOIDCState(ctx context.Context, stateHash string, st OIDCState) error {
	if _, err := tx.Exec(ctx, `DELETE FROM oidc_state WHERE expires_at <= $1`, tx.Now); err != nil {
		return fmt.Errorf("prune oidc states: %w", err)
	}
	_, err := tx.Exec(ctx, `INSERT INTO oidc_state (state_hash, provider, nonce, verifier, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, stateHash, st.Provider, st.Nonce, st.Verifier, tx.Now, Time(st.ExpiresAt))
	if err != nil {
		return fmt.Errorf("insert oidc state: %w", err)
	}
	return nil
}

// TakeOIDCState reads and deletes a login in progress in one statement, so a state
// is used at most once even when two callbacks race; ErrNotFound when unknown or
// already used. The caller checks the expiry.
func (tx AccountsTx) TakeOIDCState(ctx context.Context, stateHash string) (OIDCState, error) {
	var st OIDCState
	err := tx.QueryRow(ctx, `DELETE FROM oidc_state WHERE state_hash = $1
		RETURNING provider, nonce, verifier, expires_at`, stateHash).Scan(&st.Provider, &st.Nonce, &st.Verifier, &st.ExpiresAt)
	if err != nil {
		return st, fmt.Errorf("take oidc state: %w", notFound(err))
	}
	st.ExpiresAt = st.ExpiresAt.UTC()
	return st, nil
}

// PendingLink is a provider identity waiting for the password of the account
// whose (verified) email it carries.
type PendingLink struct {
	Provider, Subject, Email string
	CustomerID               int64
	ExpiresAt                time.Time
}

// InsertPendingLink stores a pending link under the hash of its token, deleting
// expired ones.
func (tx AccountsTx) InsertPendingLink(ctx context.Context, tokenHash string, p PendingLink) error {
	if _, err := tx.Exec(ctx, `DELETE FROM social_pending_link WHERE expires_at <= $1`, tx.Now); err != nil {
		return fmt.Errorf("prune pending links: %w", err)
	}
	_, err := tx.Exec(ctx, `INSERT INTO social_pending_link (token_hash, provider, subject, email, id_customer, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, tokenHash, p.Provider, p.Subject, p.Email, p.CustomerID, tx.Now, Time(p.ExpiresAt))
	if err != nil {
		return fmt.Errorf("insert pending link: %w", err)
	}
	return nil
}

// PendingLink reads a pending link by its token hash; ErrNotFound if there is none.
func (s Accounts) PendingLink(ctx context.Context, tokenHash string) (PendingLink, error) {
	var p PendingLink
	err := s.QueryRow(ctx, `SELECT provider, subject, email, id_customer, expires_at
		FROM social_pending_link WHERE token_hash = $1`, tokenHash).Scan(&p.Provider, &p.Subject, &p.Email, &p.CustomerID, &p.ExpiresAt)
	if err != nil {
		return p, fmt.Errorf("pending link: %w", notFound(err))
	}
	p.ExpiresAt = p.ExpiresAt.UTC()
	return p, nil
}

// DeletePendingLink removes a pending link and reports whether it was there (a
// conditional delete: of two concurrent confirmations one wins).
func (tx AccountsTx) DeletePendingLink(ctx context.Context, tokenHash string) (bool, error) {
	res, err := tx.Exec(ctx, `DELETE FROM social_pending_link WHERE token_hash = $1`, tokenHash)
	if err != nil {
		return false, fmt.Errorf("delete pending link: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// prefixed qualifies each column of a comma-separated list with p.
func prefixed(p, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}
