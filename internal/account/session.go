package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/store"
)

// ErrNoSession: the cookie names no live session (unknown, idle too long, or past
// its absolute lifetime).
var ErrNoSession = errors.New("no session")

// touchEvery limits last-seen writes to one a minute per session: the idle timeout
// is two hours, so minute precision is plenty and most requests stay read-only.
const touchEvery = time.Minute

// StartSession creates a session for the user and returns its secret token (for
// the cookie). A new token at every login is the session renewal of docs/accounts.md#sessions.
func (s *Service) StartSession(ctx context.Context, userID int64) (string, error) {
	token, hash := NewToken()
	now := s.now()
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		// Sessions past their absolute lifetime are deleted here, at the rate of
		// logins, so the table does not grow with abandoned sessions.
		if err := tx.Accounts().PruneSessions(ctx, now); err != nil {
			return err
		}
		return tx.Accounts().InsertSession(ctx, hash, userID, now, now.Add(SessionAbsolute))
	})
	if err != nil {
		return "", fmt.Errorf("start session: %w", err)
	}
	return token, nil
}

// SessionUser returns the user of a live session token, refreshing its idle clock.
func (s *Service) SessionUser(ctx context.Context, token string) (User, error) {
	if token == "" {
		return User{}, ErrNoSession
	}
	hash := HashToken(token)
	now := s.now()
	sess, err := s.store.Accounts().Session(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return User{}, ErrNoSession
	}
	if err != nil {
		return User{}, fmt.Errorf("load session: %w", err)
	}
	if !now.Before(sess.ExpiresAt) || now.Sub(sess.LastSeenAt) >= SessionIdle {
		_ = s.EndSession(ctx, token)
		return User{}, ErrNoSession
	}
	if now.Sub(sess.LastSeenAt) >= touchEvery {
		if err := s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Accounts().TouchSession(ctx, hash, now) }); err != nil {
			s.log.Warn("session touch failed", "err", err)
		}
	}
	return UserOf(sess.Customer), nil
}

// EndSession deletes a session and revokes the API tokens issued for it.
func (s *Service) EndSession(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	hash := HashToken(token)
	return s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Accounts().DeleteSession(ctx, hash) })
}
