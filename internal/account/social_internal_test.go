package account

import (
	"strings"
	"testing"
)

// The account name from a provider's name claim: control characters and runs of
// spaces folded, cut to the name limit, the email's local part when empty.
func TestSocialName(t *testing.T) {
	for _, c := range []struct{ name, email, want string }{
		{"Lucía  Pérez", "l@example.com", "Lucía Pérez"},
		{"Ana\x00\nRuiz", "a@example.com", "Ana Ruiz"},
		{"", "maria.gil@example.com", "maria.gil"},
		{strings.Repeat("ñ", 150), "x@example.com", strings.Repeat("ñ", 100)},
	} {
		if got := socialName(c.name, c.email); got != c.want {
			t.Errorf("socialName(%q, %q) = %q, want %q", c.name, c.email, got, c.want)
		}
	}
}
