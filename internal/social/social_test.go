package social

import (
	"errors"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
)

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"google": true, "azure-ad": true, "a1": true, "": false, "Google": false, "go/ogle": false, "-x": false,
		"a2345678901234567890123456789012345678901": false, // 41 characters: longer than the column allows
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

// email_verified arrives as a boolean, or from some providers as a string.
func TestTruthy(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{{true, true}, {false, false}, {"true", true}, {"false", false}, {nil, false}, {1.0, false}} {
		if got := truthy(c.v); got != c.want {
			t.Errorf("truthy(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestLookup(t *testing.T) {
	p := New([]ProviderConfig{{ID: "google", Name: "Google"}}, "https://parking.example", nil)
	if c, ok := p.Lookup("google"); !ok || c.Name != "Google" {
		t.Errorf("Lookup(google) = %+v, %v", c, ok)
	}
	if _, ok := p.Lookup("github"); ok {
		t.Error("Lookup of an unconfigured provider succeeded")
	}
	if got := p.redirectURL("google"); got != "https://parking.example/users/oidc/google/callback" {
		t.Errorf("redirect URL = %q", got)
	}
	var none *Providers
	if len(none.List()) != 0 {
		t.Error("nil providers list something")
	}
}

// A discovery failure is the configuration's when the provider answers but not as
// configured (another issuer, no document at the issuer's address), the
// provider's when it cannot be reached or fails.
func TestDiscoveryFault(t *testing.T) {
	for _, c := range []struct {
		err  error
		want error
	}{
		{&oidc.IssuerMismatchError{Provided: "https://id.example/", Discovered: "https://id.example"}, ErrMisconfigured},
		{errors.New("404 Not Found: no such page"), ErrMisconfigured},
		{errors.New("oidc: failed to decode provider discovery object: invalid character '<'"), ErrMisconfigured},
		{errors.New("503 Service Unavailable: down"), ErrUnreachable},
		{errors.New(`Get "https://id.example/.well-known/openid-configuration": dial tcp: connection refused`), ErrUnreachable},
	} {
		if got := discoveryFault("x", c.err); !errors.Is(got, c.want) {
			t.Errorf("%v: %v, want %v", c.err, got, c.want)
		}
	}
}
