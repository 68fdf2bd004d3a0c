package account

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"parking/internal/clock"
	"parking/internal/fault"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// newTestService returns a service on a fresh database whose clock (the store's,
// which the service reads too) the test moves.
func newTestService(t *testing.T, d store.Dialect) (*Service, *clock.Fake) {
	t.Helper()
	st, clk := storetest.OpenClock(t, d)
	return New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), WithHashCost(bcrypt.MinCost)), clk
}

func addAccount(t *testing.T, s *Service, email, password string) {
	t.Helper()
	hash, err := HashPassword(password, bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	err = s.store.InTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Accounts().InsertAccount(context.Background(), store.NewAccount{FullName: "T", Email: email, Type: reservation.Registered, PasswordHash: hash})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// retryAfter returns the wait of a throttled login, 0 for any other outcome.
func retryAfter(err error) time.Duration {
	var th *ThrottledError
	if fault.KindOf(err) == fault.TooMany && errors.As(err, &th) {
		return th.RetryAfter
	}
	return 0
}

// The throttle's schedule: five free failures per account, then lockouts of 30 s,
// 1 min, 2 min… capped at 15 min, counted over a sliding hour; a refused attempt is
// not counted; success clears the account's count; other accounts are unaffected.
func TestThrottleSchedule(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		s, now := newTestService(t, d)
		ctx := context.Background()
		addAccount(t, s, "ana@example.com", "right-password")
		addAccount(t, s, "bea@example.com", "right-password")
		const addr = "203.0.113.7:51000"

		for i := 0; i < 5; i++ {
			if _, err := s.Login(ctx, "ana@example.com", "wrong", addr); fault.KindOf(err) != fault.Unauthorized {
				t.Fatalf("failure %d: err = %v, want Unauthorized", i+1, err)
			}
		}
		_, err := s.Login(ctx, "ana@example.com", "right-password", addr)
		if got := retryAfter(err); got != 30*time.Second {
			t.Fatalf("after 5 failures: retry after %v (err %v), want 30s", got, err)
		}
		if msg := fault.MessageOf(err, ""); msg != "Demasiados intentos de acceso fallidos. Por seguridad, espere 30 segundos antes de volver a intentarlo." {
			t.Errorf("message = %q", msg)
		}
		// Waiting does not make it worse: refused attempts are not counted.
		for i := 0; i < 10; i++ {
			s.Login(ctx, "ana@example.com", "wrong", addr)
		}
		now.Advance(20 * time.Second)
		if got := retryAfter(func() error { _, err := s.Login(ctx, "ana@example.com", "wrong", addr); return err }()); got != 10*time.Second {
			t.Errorf("20 s later: retry after %v, want 10s", got)
		}
		// Each further failure, once the lockout has passed, doubles it, up to 15
		// minutes (all of these stay inside the hour's window).
		now.Advance(10 * time.Second)
		for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute} {
			if _, err := s.Login(ctx, "ana@example.com", "wrong", addr); fault.KindOf(err) != fault.Unauthorized {
				t.Fatalf("step %d: err = %v, want a checked failure", i, err)
			}
			_, err := s.Login(ctx, "ana@example.com", "right-password", addr)
			if got := retryAfter(err); got != want {
				t.Errorf("failure %d: retry after %v, want %v", 6+i, got, want)
			}
			now.Advance(want)
		}
		// Another account from the same address is not locked.
		if _, err := s.Login(ctx, "bea@example.com", "right-password", addr); err != nil {
			t.Errorf("other account: %v", err)
		}
		// After the lockout the owner logs in, and the count starts again.
		if _, err := s.Login(ctx, "ana@example.com", "right-password", addr); err != nil {
			t.Fatalf("after the lockout: %v", err)
		}
		for i := 0; i < 5; i++ {
			if _, err := s.Login(ctx, "ana@example.com", "wrong", addr); fault.KindOf(err) != fault.Unauthorized {
				t.Fatalf("after success, failure %d throttled: %v", i+1, err)
			}
		}
		// A quiet hour forgets everything.
		now.Advance(time.Hour + time.Second)
		if _, err := s.Login(ctx, "ANA@example.com", "right-password", addr); err != nil {
			t.Fatalf("an hour later: %v", err)
		}
	})
}

// The per-address limit: twenty failures from one address, over any accounts
// (existing or not), lock that address for a minute; other addresses are not
// affected; an IPv6 client is one /64.
func TestThrottleAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		s, now := newTestService(t, d)
		ctx := context.Background()
		addAccount(t, s, "ana@example.com", "right-password")
		for i := 0; i < 20; i++ {
			addr := "[2001:db8:1:2::" + strconv.Itoa(i+1) + "]:4000" // one /64, many addresses
			if _, err := s.Login(ctx, "guess"+strconv.Itoa(i)+"@example.com", "wrong", addr); fault.KindOf(err) != fault.Unauthorized {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		_, err := s.Login(ctx, "ana@example.com", "right-password", "[2001:db8:1:2::ffff]:1")
		if got := retryAfter(err); got != time.Minute {
			t.Fatalf("same /64: retry after %v (err %v), want 1m", got, err)
		}
		if _, err := s.Login(ctx, "ana@example.com", "right-password", "[2001:db8:1:3::1]:1"); err != nil {
			t.Errorf("another /64: %v", err)
		}
		if _, err := s.Login(ctx, "ana@example.com", "right-password", "198.51.100.1:1"); err != nil {
			t.Errorf("another address: %v", err)
		}
		now.Advance(time.Minute)
		if _, err := s.Login(ctx, "ana@example.com", "right-password", "[2001:db8:1:2::ffff]:1"); err != nil {
			t.Errorf("after a minute: %v", err)
		}
	})
}

// Old failures are pruned as new ones arrive, so the table stays small.
func TestThrottlePrunes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		s, now := newTestService(t, d)
		ctx := context.Background()
		for i := 0; i < 3; i++ {
			s.Login(ctx, "x"+strconv.Itoa(i)+"@example.com", "wrong", "192.0.2.1:1")
		}
		now.Advance(2 * time.Hour)
		s.Login(ctx, "y@example.com", "wrong", "192.0.2.2:1")
		var n int
		if err := s.store.DB().QueryRow(`SELECT COUNT(*) FROM throttle_failure`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("throttle_failure rows = %d, want 2 (the new failure's two keys)", n)
		}
	})
}

// Tokens issued through a session never outlive it; revoking works once.
func TestSessionTokenCappedBySession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		s, now := newTestService(t, d)
		ctx := context.Background()
		addAccount(t, s, "ana@example.com", "right-password")
		u, err := s.Authenticate(ctx, "ana@example.com", "right-password")
		if err != nil {
			t.Fatal(err)
		}
		sess, err := s.StartSession(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.IssueSessionToken(ctx, sess, 720*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if want := now.Now().Add(SessionAbsolute); !tok.ExpiresAt.Equal(want) {
			t.Errorf("expires %v, want the session's end %v", tok.ExpiresAt, want)
		}
		if _, err := s.TokenUser(ctx, tok.Token); err != nil {
			t.Fatal(err)
		}
		now.Advance(SessionAbsolute)
		if _, err := s.TokenUser(ctx, tok.Token); !errors.Is(err, ErrNoToken) {
			t.Errorf("past the session's end: %v, want ErrNoToken", err)
		}
		if _, err := s.IssueSessionToken(ctx, "no-such-session", time.Hour); !errors.Is(err, ErrNoSession) {
			t.Errorf("unknown session: %v", err)
		}
		plain, err := s.IssueToken(ctx, u, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RevokeToken(ctx, plain.Token); err != nil {
			t.Fatal(err)
		}
		if err := s.RevokeToken(ctx, plain.Token); !errors.Is(err, ErrNoToken) {
			t.Errorf("second revoke: %v", err)
		}
	})
}

// Production hashing keeps the bcrypt cost (docs/accounts.md#customer-types).
func TestHashCost(t *testing.T) {
	if BcryptCost < 10 {
		t.Fatalf("BcryptCost = %d, docs/accounts.md#customer-types wants ≥ 10", BcryptCost)
	}
}
