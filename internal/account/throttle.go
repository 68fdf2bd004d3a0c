package account

import (
	"context"
	"fmt"
	"math"
	"net"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/store"
)

// Login throttling (issue 3): failed logins are counted per account (the email
// typed, whether or not such an account exists, so lockouts reveal nothing) and
// per client address, over a sliding window. Past a small number of failures each
// further attempt must wait for a lockout that doubles with every failure, up to a
// ceiling; a refused attempt is not checked (no bcrypt) and not counted, so the
// lockout never grows while someone waits it out. A successful login clears the
// account's count. The worst the real owner of a targeted account sees is a
// wait of throttleMaxLockout.
//
// The counts live in the database (table throttle_failure), like sessions, so that
// several instances share them and a restart does not reset them; the only cost is
// an indexed read per login and a write per failure, and failures are themselves
// limited by the throttle.
type throttleRule struct {
	limit int           // failures in the window before lockouts start
	base  time.Duration // first lockout; doubles with each further failure
}

var (
	accountRule = throttleRule{limit: 5, base: 30 * time.Second}
	addressRule = throttleRule{limit: 20, base: time.Minute}
)

// throttleWindow is how far back failures count; throttleMaxLockout caps a lockout.
const (
	throttleWindow     = time.Hour
	throttleMaxLockout = 15 * time.Minute
)

// ThrottledError is the cause of a fault.TooMany from Login: how long to wait.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string { return fmt.Sprintf("login throttled for %s", e.RetryAfter) }

// lockout is how long after the newest failure the next attempt must wait, given
// the failures in the window (newest first).
func (r throttleRule) lockout(failures []time.Time, now time.Time) time.Duration {
	over := len(failures) - r.limit
	if over < 0 || len(failures) == 0 {
		return 0
	}
	d := throttleMaxLockout
	if over < 16 {
		d = min(r.base*time.Duration(math.Pow(2, float64(over))), throttleMaxLockout)
	}
	return max(failures[0].Add(d).Sub(now), 0)
}

// throttleKeys returns the hashed keys of an attempt: the account and the address
// (IPv6 addresses by /64, since one client usually holds the whole prefix).
func throttleKeys(email, addr string) (account, address string) {
	account = HashToken("account:" + strings.ToLower(strings.TrimSpace(email)))
	if addr == "" {
		return account, ""
	}
	host := addr
	if h, _, err := net.SplitHostPort(addr); err == nil {
		host = h
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		host = ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return account, HashToken("address:" + host)
}

// throttled reports how long the attempt must wait (0: go ahead).
func (s *Service) throttled(ctx context.Context, accountKey, addressKey string, now time.Time) (time.Duration, error) {
	keys := []string{accountKey}
	if addressKey != "" {
		keys = append(keys, addressKey)
	}
	failures, err := s.store.Accounts().ThrottleFailures(ctx, now.Add(-throttleWindow), keys...)
	if err != nil {
		return 0, err
	}
	wait := accountRule.lockout(failures[accountKey], now)
	if addressKey != "" {
		wait = max(wait, addressRule.lockout(failures[addressKey], now))
	}
	return wait, nil
}

// throttleFault is the refusal of a throttled attempt (HTTP 429, Retry-After).
func throttleFault(wait time.Duration) error {
	key, n := "err.account.throttled_minutes", int(math.Ceil(wait.Minutes()))
	if secs := int(math.Ceil(wait.Seconds())); secs < 60 {
		key, n = "err.account.throttled_seconds", secs
	}

	return throttled(fault.Coded(fault.TooMany, key, "Count", n), wait)
}

// throttled is refusal with its wait as its cause (ThrottledError: the web layer
// answers it as Retry-After).
func throttled(refusal *fault.Error, wait time.Duration) *fault.Error {
	refusal.Err = &ThrottledError{RetryAfter: wait}
	return refusal
}

// Login checks an email and password with throttling (see throttleRule). addr is
// the client's address (host:port or host; "" skips the per-address limit). Errors:
// ErrBadCredentials (fault.Unauthorized), or a fault.TooMany whose cause is a
// *ThrottledError.
func (s *Service) Login(ctx context.Context, email, password, addr string) (User, error) {
	if _, err := loginEmail(email); err != nil {
		return User{}, err
	}
	now := s.now()
	accountKey, addressKey := throttleKeys(email, addr)
	wait, err := s.throttled(ctx, accountKey, addressKey, now)
	if err != nil {
		return User{}, fmt.Errorf("login throttle: %w", err)
	}
	if wait > 0 {
		return User{}, throttleFault(wait)
	}
	u, err := s.Authenticate(ctx, email, password)
	if fault.KindOf(err) == fault.Unauthorized {
		keys := []string{accountKey}
		if addressKey != "" {
			keys = append(keys, addressKey)
		}
		if rerr := s.store.InTx(ctx, func(tx *store.Tx) error {
			return tx.Accounts().RecordThrottleFailure(ctx, s.now(), now.Add(-throttleWindow), keys...)
		}); rerr != nil {
			s.log.ErrorContext(ctx, "recording a failed login failed", "err", rerr)
		}
		return User{}, err
	}
	if err != nil {
		return User{}, err
	}
	if cerr := s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Accounts().ClearThrottleFailures(ctx, accountKey) }); cerr != nil {
		s.log.ErrorContext(ctx, "clearing login failures failed", "err", cerr)
	}
	return u, nil
}
