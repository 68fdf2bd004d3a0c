package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Social login (docs/social-login.md). The OpenID Connect
// protocol lives in internal/social; this file keeps what it decides in the
// database: logins in progress, linked identities, and the accounts they open.

// SocialStateTTL is how long a login may stay at the provider.
const SocialStateTTL = 10 * time.Minute

// SocialLinkTTL is how long a pending link waits for the account's password.
const SocialLinkTTL = 15 * time.Minute

// The social-login refusals that need no argument.
var (
	ErrSocialStateInvalid = fault.Coded(fault.Invalid, "err.account.social_state_invalid")
	errSocialStaff        = fault.Coded(fault.Forbidden, "err.account.social_staff")
	errSocialLinkExpired  = fault.Coded(fault.Invalid, "err.account.social_link_expired")
	errSocialLinkOther    = fault.Coded(fault.Forbidden, "err.account.social_link_other")
	errSocialLinkedOther  = fault.Coded(fault.Conflict, "err.account.social_linked_other")
	errSocialRace         = fault.Coded(fault.Conflict, "err.account.social_race")
)

// SocialLoginHash is the password_hash of an account opened by social login: the
// spec's SOCIAL_LOGIN_ prefix, then the provider and the subject. It never matches
// a password (passwordMatches), and the password form refuses it (docs/errors.md#operation-responses).
func SocialLoginHash(provider, subject string) string {
	return SocialLoginPrefix + provider + "_" + subject
}

// LoginState is what a login in progress keeps while the person is at the provider.
type LoginState struct {
	Provider, Nonce, Verifier string
}

// BeginSocialLogin stores a login in progress under its state (only the state's
// hash is kept); it expires after SocialStateTTL.
func (s *Service) BeginSocialLogin(ctx context.Context, state string, ls LoginState) error {
	exp := s.now().Add(SocialStateTTL)
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		return tx.Accounts().InsertOIDCState(ctx, HashToken(state), store.OIDCState{
			Provider: ls.Provider, Nonce: ls.Nonce, Verifier: ls.Verifier, ExpiresAt: exp,
		})
	})
	if err != nil {
		return fmt.Errorf("begin social login: %w", err)
	}
	return nil
}

// TakeSocialLogin returns and removes the login in progress of a state, for
// provider: a state is good once, for the provider it was made for, until it
// expires. Anything else is ErrSocialStateInvalid (400).
func (s *Service) TakeSocialLogin(ctx context.Context, provider, state string) (LoginState, error) {
	if state == "" {
		return LoginState{}, ErrSocialStateInvalid
	}
	var st store.OIDCState
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		var err error
		st, err = tx.Accounts().TakeOIDCState(ctx, HashToken(state))
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return LoginState{}, ErrSocialStateInvalid
	}
	if err != nil {
		return LoginState{}, fmt.Errorf("take social login: %w", err)
	}
	if st.Provider != provider || !s.now().Before(st.ExpiresAt) {
		return LoginState{}, ErrSocialStateInvalid
	}
	return LoginState{Provider: st.Provider, Nonce: st.Nonce, Verifier: st.Verifier}, nil
}

// SocialIdentity is what a provider asserted in a verified ID token.
type SocialIdentity struct {
	Provider      string // the configured provider id ("google")
	ProviderName  string // its display name ("Google"), for messages
	Subject       string // the provider's stable id of the person
	Email         string
	EmailVerified bool
	Name          string
}

// SocialOutcome is the result of a social login: a user to start a session for,
// or (LinkToken set) an existing account that must be proved with its password.
type SocialOutcome struct {
	User      User
	Created   bool
	LinkToken string
	LinkEmail string
}

// SocialLogin finds or opens the account of a provider identity (spec,
// Authentication 7). An identity already linked logs in to its account. Otherwise
// a verified email is needed; if no account has it, a REGISTRADO account is opened
// with the SOCIAL_LOGIN_ hash and the identity linked, in one transaction. An
// existing account with that email is never taken over by the email claim: when it
// has a password of its own, a pending link is stored and the caller asks for that
// password (LinkSocial); staff accounts and accounts of another provider are refused.
func (s *Service) SocialLogin(ctx context.Context, id SocialIdentity) (SocialOutcome, error) {
	var out SocialOutcome
	email := strings.TrimSpace(id.Email)
	// OpenID Connect caps the subject at 255 ASCII characters (Core 1.0, 2); the
	// link table holds that much.
	if id.Subject == "" || len(id.Subject) > 255 {
		return out, fault.Coded(fault.Invalid, "err.account.social_unidentified", "Provider", id.ProviderName)
	}
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Accounts().CustomerBySocialIdentity(ctx, id.Provider, id.Subject)
		if err == nil {
			out.User = UserOf(c)
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if email == "" || !id.EmailVerified {
			return fault.Coded(fault.Forbidden, "err.account.social_no_email", "Provider", id.ProviderName)
		}
		if email, err = input.Email("email", email); err != nil {
			return fault.Coded(fault.Forbidden, "err.account.social_no_email", "Provider", id.ProviderName)
		}
		existing, err := tx.Accounts().AccountByEmailTx(ctx, email)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return s.openSocialAccount(ctx, tx, id, email, &out)
		case err != nil:
			return err
		case existing.Type == reservation.Admin:
			return errSocialStaff
		case !HasOwnPassword(existing.PasswordHash):
			return fault.Coded(fault.Conflict, "err.account.social_other_provider", "Email", email)
		}
		token, hash := NewToken()
		out.LinkToken, out.LinkEmail = token, email
		return tx.Accounts().InsertPendingLink(ctx, hash, store.PendingLink{
			Provider: id.Provider, Subject: id.Subject, Email: email, CustomerID: existing.ID,
			ExpiresAt: s.now().Add(SocialLinkTTL),
		})
	})
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return SocialOutcome{}, err
		}
		if store.IsUniqueViolation(err) { // a concurrent first login of the same identity or email
			return SocialOutcome{}, errSocialRace
		}
		return SocialOutcome{}, fmt.Errorf("social login with %s: %w", id.Provider, err)
	}
	return out, nil
}

func (s *Service) openSocialAccount(ctx context.Context, tx *store.Tx, id SocialIdentity, email string, out *SocialOutcome) error {
	id2, ok, err := tx.Accounts().InsertAccountIfFree(ctx, store.NewAccount{
		FullName: socialName(id.Name, email), Email: email, Type: reservation.Registered,
		PasswordHash: SocialLoginHash(id.Provider, id.Subject),
	})
	if err != nil {
		return err
	}
	if !ok { // the email was taken since it was looked up
		return errSocialRace

	}
	if err := tx.Accounts().InsertSocialIdentity(ctx, id.Provider, id.Subject, id2, email); err != nil {
		return err
	}
	// The provider has verified the email (SocialLogin requires it).
	if _, err := tx.Customers().SetEmailVerified(ctx, id2, email, tx.Now); err != nil {
		return err
	}
	c, err := tx.Customers().Customer(ctx, id2)
	if err != nil {
		return err
	}
	out.User, out.Created = UserOf(c), true
	return nil
}

// socialName is the account name from the provider's name claim: control and
// bidirectional characters dropped, cut to the name limit; the email's local part if empty.
func socialName(name, email string) string {
	name = strings.Map(func(r rune) rune {
		if input.Forbidden(r) {
			return ' '
		}
		return r
	}, name)
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	for utf8.RuneCountInString(name) > input.MaxName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// PendingLinkEmail returns the email of the account a pending link waits for.
func (s *Service) PendingLinkEmail(ctx context.Context, token string) (string, error) {
	p, err := s.pendingLink(ctx, token)
	if err != nil {
		return "", err
	}
	return p.Email, nil
}

func (s *Service) pendingLink(ctx context.Context, token string) (store.PendingLink, error) {
	if token == "" {
		return store.PendingLink{}, errSocialLinkExpired
	}
	p, err := s.store.Accounts().PendingLink(ctx, HashToken(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !s.now().Before(p.ExpiresAt)) {
		return store.PendingLink{}, errSocialLinkExpired
	}
	if err != nil {
		return store.PendingLink{}, fmt.Errorf("pending link: %w", err)
	}
	return p, nil
}

// LinkSocial completes a pending link: the person proves the existing account by
// its password (the login's throttling applies, addr is the client's address);
// then the identity is linked to it and its user returned. The pending link is
// used once.
func (s *Service) LinkSocial(ctx context.Context, token, password, addr string) (User, error) {
	p, err := s.pendingLink(ctx, token)
	if err != nil {
		return User{}, err
	}
	u, err := s.Login(ctx, p.Email, password, addr)
	if err != nil {
		return User{}, err
	}
	if u.ID != p.CustomerID { // the account's email changed since the link was offered
		return User{}, errSocialLinkOther
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		ok, err := tx.Accounts().DeletePendingLink(ctx, HashToken(token))
		if err != nil {
			return err
		}
		if !ok {
			return errSocialLinkExpired
		}
		return tx.Accounts().InsertSocialIdentity(ctx, p.Provider, p.Subject, p.CustomerID, p.Email)
	})
	if store.IsUniqueViolation(err) {
		return User{}, errSocialLinkedOther
	}
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return User{}, err
		}
		return User{}, fmt.Errorf("link social identity: %w", err)
	}
	s.log.InfoContext(ctx, "social identity linked", "id_customer", u.ID, "provider", p.Provider)
	return u, nil
}

// HasOwnPasswordOf reports whether the account has a password of its own (not a
// social-login one): what a confirmation asks for depends on it.
func (s *Service) HasOwnPasswordOf(ctx context.Context, userID int64) (bool, error) {
	c, err := s.store.Customers().Customer(ctx, userID)
	if err != nil {
		return false, fmt.Errorf("account %d: %w", userID, err)
	}
	return HasOwnPassword(c.PasswordHash), nil
}

// ConfirmPassword checks a signed-in user's password before a grave step (the
// login's throttling applies; addr is the client's address): ErrBadCredentials if
// it is not the account's.
func (s *Service) ConfirmPassword(ctx context.Context, u User, password, addr string) error {
	got, err := s.Login(ctx, u.Email, password, addr)
	if err != nil {
		return err
	}
	if got.ID != u.ID {
		return ErrBadCredentials
	}
	return nil
}
