package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/store"
)

// ErrNoToken: the bearer token is missing, unknown, expired or revoked.
var ErrNoToken = errors.New("no valid API token")

// Token is an issued API token (docs/accounts.md#api-tokens). The secret is shown once; only its
// hash is stored.
type Token struct {
	Token     string
	ExpiresAt time.Time
	User      User
}

// tokenGrace keeps expired token rows a day before they are pruned, so that a
// client presenting one still gets a plain 401 rather than a different answer.
const tokenGrace = 24 * time.Hour

// IssueToken creates an API token for the user, valid for ttl (PARKING_TOKEN_TTL).
func (s *Service) IssueToken(ctx context.Context, u User, ttl time.Duration) (Token, error) {
	return s.issue(ctx, u, nil, s.now().Add(ttl))
}

// IssueSessionToken creates an API token for the user of a live web session (the
// administrators' dashboard gets its token this way). The token is bound to the
// session: it never outlives the session's absolute lifetime, and ending the
// session (logout) revokes it.
func (s *Service) IssueSessionToken(ctx context.Context, sessionToken string, ttl time.Duration) (Token, error) {
	if sessionToken == "" {
		return Token{}, ErrNoSession
	}
	hash := HashToken(sessionToken)
	sess, err := s.store.Accounts().Session(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return Token{}, ErrNoSession
	}
	if err != nil {
		return Token{}, fmt.Errorf("issue session token: %w", err)
	}
	expires := s.now().Add(ttl)
	if sess.ExpiresAt.Before(expires) {
		expires = sess.ExpiresAt
	}
	return s.issue(ctx, UserOf(sess.Customer), &hash, expires)
}

func (s *Service) issue(ctx context.Context, u User, sessionHash *string, expires time.Time) (Token, error) {
	token, hash := NewToken()
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.Accounts().PruneAPITokens(ctx, tx.Now.Add(-tokenGrace)); err != nil {
			return err
		}
		return tx.Accounts().InsertAPIToken(ctx, hash, u.ID, sessionHash, expires)
	})
	if err != nil {
		return Token{}, fmt.Errorf("issue token: %w", err)
	}
	return Token{Token: token, ExpiresAt: store.Time(expires), User: u}, nil
}

// TokenUser returns the user of a live API token; ErrNoToken otherwise.
func (s *Service) TokenUser(ctx context.Context, token string) (User, error) {
	if token == "" || len(token) > 512 {
		return User{}, ErrNoToken
	}
	rec, err := s.store.Accounts().APIToken(ctx, HashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return User{}, ErrNoToken
	}
	if err != nil {
		return User{}, fmt.Errorf("load api token: %w", err)
	}
	if rec.RevokedAt != nil || !s.now().Before(rec.ExpiresAt) {
		return User{}, ErrNoToken
	}
	return UserOf(rec.Customer), nil
}

// RevokeToken revokes a live API token; ErrNoToken if it is not one.
func (s *Service) RevokeToken(ctx context.Context, token string) error {
	if token == "" || len(token) > 512 {
		return ErrNoToken
	}
	var ok bool
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		var err error
		ok, err = tx.Accounts().RevokeAPIToken(ctx, HashToken(token))
		return err
	})
	if err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	if !ok {
		return ErrNoToken
	}
	return nil
}
