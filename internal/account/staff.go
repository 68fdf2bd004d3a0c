package account

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Staff accounts (docs/staff-and-audit.md): administrators list, create, disable,
// enable and give new passwords to ADMIN accounts on /admin/staff. Every change is
// one transaction that records its audit entry. A disabled account cannot log in,
// and its sessions and API tokens are deleted in the transaction that disables it.

// Staff is an administrator account as the staff page shows it.
type Staff struct {
	ID         int64
	Name       string
	Email      string
	CreatedAt  time.Time
	DisabledAt *time.Time
}

// Active reports whether the account can log in.
func (s Staff) Active() bool { return s.DisabledAt == nil }

// NewStaff is the staff creation form. Confirm is nil when not sent (JSON clients
// may leave it out); when sent it must equal Password.
type NewStaff struct {
	Name, Email, Password string
	Confirm               *string
}

// ErrLastAdmin refuses to disable the last active administrator account.
var ErrLastAdmin = fault.Coded(fault.Invalid, "err.account.last_admin")

// ErrAccountDisabled is the login's answer for a disabled account whose password
// was right (403: the credentials are fine, the access is refused).
var ErrAccountDisabled = fault.Coded(fault.Forbidden, "err.account.disabled")

// CheckNewPassword is the rule every new password follows (registration, password
// change, staff accounts, the command line): at least MinPasswordLength characters,
// at most MaxPasswordBytes bytes (bcrypt's limit), and equal to its confirmation
// when one is sent.
func CheckNewPassword(pw string, confirm *string) error {
	switch {
	case utf8.RuneCountInString(pw) < MinPasswordLength:
		return errPasswordShort
	case len(pw) > MaxPasswordBytes:
		return errPasswordLong
	case confirm != nil && *confirm != pw:
		return errPasswordsDiffer
	}
	return nil
}

func staffOf(r store.StaffRecord) Staff {
	return Staff{ID: r.ID, Name: r.Name, Email: r.Email, CreatedAt: r.CreatedAt, DisabledAt: r.DisabledAt}
}

func staffFields(s Staff) audit.Fields {
	return audit.F("full_name", s.Name, "email", s.Email, "active", audit.Bool(s.Active()))
}

// ListStaff lists the ADMIN accounts by id.
func (s *Service) ListStaff(ctx context.Context) ([]Staff, error) {
	rows, err := s.store.Accounts().StaffAccounts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Staff, len(rows))
	for i, r := range rows {
		out[i] = staffOf(r)
	}
	return out, nil
}

// CreateStaff creates an ADMIN account (name, email, password). A used email is a
// Conflict.
func (s *Service) CreateStaff(ctx context.Context, in NewStaff) (Staff, error) {
	name, err := input.Name("full_name", in.Name)
	if err != nil {
		return Staff{}, err
	}
	email, err := input.Email("email", in.Email)
	if err != nil {
		return Staff{}, err
	}
	if err := CheckNewPassword(in.Password, in.Confirm); err != nil {
		return Staff{}, err
	}
	hash, err := HashPassword(in.Password, s.hashCost)
	if err != nil {
		return Staff{}, err
	}
	var out Staff
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		id, ok, err := tx.Accounts().InsertAccountIfFree(ctx, store.NewAccount{FullName: name, Email: email, Type: reservation.Admin, PasswordHash: hash})
		if err != nil {
			return err
		}
		if !ok {
			return fault.Coded(fault.Conflict, "err.account.email_exists", "Email", email)

		}
		rec, err := tx.Accounts().StaffAccount(ctx, id)
		if err != nil {
			return err
		}
		out = staffOf(rec)
		return tx.Audit(ctx, audit.Entry{Action: audit.ActionCreate, Entity: audit.EntityStaff, EntityID: audit.ID(id),
			Changes: audit.Compare(nil, staffFields(out))})
	})
	if err != nil {
		return Staff{}, wrapStaff(err, "create staff account")
	}
	return out, nil
}

// DisableStaff disables ADMIN account id: it can no longer log in, and its sessions
// and API tokens end in the same transaction. The last active administrator cannot
// be disabled (400), even by two administrators disabling each other at once
// (store.DisableStaff counts them under a lock). Disabling a disabled account
// changes nothing.
func (s *Service) DisableStaff(ctx context.Context, id int64) (Staff, error) {
	var out Staff
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		before, err := s.lockStaff(ctx, tx, id)
		if err != nil {
			return err
		}
		if !before.Active() {
			out = before
			return nil
		}
		ok, err := tx.Accounts().DisableStaff(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			return ErrLastAdmin
		}
		if err := tx.Accounts().EndAccess(ctx, id, ""); err != nil {
			return err
		}
		return s.auditStaff(ctx, tx, audit.ActionDisable, before, &out)
	})
	if err != nil {
		return Staff{}, wrapStaff(err, "disable staff account %d", id)
	}
	return out, nil
}

// EnableStaff lets a disabled ADMIN account log in again.
func (s *Service) EnableStaff(ctx context.Context, id int64) (Staff, error) {
	var out Staff
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		before, err := s.lockStaff(ctx, tx, id)
		if err != nil {
			return err
		}
		ok, err := tx.Accounts().EnableStaff(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			out = before
			return nil
		}
		return s.auditStaff(ctx, tx, audit.ActionEnable, before, &out)
	})
	if err != nil {
		return Staff{}, wrapStaff(err, "enable staff account %d", id)
	}
	return out, nil
}

// SetStaffPassword gives ADMIN account id a new password (the administrator does
// not need the old one). Whoever held the old password is out: the account's
// sessions and tokens end, except keepSession (the caller's own session token, ""
// for none) when administrators change their own password.
func (s *Service) SetStaffPassword(ctx context.Context, id int64, keepSession, password string, confirm *string) error {
	if err := CheckNewPassword(password, confirm); err != nil {
		return err
	}
	hash, err := HashPassword(password, s.hashCost)
	if err != nil {
		return err
	}
	keep := ""
	if keepSession != "" {
		keep = HashToken(keepSession)
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := s.lockStaff(ctx, tx, id); err != nil {
			return err
		}
		if err := tx.Accounts().ResetPasswordHash(ctx, id, hash); err != nil {
			return err
		}
		if err := tx.Accounts().EndAccess(ctx, id, keep); err != nil {
			return err
		}
		return tx.Audit(ctx, audit.Entry{Action: audit.ActionPassword, Entity: audit.EntityStaff, EntityID: audit.ID(id),
			Changes: []audit.Change{{Field: "password", Before: "", After: "(nueva)"}}})
	})
	if err != nil {
		return wrapStaff(err, "set password of staff account %d", id)
	}
	return nil
}

// lockStaff reads staff account id in tx; NotFound when there is no such ADMIN
// account.
func (s *Service) lockStaff(ctx context.Context, tx *store.Tx, id int64) (Staff, error) {
	rec, err := tx.Accounts().StaffAccount(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Staff{}, fault.Coded(fault.NotFound, "err.account.staff_not_found", "ID", id)

	}
	if err != nil {
		return Staff{}, err
	}
	return staffOf(rec), nil
}

// auditStaff reads the account after a change into out and records the change.
func (s *Service) auditStaff(ctx context.Context, tx *store.Tx, action string, before Staff, out *Staff) error {
	after, err := s.lockStaff(ctx, tx, before.ID)
	if err != nil {
		return err
	}
	*out = after
	return tx.Audit(ctx, audit.Entry{Action: action, Entity: audit.EntityStaff, EntityID: audit.ID(before.ID),
		Changes: audit.Compare(staffFields(before), staffFields(after))})
}

// wrapStaff adds context to internal errors and passes refusals unchanged.
func wrapStaff(err error, format string, args ...any) error {
	if fault.KindOf(err) != fault.Internal {
		return err
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// checkActive refuses a disabled account (after its password matched).
func (s *Service) checkActive(ctx context.Context, id int64) error {
	disabled, err := s.store.Accounts().AccountDisabled(ctx, id)
	if err != nil {
		return fmt.Errorf("authenticate: %w", err)
	}
	if disabled {
		return ErrAccountDisabled
	}
	return nil
}
