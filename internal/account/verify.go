package account

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Email verification (docs/accounts.md#email-verification). Registration and an
// email change send an email_verification notification with a link valid for 48
// hours. The link's token is signed with a key derived from the service's secret
// and bound to the account and to the email it was sent to, so nothing is stored
// to check it and a link sent to an earlier email verifies nothing; the outbox
// keeps the link sealed (notify.Sealer). Following a good link verifies the email
// and, in the same transaction, makes the account's own every booking on its
// record whose contact email is that email (reservation.Claimable).

// VerifyValidity is how long a verification link works.
const VerifyValidity = 48 * time.Hour

// VerifyPath is the route a verification link opens (the token in its query, t).
const VerifyPath = "/users/verify"

// resendGap is the least time between two links sent to one account on request.
const resendGap = 2 * time.Minute

// Answers of the verification.
var (
	ErrVerifyLink    = fault.Coded(fault.Invalid, "err.account.verify_link")
	ErrVerifyExpired = fault.Coded(fault.Invalid, "err.account.verify_expired")
	ErrResendTooSoon = throttled(fault.Coded(fault.TooMany, "err.account.resend_too_soon"), resendGap)
)

// MsgVerificationSent is the catalogue key of the answer to a resend
// (docs/languages.md#messages-as-codes).
const MsgVerificationSent = "err.account.verification_sent"

// verifier signs verification tokens and enqueues the links.
type verifier struct {
	key    []byte
	outbox *notify.Outbox
}

// WithEmailVerification lets the service send verification links through outbox,
// signed with a key derived from secret (the service key, PARKING_SECRET_KEY), as
// links under the base URL of WithPasswordReset. Without it, nothing is sent and
// no link verifies.
func WithEmailVerification(outbox *notify.Outbox, secret []byte) Option {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("parking email-verification v1"))
	return func(s *Service) { s.verify = &verifier{key: m.Sum(nil), outbox: outbox} }
}

// token signs (account, email, expiry): "<id base 36>.<expiry base 36>.<mac>".
func (v *verifier) token(id int64, email string, expires time.Time) string {
	head := strconv.FormatInt(id, 36) + "." + strconv.FormatInt(expires.Unix(), 36)
	return head + "." + v.mac(head, email)
}

func (v *verifier) mac(head, email string) string {
	m := hmac.New(sha256.New, v.key)
	m.Write([]byte(head + "|" + strings.ToLower(strings.TrimSpace(email))))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// parse reads a token's account and expiry (not yet checked against an email).
func parseVerifyToken(t string) (id int64, expires time.Time, head, mac string, ok bool) {
	parts := strings.Split(t, ".")
	if len(t) > 128 || len(parts) != 3 {
		return 0, time.Time{}, "", "", false
	}
	id, err1 := strconv.ParseInt(parts[0], 36, 64)
	secs, err2 := strconv.ParseInt(parts[1], 36, 64)
	if err1 != nil || err2 != nil || id <= 0 {
		return 0, time.Time{}, "", "", false
	}
	return id, time.Unix(secs, 0), parts[0] + "." + parts[1], parts[2], true
}

// sendVerification enqueues a verification link for c's current email inside tx,
// and records when it was sent. Without WithEmailVerification it does nothing.
func (s *Service) sendVerification(ctx context.Context, tx *store.Tx, c reservation.Customer) error {
	if s.verify == nil || c.Email == nil {
		return nil
	}
	if _, err := tx.Customers().MarkVerificationSent(ctx, c.ID, tx.Now); err != nil {
		return err
	}
	link := s.baseURL + VerifyPath + "?t=" + url.QueryEscape(s.verify.token(c.ID, *c.Email, tx.Now.Add(VerifyValidity)))
	return s.verify.outbox.EnqueueEmailVerification(ctx, tx, c.FullName, *c.Email, c.Language, link)
}

// VerifyEmail verifies the email a link was sent to. Following a good link again
// answers alike (mail scanners open links first). A malformed, tampered or
// foreign link is ErrVerifyLink, an expired one ErrVerifyExpired; nothing changes.
func (s *Service) VerifyEmail(ctx context.Context, token string) error {
	id, expires, head, mac, ok := parseVerifyToken(token)
	if !ok || s.verify == nil {
		return ErrVerifyLink
	}
	c, err := s.store.Customers().Customer(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return ErrVerifyLink
	}
	if err != nil {
		return fmt.Errorf("verify email: %w", err)
	}
	// The signature is checked first, so an expired answer says nothing of a forged link.
	if c.Email == nil || !hmac.Equal([]byte(mac), []byte(s.verify.mac(head, *c.Email))) {
		return ErrVerifyLink
	}
	if !s.now().Before(expires) {
		return ErrVerifyExpired
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		ok, err := tx.Customers().SetEmailVerified(ctx, id, *c.Email, tx.Now)
		if err != nil {
			return err
		}
		if !ok { // the email changed since it was read
			return ErrVerifyLink
		}
		_, err = tx.Customers().ClaimQualifying(ctx, id, reservation.Claimable)
		return err
	})
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return err
		}
		return fmt.Errorf("verify email of %d: %w", id, err)
	}
	return nil
}

// ResendVerification sends a new link to a signed-in account whose email is not
// verified; at most one every resendGap (ErrResendTooSoon). An account already
// verified is told so (nothing sent).
func (s *Service) ResendVerification(ctx context.Context, userID int64) error {
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Customers().Customer(ctx, userID)
		if err != nil {
			return err
		}
		if c.Email == nil {
			return errEmailRequired
		}
		if c.EmailVerified() {
			return fault.Coded(fault.Conflict, "err.account.already_verified")

		}
		if ok, err := tx.Customers().MarkVerificationSent(ctx, userID, tx.Now.Add(-resendGap)); err != nil {
			return err
		} else if !ok {
			return ErrResendTooSoon
		}
		return s.sendVerification(ctx, tx, c)
	})
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return err
		}
		return fmt.Errorf("resend verification to %d: %w", userID, err)
	}
	return nil
}
