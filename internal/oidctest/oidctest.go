// Package oidctest runs a real OpenID Connect provider inside a test
// (github.com/oauth2-proxy/mockoidc) and the service configured to log in with it,
// for the social-login tests over HTTP and in the browser.
package oidctest

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock"
	"parking/internal/social"
	"parking/internal/store"
)

// ProviderID and ProviderName are the test provider's id and button name.
const (
	ProviderID   = "mock"
	ProviderName = "Proveedor de prueba"
)

// Env is the service and its provider.
type Env struct {
	App      *app.App
	Clock    *clock.Fake
	Provider *mockoidc.MockOIDC
	// Other is a second provider with another issuer that signs with the same key
	// and shares Provider's sessions: a token it issues is genuine in every way
	// except its issuer.
	Other *mockoidc.MockOIDC

	mu    sync.Mutex
	token func(w http.ResponseWriter, r *http.Request, next http.Handler)
}

// nowMu serialises the tests that point mockoidc's clock (a package variable) at
// their service's fake clock.
var nowMu sync.Mutex

// Start runs a provider and the service on dialect d, with PARKING_BASE_URL
// carrying the service's real port so the provider's redirect comes back to it.
// The provider reads the service's fake clock, so token times agree with it.
func Start(t *testing.T, d store.Dialect) *Env {
	t.Helper()
	return StartWith(t, d, func(*app.Config) {})
}

// StartWith is Start with a chance to adjust the configuration.
func StartWith(t *testing.T, d store.Dialect, adjust func(*app.Config)) *Env {
	t.Helper()
	cfg, clk := apptest.ConfigClock(t, d)
	e := &Env{Clock: clk}
	nowMu.Lock()
	mockoidc.NowFunc = clk.Now
	t.Cleanup(func() { mockoidc.NowFunc = time.Now; nowMu.Unlock() })

	e.Provider = e.startProvider(t, true)
	e.Other = e.startProvider(t, false)
	e.Other.ClientID, e.Other.ClientSecret = e.Provider.ClientID, e.Provider.ClientSecret
	e.Other.SessionStore = e.Provider.SessionStore

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listener = ln
	cfg.BaseURL = "http://" + ln.Addr().String()
	cfg.OIDCProviders = []social.ProviderConfig{{
		ID: ProviderID, Name: ProviderName, Issuer: e.Provider.Issuer(),
		ClientID: e.Provider.ClientID, ClientSecret: e.Provider.ClientSecret,
	}}
	adjust(&cfg)
	e.App = apptest.StartWith(t, cfg)
	return e
}

func (e *Env) startProvider(t *testing.T, hooked bool) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	if hooked {
		_ = m.AddMiddleware(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				e.mu.Lock()
				h := e.token
				e.mu.Unlock()
				if h != nil && r.URL.Path == mockoidc.TokenEndpoint {
					h(w, r, next)
					return
				}
				next.ServeHTTP(w, r)
			})
		})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	return m
}

// OnToken replaces the provider's token endpoint (nil: the real one); h may call
// next to get the provider's own answer.
func (e *Env) OnToken(h func(w http.ResponseWriter, r *http.Request, next http.Handler)) {
	e.mu.Lock()
	e.token = h
	e.mu.Unlock()
}

// TokenFromOther makes the token endpoint answer with what the other issuer's
// token endpoint answers to the same request.
func (e *Env) TokenFromOther(t *testing.T) {
	e.OnToken(func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
		body, _ := io.ReadAll(r.Body)
		req, err := http.NewRequestWithContext(r.Context(), "POST", e.Other.TokenEndpoint(), bytes.NewReader(body))
		if err != nil {
			t.Error(err)
			return
		}
		req.Header = r.Header.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		defer res.Body.Close()
		w.Header().Set("Content-Type", res.Header.Get("Content-Type"))
		w.WriteHeader(res.StatusCode)
		_, _ = io.Copy(w, res.Body)
	})
}

// User queues the person who logs in next at the provider.
func (e *Env) User(subject, email string, verified bool) {
	e.Provider.QueueUser(&mockoidc.MockUser{Subject: subject, Email: email, EmailVerified: verified, PreferredUsername: subject})
}
