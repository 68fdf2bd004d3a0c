package store

import (
	"context"
	"fmt"
	"time"

	"parking/internal/reservation"
)

// AccountByEmail finds an account (ADMIN or REGISTRADO) by email, ignoring case.
// Booking-flow customers (NO-REGISTRADO) have no login and are not returned.
func (s Accounts) AccountByEmail(ctx context.Context, email string) (reservation.Customer, error) {
	return scanCustomer(s.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer
		WHERE lower(email) = lower($1) AND type <> 'NO-REGISTRADO' AND email IS NOT NULL`, email))
}

// HasAdmin reports whether any ADMIN account exists.
func (s Accounts) HasAdmin(ctx context.Context) (bool, error) {
	var n int
	err := s.QueryRow(ctx, `SELECT COUNT(*) FROM customer WHERE type = 'ADMIN'`).Scan(&n)
	return n > 0, err
}

// NewAccount is an account to insert.
type NewAccount struct {
	FullName     string
	Email        string
	Phone        *string
	Type         reservation.CustomerType
	PasswordHash string
}

// InsertAccount inserts an account; a used email or phone is a unique violation.
func (tx AccountsTx) InsertAccount(ctx context.Context, a NewAccount) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO customer (full_name, phone, email, type, password_hash, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id_customer`,
		a.FullName, a.Phone, a.Email, string(a.Type), a.PasswordHash, tx.Now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert account: %w", err)
	}
	return id, nil
}

// SessionRecord is a stored web session with its customer.
type SessionRecord struct {
	Customer   reservation.Customer
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
}

// Session reads a session by token hash.
func (s Accounts) Session(ctx context.Context, hash string) (SessionRecord, error) {
	var rec SessionRecord
	row := s.QueryRow(ctx, `SELECT ws.created_at, ws.last_seen_at, ws.expires_at,
		c.id_customer, c.full_name, c.phone, c.email, c.type, c.password_hash, c.created_at, c.language
		FROM web_session ws JOIN customer c ON c.id_customer = ws.id_customer
		WHERE ws.token_hash = $1 AND c.disabled_at IS NULL`, hash) // a disabled account has no session
	var c reservation.Customer
	var phone, email, pw, lang nullString
	var typ string
	if err := row.Scan(&rec.CreatedAt, &rec.LastSeenAt, &rec.ExpiresAt,
		&c.ID, &c.FullName, &phone, &email, &typ, &pw, &c.CreatedAt, &lang); err != nil {
		return rec, fmt.Errorf("session: %w", notFound(err))
	}
	c.Type = reservation.CustomerType(typ)
	c.Phone, c.Email, c.PasswordHash = phone.ptr(), email.ptr(), pw.ptr()
	if l := lang.ptr(); l != nil {
		c.Language = *l
	}
	rec.Customer = c
	rec.CreatedAt, rec.LastSeenAt, rec.ExpiresAt = rec.CreatedAt.UTC(), rec.LastSeenAt.UTC(), rec.ExpiresAt.UTC()
	return rec, nil
}

// InsertSession stores a new session.
func (tx AccountsTx) InsertSession(ctx context.Context, hash string, customerID int64, now, expires time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO web_session (token_hash, id_customer, created_at, last_seen_at, expires_at)
		VALUES ($1, $2, $3, $3, $4)`, hash, customerID, Time(now), Time(expires))
	return err
}

// TouchSession moves a session's idle clock.
func (tx AccountsTx) TouchSession(ctx context.Context, hash string, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE web_session SET last_seen_at = $2 WHERE token_hash = $1`, hash, Time(now))
	return err
}

// DeleteSession removes a session and revokes the API tokens issued for it.
func (tx AccountsTx) DeleteSession(ctx context.Context, hash string) error {
	if _, err := tx.Exec(ctx, `UPDATE api_token SET revoked_at = $2 WHERE session_hash = $1 AND revoked_at IS NULL`, hash, tx.Now); err != nil {
		return fmt.Errorf("revoke session tokens: %w", err)
	}
	_, err := tx.Exec(ctx, `DELETE FROM web_session WHERE token_hash = $1`, hash)
	return err
}

// DeleteSessionsOf removes every session of a customer except keepHash ("" keeps none),
// revoking their API tokens too.
func (tx AccountsTx) DeleteSessionsOf(ctx context.Context, customerID int64, keepHash string) error {
	if _, err := tx.Exec(ctx, `UPDATE api_token SET revoked_at = $3
		WHERE id_customer = $1 AND session_hash IS NOT NULL AND session_hash <> $2 AND revoked_at IS NULL`, customerID, keepHash, tx.Now); err != nil {
		return fmt.Errorf("revoke tokens of %d: %w", customerID, err)
	}
	_, err := tx.Exec(ctx, `DELETE FROM web_session WHERE id_customer = $1 AND token_hash <> $2`, customerID, keepHash)
	return err
}

// InsertAccountIfFree inserts an account unless its email (among accounts, ignoring
// case) or its phone is already taken; then it returns ok=false and writes nothing.
// The unique indexes decide, so two concurrent registrations cannot both win.
func (tx AccountsTx) InsertAccountIfFree(ctx context.Context, a NewAccount) (id int64, ok bool, err error) {
	err = tx.QueryRow(ctx, `INSERT INTO customer (full_name, phone, email, type, password_hash, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT DO NOTHING
		RETURNING id_customer`,
		a.FullName, a.Phone, a.Email, string(a.Type), a.PasswordHash, tx.Now).Scan(&id)
	if noRows(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("insert account: %w", err)
	}
	return id, true, nil
}

// AccountEmailTaken reports whether an account (ADMIN or REGISTRADO) uses this email, ignoring case.
func (tx AccountsTx) AccountEmailTaken(ctx context.Context, email string) (bool, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM customer
		WHERE lower(email) = lower($1) AND type <> 'NO-REGISTRADO' AND email IS NOT NULL`, email).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("account email taken: %w", err)
	}
	return n > 0, nil
}

// CustomerByPhone reads the customer with this phone inside the transaction.
func (tx AccountsTx) CustomerByPhone(ctx context.Context, phone string) (reservation.Customer, error) {
	return scanCustomer(tx.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer WHERE phone = $1`, phone))
}

// UpgradeToRegistered turns a booking-flow customer (NO-REGISTRADO) into a REGISTRADO
// account in place, keeping its id and so its reservations, but only while the email
// stored on it still equals email (ignoring case and surrounding spaces). The
// condition is part of the UPDATE, so a concurrent change cannot slip in between a
// check and the write. It reports whether the row was upgraded.
func (tx AccountsTx) UpgradeToRegistered(ctx context.Context, id int64, fullName, email, passwordHash string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE customer
		SET type = 'REGISTRADO', full_name = $2, email = $3, password_hash = $4
		WHERE id_customer = $1 AND type = 'NO-REGISTRADO' AND email IS NOT NULL AND lower(trim(email)) = lower($3)`,
		id, fullName, email, passwordHash)
	if err != nil {
		return false, fmt.Errorf("upgrade customer %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("upgrade customer %d: %w", id, err)
	}
	return n == 1, nil
}

// PruneSessions deletes sessions past their absolute lifetime.
func (tx AccountsTx) PruneSessions(ctx context.Context, now time.Time) error {
	_, err := tx.Exec(ctx, `DELETE FROM web_session WHERE expires_at <= $1`, Time(now))
	if err != nil {
		return fmt.Errorf("prune sessions: %w", err)
	}
	return nil
}
