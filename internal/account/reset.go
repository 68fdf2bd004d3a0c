package account

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/store"
)

// Password reset (docs/manage-booking.md#password-reset): "¿Olvidó su contraseña?" asks for an email; if an
// account with its own password has it, a single-use link valid for one hour is
// sent as a password_reset notification through the outbox. The answer is the same
// whether or not the email exists, after the same work. Only the SHA-256 of the
// link's token is stored, and the outbox keeps the link sealed.
// Setting the new password ends every session and API token of the account.

// ResetValidity is how long a reset link works.
const ResetValidity = time.Hour

// ResetPath is the page a reset link opens (the token in its query, t).
const ResetPath = "/users/password/reset"

// maxResetsPerHour bounds the links sent to one account in an hour, so that the
// form cannot be used to flood someone's inbox; beyond it the answer is the same
// and nothing is sent.
const maxResetsPerHour = 3

// MsgResetRequested is the catalogue key of the one answer to a reset request
// (docs/languages.md#messages-as-codes).
const MsgResetRequested = "err.account.reset_requested"

// ErrResetLink refuses a reset with an unknown, used or expired link.
var ErrResetLink = fault.Coded(fault.Invalid, "err.account.reset_link")

// WithPasswordReset lets the service send reset links through outbox, as links
// under baseURL (PARKING_BASE_URL). Without it, reset requests send nothing.
func WithPasswordReset(outbox *notify.Outbox, baseURL string) Option {
	return func(s *Service) { s.resetOutbox, s.baseURL = outbox, strings.TrimRight(baseURL, "/") }
}

// RequestPasswordReset sends a reset link to the account with this email, if there
// is one that signs in with a password (an account created by social login has
// none) and that got fewer than three links in the last hour. A malformed email is
// a 400; every other outcome is nil, so the caller answers MsgResetRequested alike.
//
// Whether a link is sent or not, the request does the same work in one
// transaction (docs/security.md#password-reset): it reads the account and the
// address's recent requests, draws a token, writes a password_reset row (without a
// customer when nothing is sent: no link can use it) and a password_reset
// notification with the link sealed (skipped, without recipient, when nothing is
// sent). Only the token's hash is stored.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	email, err := input.Email("email", email)
	if err != nil {
		return err
	}
	if s.resetOutbox == nil {
		return nil
	}
	token, hash := NewToken()
	link := s.baseURL + ResetPath + "?t=" + url.QueryEscape(token)
	emailHash := HashToken(strings.ToLower(email))
	var throttled int64
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Accounts().AccountByEmailTx(ctx, email)
		found := err == nil
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		n, err := tx.Accounts().RecentPasswordResets(ctx, emailHash, tx.Now.Add(-time.Hour))
		if err != nil {
			return err
		}
		send := found && c.Email != nil && HasOwnPassword(c.PasswordHash) && n < maxResetsPerHour
		var to int64
		name, addr, lang := "", "", ""
		if send {
			to, name, addr, lang = c.ID, c.FullName, *c.Email, c.Language
		} else if found && n >= maxResetsPerHour {
			throttled = c.ID
		}
		if err := tx.Accounts().InsertPasswordReset(ctx, hash, emailHash, to, tx.Now.Add(ResetValidity)); err != nil {
			return err
		}
		return s.resetOutbox.EnqueuePasswordReset(ctx, tx, name, addr, lang, link, send)
	})
	if err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	if throttled != 0 {
		s.log.InfoContext(ctx, "password reset not sent: too many in the last hour", "id_customer", throttled)
	}
	return nil
}

// PasswordResetUsable reports whether a reset link's token can still be used (the
// page shows the form or says the link has expired).
func (s *Service) PasswordResetUsable(ctx context.Context, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	return s.store.Accounts().PasswordResetValid(ctx, HashToken(token), s.now())
}

// ResetPassword sets a new password with a reset link's token: the password rules
// of a change (length, confirmation), the link used once, and every session and
// API token of the account ended.
func (s *Service) ResetPassword(ctx context.Context, token, password, confirm string) error {
	if password == "" || confirm == "" {
		return fault.Coded(fault.Invalid, "err.account.reset_fields_required")
	}
	if password != confirm {
		return ErrPasswordMismatch
	}
	if err := newPasswordRules(password); err != nil {
		return err
	}

	if token == "" {
		return ErrResetLink
	}
	newHash, err := HashPassword(password, s.hashCost)
	if err != nil {
		return err
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		id, err := tx.Accounts().UsePasswordReset(ctx, HashToken(token))
		if errors.Is(err, store.ErrNotFound) {
			return ErrResetLink
		}
		if err != nil {
			return err
		}
		c, err := tx.Customers().Customer(ctx, id)
		if err != nil {
			return err
		}
		if !HasOwnPassword(c.PasswordHash) { // became a social account since the link was sent
			return ErrResetLink
		}
		return tx.Accounts().ResetPassword(ctx, id, newHash)
	})
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	return nil
}
