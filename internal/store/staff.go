package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// StaffRecord is an administrator (ADMIN) account as the staff page lists it.
type StaffRecord struct {
	ID         int64
	Name       string
	Email      string
	CreatedAt  time.Time
	DisabledAt *time.Time
}

const staffColumns = `id_customer, full_name, COALESCE(email, ''), created_at, disabled_at`

func scanStaff(row interface{ Scan(...any) error }) (StaffRecord, error) {
	var r StaffRecord
	var disabled sql.NullTime
	if err := row.Scan(&r.ID, &r.Name, &r.Email, &r.CreatedAt, &disabled); err != nil {
		return r, notFound(err)
	}
	r.CreatedAt = r.CreatedAt.UTC()
	if disabled.Valid {
		t := disabled.Time.UTC()
		r.DisabledAt = &t
	}
	return r, nil
}

// StaffAccounts lists every ADMIN account, active and disabled, by id.
func (s Accounts) StaffAccounts(ctx context.Context) ([]StaffRecord, error) {
	rows, err := s.Query(ctx, `SELECT `+staffColumns+` FROM customer WHERE type = 'ADMIN' ORDER BY id_customer`)
	if err != nil {
		return nil, fmt.Errorf("staff accounts: %w", err)
	}
	defer rows.Close()
	var out []StaffRecord
	for rows.Next() {
		r, err := scanStaff(rows)
		if err != nil {
			return nil, fmt.Errorf("staff accounts: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// StaffAccount reads ADMIN account id inside the transaction; ErrNotFound when
// there is none (or it is not an ADMIN account).
func (tx AccountsTx) StaffAccount(ctx context.Context, id int64) (StaffRecord, error) {
	r, err := scanStaff(tx.QueryRow(ctx, `SELECT `+staffColumns+` FROM customer WHERE id_customer = $1 AND type = 'ADMIN'`, id))
	if err != nil {
		return r, fmt.Errorf("staff account %d: %w", id, err)
	}
	return r, nil
}

// staffLockKey is the PostgreSQL advisory lock that orders changes to which
// administrators are active (any constant unique in the service).
const staffLockKey = 160016

// DisableStaff disables ADMIN account id unless it is the last active one, and
// reports whether it did. The count of active administrators is part of the
// conditional UPDATE; on PostgreSQL a transaction-scoped advisory lock taken first
// makes two concurrent disables run one after the other (under READ COMMITTED each
// would otherwise count the other one still active and both would succeed); on
// SQLite the single writer already serialises them.
func (tx AccountsTx) DisableStaff(ctx context.Context, id int64) (bool, error) {
	if tx.Dialect() == Postgres {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(staffLockKey)); err != nil {
			return false, fmt.Errorf("lock staff accounts: %w", err)
		}
	}
	res, err := tx.Exec(ctx, `UPDATE customer SET disabled_at = $2
		WHERE id_customer = $1 AND type = 'ADMIN' AND disabled_at IS NULL
		AND (SELECT COUNT(*) FROM customer WHERE type = 'ADMIN' AND disabled_at IS NULL) > 1`, id, Time(tx.Now))
	if err != nil {
		return false, fmt.Errorf("disable staff account %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// EnableStaff enables ADMIN account id again and reports whether it was disabled.
func (tx AccountsTx) EnableStaff(ctx context.Context, id int64) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE customer SET disabled_at = NULL
		WHERE id_customer = $1 AND type = 'ADMIN' AND disabled_at IS NOT NULL`, id)
	if err != nil {
		return false, fmt.Errorf("enable staff account %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// EndAccess deletes every session and API token of account id except the session
// keepHash ("" keeps none) and the tokens issued through it.
func (tx AccountsTx) EndAccess(ctx context.Context, id int64, keepHash string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM api_token WHERE id_customer = $1 AND (session_hash IS NULL OR session_hash <> $2)`, id, keepHash); err != nil {
		return fmt.Errorf("end tokens of %d: %w", id, err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM web_session WHERE id_customer = $1 AND token_hash <> $2`, id, keepHash); err != nil {
		return fmt.Errorf("end sessions of %d: %w", id, err)
	}
	return nil
}

// ResetPasswordHash sets account id's password hash (an administrator setting a
// staff member's new password; no old password to compare).
func (tx AccountsTx) ResetPasswordHash(ctx context.Context, id int64, hash string) error {
	if _, err := tx.Exec(ctx, `UPDATE customer SET password_hash = $2 WHERE id_customer = $1`, id, hash); err != nil {
		return fmt.Errorf("set password of %d: %w", id, err)
	}
	return nil
}

// AccountDisabled reports whether account id is disabled.
func (s Accounts) AccountDisabled(ctx context.Context, id int64) (bool, error) {
	var disabled sql.NullTime
	if err := s.QueryRow(ctx, `SELECT disabled_at FROM customer WHERE id_customer = $1`, id).Scan(&disabled); err != nil {
		return false, fmt.Errorf("account %d disabled: %w", id, notFound(err))
	}
	return disabled.Valid, nil
}
