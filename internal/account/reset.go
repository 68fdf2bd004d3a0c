package account

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/store"
)

// Password reset (docs/manage-booking.md#password-reset): "¿Olvidó su contraseña?" asks for an email; if an
// account with its own password has it, a single-use link valid for one hour is
// sent as a password_reset notification through the outbox. The answer is the same
// whether or not the email exists. Only the SHA-256 of the link's token is stored.
// Setting the new password ends every session and API token of the account.

// ResetValidity is how long a reset link works.
const ResetValidity = time.Hour

// ResetPath is the page a reset link opens (the token in its query, t).
const ResetPath = "/users/password/reset"

// maxResetsPerHour bounds the links sent to one account in an hour, so that the
// form cannot be used to flood someone's inbox; beyond it the answer is the same
// and nothing is sent.
const maxResetsPerHour = 3

// MsgResetRequested is the one answer to a reset request.
const MsgResetRequested = "Si existe una cuenta con ese correo electrónico, le hemos enviado un enlace para elegir una contraseña nueva. El enlace caduca en una hora."

// ErrResetLink refuses a reset with an unknown, used or expired link.
var ErrResetLink = fault.New(fault.Invalid, "El enlace para restablecer la contraseña no es válido o ha caducado. Solicite uno nuevo.")

// WithPasswordReset lets the service send reset links through outbox, as links
// under baseURL (PARKING_BASE_URL). Without it, reset requests send nothing.
func WithPasswordReset(outbox *notify.Outbox, baseURL string) Option {
	return func(s *Service) { s.resetOutbox, s.baseURL = outbox, strings.TrimRight(baseURL, "/") }
}

// RequestPasswordReset sends a reset link to the account with this email, if there
// is one that signs in with a password (an account created by social login has
// none: nothing is sent). A malformed email is a 400; every other outcome is nil,
// so the caller answers MsgResetRequested alike.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	email, err := input.Email("email", email)
	if err != nil {
		return err
	}
	c, err := s.store.AccountByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !HasOwnPassword(c.PasswordHash)) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("password reset: %w", err)
	}
	now := s.now()
	if n, err := s.store.RecentPasswordResets(ctx, c.ID, now.Add(-time.Hour)); err != nil {
		return err
	} else if n >= maxResetsPerHour {
		s.log.InfoContext(ctx, "password reset not sent: too many in the last hour", "id_customer", c.ID)
		return nil
	}
	if s.resetOutbox == nil {
		return nil
	}
	token, hash := NewToken()
	link := s.baseURL + ResetPath + "?t=" + url.QueryEscape(token)
	return s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.InsertPasswordReset(ctx, hash, c.ID, tx.Now.Add(ResetValidity)); err != nil {
			return err
		}
		return s.resetOutbox.EnqueuePasswordReset(ctx, tx, c.FullName, *c.Email, link)
	})
}

// PasswordResetUsable reports whether a reset link's token can still be used (the
// page shows the form or says the link has expired).
func (s *Service) PasswordResetUsable(ctx context.Context, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	return s.store.PasswordResetValid(ctx, HashToken(token), s.now())
}

// ResetPassword sets a new password with a reset link's token: the password rules
// of a change (length, confirmation), the link used once, and every session and
// API token of the account ended.
func (s *Service) ResetPassword(ctx context.Context, token, password, confirm string) error {
	if password == "" || confirm == "" {
		return fault.Invalidf("Escriba la nueva contraseña y su confirmación.")
	}
	if password != confirm {
		return fault.Invalidf(MsgPasswordMismatch)
	}
	if utf8.RuneCountInString(password) < MinPasswordLength {
		return fault.Invalidf("La nueva contraseña debe tener al menos %d caracteres.", MinPasswordLength)
	}
	if len(password) > MaxPasswordBytes {
		return fault.Invalidf("La nueva contraseña admite como máximo %d bytes.", MaxPasswordBytes)
	}
	if token == "" {
		return ErrResetLink
	}
	newHash, err := HashPassword(password, s.hashCost)
	if err != nil {
		return err
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		id, err := tx.UsePasswordReset(ctx, HashToken(token))
		if errors.Is(err, store.ErrNotFound) {
			return ErrResetLink
		}
		if err != nil {
			return err
		}
		c, err := tx.Customer(ctx, id)
		if err != nil {
			return err
		}
		if !HasOwnPassword(c.PasswordHash) { // became a social account since the link was sent
			return ErrResetLink
		}
		return tx.ResetPassword(ctx, id, newHash)
	})
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	return nil
}
