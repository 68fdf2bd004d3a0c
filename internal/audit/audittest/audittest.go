// Package audittest holds what the tests of several operations check on audit
// entries.
package audittest

import (
	"testing"

	"parking/internal/audit"
)

// Changes maps an entry's changed fields to [before, after].
func Changes(e audit.Record) map[string][2]string {
	m := map[string][2]string{}
	for _, c := range e.Changes {
		m[c.Field] = [2]string{c.Before, c.After}
	}
	return m
}

// WantChanges fails t unless e changed exactly the fields of want, each from its
// first value to its second.
func WantChanges(t *testing.T, e audit.Record, want map[string][2]string) {
	t.Helper()
	got := Changes(e)
	if len(got) != len(want) {
		t.Errorf("%s: changes %v, want exactly %v", e.Action, got, want)
	}
	for f, w := range want {
		if got[f] != w {
			t.Errorf("%s: %s = %q → %q, want %q → %q", e.Action, f, got[f][0], got[f][1], w[0], w[1])
		}
	}
}

// Staff is the staff member the operations' tests act as.
var Staff = audit.Actor{Kind: audit.KindStaff, ID: 77, Name: "Marta Gil", Email: "marta@parking.test"}
