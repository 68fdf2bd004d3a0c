package database

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"parking/internal/fault"
)

// The one classification of "the database cannot serve now" (docs/reliability.md), and
// fault.KindOf seeing it through the registration; other faults stay Internal.
func TestIsUnavailable(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: "connection refused"}}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"admin shutdown 57P01", &pgconn.PgError{Code: "57P01"}, true},
		{"crash shutdown 57P02", &pgconn.PgError{Code: "57P02"}, true},
		{"cannot connect now 57P03", &pgconn.PgError{Code: "57P03"}, true},
		{"connection exception 08006", &pgconn.PgError{Code: "08006"}, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
		{"dial refused", fmt.Errorf("open postgres: %w", refused), true},
		{"ECONNREFUSED", fmt.Errorf("x: %w", syscall.ECONNREFUSED), true},
		{"deadline", fmt.Errorf("begin transaction: %w", context.DeadlineExceeded), true},
		{"conn closed", fmt.Errorf("q: %w", pgconn.ErrConnClosed), true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"syntax error", &pgconn.PgError{Code: "42601"}, false},
		{"client gone", fmt.Errorf("q: %w", context.Canceled), false},
		{"plain", errors.New("boom"), false},
		{"nil", nil, false},
	}
	for _, c := range cases {
		if got := IsUnavailable(c.err); got != c.want {
			t.Errorf("%s: IsUnavailable = %v, want %v", c.name, got, c.want)
		}
		wantKind := fault.Internal
		if c.want {
			wantKind = fault.Unavailable
		}
		if c.err != nil && fault.KindOf(c.err) != wantKind {
			t.Errorf("%s: fault.KindOf = %v, want %v", c.name, fault.KindOf(c.err), wantKind)
		}
	}
	// An explicit fault keeps its kind; an Internal one wrapping an outage is Unavailable.
	if k := fault.KindOf(&fault.Error{Kind: fault.Invalid, Err: syscall.ECONNREFUSED}); k != fault.Invalid {
		t.Errorf("invalid fault wrapping an outage: %v", k)
	}
	if k := fault.KindOf(&fault.Error{Kind: fault.Internal, Err: syscall.ECONNREFUSED}); k != fault.Unavailable {
		t.Errorf("internal fault wrapping an outage: %v", k)
	}
	if m := fault.MessageOf(fmt.Errorf("x: %w", context.DeadlineExceeded), "Error interno"); m != fault.MsgUnavailable {
		t.Errorf("message of an outage: %q", m)
	}
}
