package ui_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Social login against a real OpenID provider, github.com/zitadel/oidc's op
// package, served in the test with a small in-memory storage (opStorage below).
// Unlike the mock provider, it sends its default claims: the ID token carries no
// email, only the UserInfo endpoint does.

// opPerson is who logs in at the provider next.
type opPerson struct {
	sub, email, name string
	verified         bool
}

// opStorage is the provider's storage: one client, the people, the authorization
// requests and access tokens in memory. The parts of op.Storage the authorization
// code flow does not use are left to the embedded interface (nil): calling one
// would panic, which would show the flow went somewhere unexpected.
type opStorage struct {
	op.Storage
	clientID, redirect string
	key                *rsa.PrivateKey

	mu             sync.Mutex // guards what follows, which tests change between logins
	secret         string
	emailInIDToken bool // the client asks for the userinfo claims in the ID token
	next           opPerson
	userinfo       *opPerson // when set, UserInfo answers about this person instead
	requests       map[string]*opRequest
	codes          map[string]string // code → request id
	tokens         map[string]string // access token id → subject
	people         map[string]opPerson
}

func newOPStorage(t *testing.T, clientID, secret, redirect string) *opStorage {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return &opStorage{clientID: clientID, secret: secret, redirect: redirect, key: key,
		requests: map[string]*opRequest{}, codes: map[string]string{}, tokens: map[string]string{}, people: map[string]opPerson{}}
}

func (s *opStorage) Health(context.Context) error { return nil }

func (s *opStorage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	if id != s.clientID {
		return nil, errors.New("unknown client")
	}
	return &opClient{s: s}, nil
}

func (s *opStorage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != s.clientID || secret != s.secret {
		return errors.New("wrong client credentials")
	}
	return nil
}

func (s *opStorage) CreateAuthRequest(_ context.Context, r *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := &opRequest{id: rand.Text(), AuthRequest: *r}
	s.requests[req.id] = req
	return req, nil
}

func (s *opStorage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.requests[id]; ok {
		return r, nil
	}
	return nil, errors.New("no such request")
}

func (s *opStorage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id := s.codes[code]
	s.mu.Unlock()
	return s.AuthRequestByID(ctx, id)
}

func (s *opStorage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

func (s *opStorage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	return nil
}

func (s *opStorage) CreateAccessToken(_ context.Context, r op.TokenRequest) (string, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := rand.Text()
	s.tokens[id] = r.GetSubject()
	return id, time.Now().Add(5 * time.Minute), nil // the library stamps tokens with the wall clock
}

// set changes the provider between logins.
func (s *opStorage) set(f func(s *opStorage)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// login marks a request done for the next person.
func (s *opStorage) login(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.requests[id]
	if !ok {
		return errors.New("no such request")
	}
	r.subject, r.done = s.next.sub, true
	s.people[s.next.sub] = s.next
	return nil
}

// fill writes the claims of the scopes asked for (email, profile) about sub; the
// UserInfo endpoint (fromToken) answers about s.userinfo instead when a test sets it.
func (s *opStorage) fill(info *oidc.UserInfo, sub string, scopes []string, fromToken bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.people[sub]
	if fromToken && s.userinfo != nil {
		p = *s.userinfo
	}
	info.Subject = p.sub
	for _, scope := range scopes {
		switch scope {
		case oidc.ScopeEmail:
			info.Email, info.EmailVerified = p.email, oidc.Bool(p.verified)
		case oidc.ScopeProfile:
			info.Name = p.name
		}
	}
}

func (s *opStorage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest gives the ID token the claims of its scopes: without
// IDTokenUserinfoClaimsAssertion the library has removed email and profile, so the
// ID token says only who it is about, as real providers' defaults do.
func (s *opStorage) SetUserinfoFromRequest(_ context.Context, info *oidc.UserInfo, r op.IDTokenRequest, scopes []string) error {
	s.fill(info, r.GetSubject(), scopes, false)
	return nil
}

func (s *opStorage) SetUserinfoFromToken(_ context.Context, info *oidc.UserInfo, tokenID, subject, _ string) error {
	s.mu.Lock()
	ok := s.tokens[tokenID] == subject
	s.mu.Unlock()
	if !ok {
		return errors.New("unknown access token")
	}
	s.fill(info, subject, []string{oidc.ScopeEmail, oidc.ScopeProfile}, true)
	return nil
}

func (s *opStorage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

type opKey struct{ s *opStorage }

func (k opKey) ID() string                                  { return "k1" }
func (k opKey) Algorithm() jose.SignatureAlgorithm          { return jose.RS256 }
func (k opKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k opKey) Use() string                                 { return "sig" }
func (k opKey) Key() any                                    { return k.s.key }

type opPublicKey struct{ opKey }

func (k opPublicKey) Key() any { return &k.s.key.PublicKey }

func (s *opStorage) SigningKey(context.Context) (op.SigningKey, error) { return opKey{s}, nil }
func (s *opStorage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}
func (s *opStorage) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{opPublicKey{opKey{s}}}, nil
}

// opRequest is an authorization request in progress.
type opRequest struct {
	oidc.AuthRequest
	id, subject string
	done        bool
}

func (r *opRequest) GetID() string                      { return r.id }
func (r *opRequest) GetACR() string                     { return "" }
func (r *opRequest) GetAMR() []string                   { return []string{"pwd"} }
func (r *opRequest) GetAudience() []string              { return []string{r.ClientID} }
func (r *opRequest) GetAuthTime() time.Time             { return time.Time{} }
func (r *opRequest) GetClientID() string                { return r.ClientID }
func (r *opRequest) GetNonce() string                   { return r.Nonce }
func (r *opRequest) GetRedirectURI() string             { return r.RedirectURI }
func (r *opRequest) GetResponseType() oidc.ResponseType { return r.ResponseType }
func (r *opRequest) GetResponseMode() oidc.ResponseMode { return r.ResponseMode }
func (r *opRequest) GetScopes() []string                { return r.Scopes }
func (r *opRequest) GetState() string                   { return r.State }
func (r *opRequest) GetSubject() string                 { return r.subject }
func (r *opRequest) Done() bool                         { return r.done }
func (r *opRequest) GetCodeChallenge() *oidc.CodeChallenge {
	if r.CodeChallenge == "" {
		return nil
	}
	return &oidc.CodeChallenge{Challenge: r.CodeChallenge, Method: r.CodeChallengeMethod}
}

// opClient is the service, registered at the provider.
type opClient struct{ s *opStorage }

func (c *opClient) GetID() string                       { return c.s.clientID }
func (c *opClient) RedirectURIs() []string              { return []string{c.s.redirect} }
func (c *opClient) PostLogoutRedirectURIs() []string    { return nil }
func (c *opClient) ApplicationType() op.ApplicationType { return op.ApplicationTypeWeb }
func (c *opClient) AuthMethod() oidc.AuthMethod         { return oidc.AuthMethodBasic }
func (c *opClient) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *opClient) GrantTypes() []oidc.GrantType        { return []oidc.GrantType{oidc.GrantTypeCode} }
func (c *opClient) LoginURL(id string) string           { return "/login?id=" + url.QueryEscape(id) }
func (c *opClient) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeBearer }
func (c *opClient) IDTokenLifetime() time.Duration      { return 5 * time.Minute }
func (c *opClient) DevMode() bool                       { return true } // http redirect URI on loopback
func (c *opClient) IsScopeAllowed(string) bool          { return false }
func (c *opClient) IDTokenUserinfoClaimsAssertion() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.s.emailInIDToken
}
func (c *opClient) ClockSkew() time.Duration { return 0 }
func (c *opClient) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *opClient) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

// opEnv is the service logging in with a zitadel provider.
type opEnv struct {
	app     *app.App
	store   *opStorage
	issuer  string
	baseURL string
}

// startOP runs the provider under issuer path "/" or "" (a trailing slash, or
// none), then the service configured through its environment variables with that
// issuer exactly; configured, when not "", replaces the issuer the service is given.
func startOP(t *testing.T, d store.Dialect, slash, configured string) *opEnv {
	t.Helper()
	svc := httptest.NewUnstartedServer(nil) // the service's listener, for its callback address
	baseURL := "http://" + svc.Listener.Addr().String()
	st := newOPStorage(t, "parking-client", "parking-secret", baseURL+"/users/oidc/zitadel/callback")
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String() + slash
	var key [32]byte
	_, _ = rand.Read(key[:])
	provider, err := op.NewProvider(&op.Config{CryptoKey: key, CodeMethodS256: true}, st, op.StaticIssuer(issuer), op.WithAllowInsecure())
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		if err := st.login(id); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		http.Redirect(w, r, op.AuthCallbackURL(provider)(op.ContextWithIssuer(r.Context(), issuer), id), http.StatusFound)
	})
	mux.Handle("/", provider)
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)

	if configured == "" {
		configured = issuer
	}
	env := map[string]string{
		"PARKING_OIDC_PROVIDERS": "zitadel", "PARKING_OIDC_ZITADEL_NAME": "Zitadel",
		"PARKING_OIDC_ZITADEL_ISSUER": configured, "PARKING_OIDC_ZITADEL_CLIENT_ID": "parking-client",
		"PARKING_OIDC_ZITADEL_CLIENT_SECRET": "parking-secret",
	}
	loaded, err := app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg := apptest.Config(t, d)
	cfg.OIDCProviders = loaded.OIDCProviders
	cfg.Listener, cfg.BaseURL = svc.Listener, baseURL
	// The provider stamps its tokens with the wall clock, so the service checks
	// them against it too (no business date depends on it here).
	cfg.Clock = clock.Real
	return &opEnv{app: apptest.StartWith(t, cfg), store: st, issuer: issuer, baseURL: baseURL}
}

// login walks a browser from the service's start through the provider (its
// authorization endpoint, its login page, its callback) back to the service's
// callback, and returns the service's last answer.
func (e *opEnv) login(t *testing.T, c *http.Client) webtest.Response {
	t.Helper()
	res := webtest.Do(t, c, "GET", e.app.URL+"/users/oidc/zitadel/start", nil)
	for i := 0; res.StatusCode == http.StatusFound || res.StatusCode == http.StatusSeeOther; i++ {
		next, err := url.Parse(res.Header.Get("Location"))
		if err != nil || i > 8 {
			t.Fatalf("redirect %d: %q %v", i, res.Header.Get("Location"), err)
		}
		if strings.HasPrefix(next.String(), e.baseURL+"/users/oidc/zitadel/callback") {
			return webtest.Do(t, c, "GET", e.app.URL+strings.TrimPrefix(next.String(), e.baseURL), nil)
		}
		if !next.IsAbs() {
			if strings.HasPrefix(next.Path, "/users/") {
				return res // the service answered without going to the provider
			}
			next = res.Request.URL.ResolveReference(next)
		}
		res = webtest.Do(t, c, "GET", next.String(), nil)
	}
	return res
}

func TestSocialLoginWithZitadelProvider(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		for _, slash := range []string{"/", ""} {
			// The default claims: the email only in UserInfo. The issuer has a
			// trailing slash (kept as configured) or none.
			e := startOP(t, d, slash, "")
			e.store.set(func(s *opStorage) {
				s.next = opPerson{sub: "z-ana", email: "ana@example.com", name: "Ana Zitadel", verified: true}
			})
			c := apptest.Client(t)
			res := e.login(t, c)
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/users/profile" {
				t.Fatalf("issuer %q: login ended %d %q %s", e.issuer, res.StatusCode, res.Header.Get("Location"), res.Body)
			}
			if n := webtest.CountRows(t, e.app, `SELECT COUNT(*) FROM customer WHERE email = 'ana@example.com' AND full_name = 'Ana Zitadel'
				AND password_hash = 'SOCIAL_LOGIN_zitadel_z-ana'`); n != 1 {
				t.Errorf("issuer %q: accounts opened from the UserInfo email = %d, want 1", e.issuer, n)
			}
			prof := webtest.Do(t, c, "GET", e.app.URL+"/users/profile", nil, "Accept: application/json")
			webtest.WantStatus(t, prof, http.StatusOK)
		}

		// The claims in the ID token as well: the same login.
		e := startOP(t, d, "/", "")
		e.store.set(func(s *opStorage) {
			s.emailInIDToken, s.next = true, opPerson{sub: "z-luis", email: "luis@example.com", name: "Luis", verified: true}
		})
		if res := e.login(t, apptest.Client(t)); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/users/profile" {
			t.Errorf("claims in the ID token: %d %q", res.StatusCode, res.Header.Get("Location"))
		}

		// UserInfo about someone else (another sub): refused, no account.
		e = startOP(t, d, "", "")
		e.store.set(func(s *opStorage) {
			s.next = opPerson{sub: "z-eva", email: "eva@example.com", verified: true}
			s.userinfo = &opPerson{sub: "z-mallory", email: "mallory@example.com", verified: true}
		})
		res := e.login(t, apptest.Client(t))
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(res.Body, "No se ha podido verificar su identidad con Zitadel") {
			t.Errorf("UserInfo about another subject: %d", res.StatusCode)
		}
		if n := webtest.CountRows(t, e.app, `SELECT COUNT(*) FROM customer WHERE email IN ('eva@example.com', 'mallory@example.com')`); n != 0 {
			t.Errorf("accounts opened from a foreign UserInfo: %d", n)
		}
		// An unverified email from UserInfo opens no account.
		e = startOP(t, d, "/", "")
		e.store.set(func(s *opStorage) { s.next = opPerson{sub: "z-ivan", email: "ivan@example.com", verified: false} })
		if res := e.login(t, apptest.Client(t)); res.StatusCode == http.StatusSeeOther && res.Header.Get("Location") == "/users/profile" {
			t.Error("an unverified UserInfo email signed in")
		}
	})
}

// A configuration that does not match the provider is said as such: the issuer
// configured without the provider's trailing slash (its discovery document names
// another issuer) and a wrong client secret give a 500 page saying the access is
// misconfigured, never "cannot contact" nor a database message; the log names the
// mismatch.
func TestSocialLoginMisconfigured(t *testing.T) {
	e := startOP(t, store.SQLite, "/", "")
	for name, env := range map[string]*opEnv{
		"issuer without its slash": startOP(t, store.SQLite, "/", strings.TrimSuffix(e.issuer, "/")),
	} {
		res := webtest.Do(t, apptest.Client(t), "GET", env.app.URL+"/users/oidc/zitadel/start", nil)
		if res.StatusCode != http.StatusInternalServerError || !strings.Contains(res.Body, "no está bien configurado") ||
			strings.Contains(res.Body, "No es posible contactar") {
			t.Errorf("%s: %d %s", name, res.StatusCode, res.Body)
		}
	}
	// A wrong secret: the provider refuses the code exchange as invalid_client.
	e.store.set(func(s *opStorage) {
		s.secret, s.next = "changed-at-the-provider", opPerson{sub: "z-ana", email: "ana@example.com", verified: true}
	})
	res := e.login(t, apptest.Client(t))
	if res.StatusCode != http.StatusInternalServerError || !strings.Contains(res.Body, "no está bien configurado") {
		t.Errorf("wrong client secret: %d %s", res.StatusCode, res.Body)
	}
}
