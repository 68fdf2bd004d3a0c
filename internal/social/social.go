// Package social is the OpenID Connect side of social login (docs/accounts.md
// 7): the providers named in the configuration, the authorization request
// (authorization code flow with PKCE, state and nonce) and the callback's code
// exchange and ID token verification, with github.com/coreos/go-oidc/v3 and
// golang.org/x/oauth2. It keeps no state of its own: the login in progress is kept
// by internal/account in the database, so any instance can take the callback.
// See docs/social-login.md.
package social

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"parking/internal/clock"
)

// ProviderConfig is one provider from the configuration (PARKING_OIDC_*).
type ProviderConfig struct {
	ID           string // lower-case id in URLs and in the SOCIAL_LOGIN_ hash: "google"
	Name         string // display name: "Google"
	Issuer       string // the issuer URL; its discovery document names the endpoints
	ClientID     string
	ClientSecret string
}

// validID is a provider id: it appears in paths and in the password_hash marker.
var validID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// ValidID reports whether id can name a provider.
func ValidID(id string) bool { return validID.MatchString(id) }

// Providers is the configured providers, each discovered on first use.
type Providers struct {
	list        []ProviderConfig
	redirectURL func(id string) string
	now         clock.Clock
	client      *http.Client

	mu         sync.Mutex
	discovered map[string]*oidc.Provider
}

// New builds the providers. baseURL is PARKING_BASE_URL: the callback address
// registered with each provider is {baseURL}/users/oidc/{id}/callback. now is the
// service's clock, against which ID tokens' times are checked.
func New(list []ProviderConfig, baseURL string, now clock.Clock) *Providers {
	if now == nil {
		now = clock.Real
	}
	return &Providers{
		list:        list,
		redirectURL: func(id string) string { return baseURL + "/users/oidc/" + id + "/callback" },
		now:         now,
		client:      &http.Client{Timeout: 10 * time.Second},
		discovered:  map[string]*oidc.Provider{},
	}
}

// List returns the configured providers, in configuration order (the login
// page's buttons).
func (p *Providers) List() []ProviderConfig {
	if p == nil {
		return nil
	}
	return p.list
}

// Lookup returns the configured provider with this id.
func (p *Providers) Lookup(id string) (ProviderConfig, bool) {
	for _, c := range p.List() {
		if c.ID == id {
			return c, true
		}
	}
	return ProviderConfig{}, false
}

// ErrUnreachable: the provider's discovery document could not be read.
var ErrUnreachable = errors.New("identity provider unreachable")

// provider discovers a provider once; a failure is not kept, so the next login
// tries again (a provider down at start does not disable it).
func (p *Providers) provider(ctx context.Context, c ProviderConfig) (*oidc.Provider, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if op, ok := p.discovered[c.ID]; ok {
		return op, nil
	}
	// The key set the provider fetches later lives beyond this request: it gets a
	// context of its own carrying the service's HTTP client.
	op, err := oidc.NewProvider(oidc.ClientContext(context.WithoutCancel(ctx), p.client), c.Issuer)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreachable, c.ID, err)
	}
	p.discovered[c.ID] = op
	return op, nil
}

func (p *Providers) oauth(c ProviderConfig, op *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID: c.ClientID, ClientSecret: c.ClientSecret,
		Endpoint:    op.Endpoint(),
		RedirectURL: p.redirectURL(c.ID),
		Scopes:      []string{oidc.ScopeOpenID, "email", "profile"},
	}
}

// Request is a new authorization request: where to send the browser, and the
// secrets to keep until the callback.
type Request struct {
	URL, State, Nonce, Verifier string
}

// Begin makes an authorization request for provider c: a random state (against
// forged callbacks), a random nonce (the ID token must carry it: against replayed
// tokens) and a PKCE verifier whose S256 challenge goes to the provider (against a
// stolen code).
func (p *Providers) Begin(ctx context.Context, c ProviderConfig) (Request, error) {
	op, err := p.provider(ctx, c)
	if err != nil {
		return Request{}, err
	}
	r := Request{State: oauth2.GenerateVerifier(), Nonce: oauth2.GenerateVerifier(), Verifier: oauth2.GenerateVerifier()}
	r.URL = p.oauth(c, op).AuthCodeURL(r.State, oidc.Nonce(r.Nonce), oauth2.S256ChallengeOption(r.Verifier))
	return r, nil
}

// Identity is what a verified ID token says about the person.
type Identity struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
}

// ErrRejected: the provider's answer was not accepted (code exchange failed, no ID
// token, bad signature, another issuer or audience, expired, wrong nonce).
var ErrRejected = errors.New("identity provider answer rejected")

// Finish exchanges the callback's code (with the PKCE verifier) and verifies the
// ID token: signature by the provider's keys, issuer, audience (our client id),
// expiry against the service's clock, and the nonce of this login.
func (p *Providers) Finish(ctx context.Context, c ProviderConfig, code, verifier, nonce string) (Identity, error) {
	op, err := p.provider(ctx, c)
	if err != nil {
		return Identity{}, err
	}
	ctx = oidc.ClientContext(ctx, p.client)
	tok, err := p.oauth(c, op).Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return Identity{}, fmt.Errorf("%w: code exchange: %v", ErrRejected, err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return Identity{}, fmt.Errorf("%w: no id_token in the token response", ErrRejected)
	}
	idt, err := op.VerifierContext(oidc.ClientContext(context.WithoutCancel(ctx), p.client),
		&oidc.Config{ClientID: c.ClientID, Now: p.now}).Verify(ctx, raw)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrRejected, err)
	}
	if idt.Nonce != nonce {
		return Identity{}, fmt.Errorf("%w: nonce does not match this login", ErrRejected)
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified any    `json:"email_verified"`
		Name          string `json:"name"`
	}
	if err := idt.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("%w: claims: %v", ErrRejected, err)
	}
	return Identity{Subject: idt.Subject, Email: claims.Email, EmailVerified: truthy(claims.EmailVerified), Name: claims.Name}, nil
}

// truthy reads email_verified, which some providers send as the string "true".
func truthy(v any) bool {
	switch b := v.(type) {
	case bool:
		return b
	case string:
		return b == "true"
	}
	return false
}
