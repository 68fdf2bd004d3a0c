package ui_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/oidctest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// socialFlow walks a browser through social login step by step: the service's
// start, the provider's authorization endpoint, the provider's redirect back to
// the callback. tamper may change the URL of a step ("authorize", "callback")
// before it is followed. It returns the callback's answer.
func socialFlow(t *testing.T, e *oidctest.Env, c *http.Client, tamper func(step string, u *url.URL)) webtest.Response {
	t.Helper()
	res := webtest.Do(t, c, "GET", e.App.URL+"/users/oidc/"+oidctest.ProviderID+"/start", nil)
	webtest.WantStatus(t, res, http.StatusSeeOther)
	auth, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(auth.String(), e.Provider.AuthorizationEndpoint()) {
		t.Fatalf("start redirects to %q, want the provider's authorization endpoint", res.Header.Get("Location"))
	}
	q := auth.Query()
	for _, k := range []string{"state", "nonce", "code_challenge"} {
		if q.Get(k) == "" {
			t.Fatalf("authorization request lacks %s: %s", k, auth)
		}
	}
	if q.Get("code_challenge_method") != "S256" || q.Get("redirect_uri") != e.App.Config.BaseURL+"/users/oidc/mock/callback" {
		t.Fatalf("authorization request: challenge method %q, redirect_uri %q", q.Get("code_challenge_method"), q.Get("redirect_uri"))
	}
	if tamper != nil {
		tamper("authorize", auth)
	}
	res = webtest.Do(t, c, "GET", auth.String(), nil)
	webtest.WantStatus(t, res, http.StatusFound)
	cb, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if tamper != nil {
		tamper("callback", cb)
	}
	return webtest.Do(t, c, "GET", cb.String(), nil)
}

// Social login (docs/social-login.md): the first login opens a REGISTRADO
// account with the SOCIAL_LOGIN_ hash and a link (provider, subject); the next
// login lands on the same account; the account cannot log in or change a
// password; the login page shows the button.
func TestSocialLoginFlow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := oidctest.Start(t, d)
		a := e.App

		page := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/login", nil)
		webtest.WantAll(t, "login page", page.Body, "Continuar con "+oidctest.ProviderName, `href="/users/oidc/mock/start"`)
		page = webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/register", nil)
		webtest.WantAll(t, "registration page", page.Body, "Continuar con "+oidctest.ProviderName)

		e.User("sub-ana", "ana@example.com", true)
		c := apptest.Client(t)
		res := socialFlow(t, e, c, nil)
		webtest.WantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/users/profile" {
			t.Fatalf("callback Location = %q, want /users/profile", loc)
		}
		prof := webtest.Do(t, c, "GET", a.URL+"/users/profile", nil, "Accept: application/json")
		webtest.WantStatus(t, prof, http.StatusOK)
		if !strings.Contains(prof.Body, `"ana@example.com"`) {
			t.Fatalf("profile after social login: %s", prof.Body)
		}
		// The provider asserted a verified email: the account starts verified
		// (docs/accounts.md#email-verification).
		if !strings.Contains(prof.Body, `"email_verified":true`) {
			t.Errorf("social account not verified: %s", prof.Body)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'ana@example.com' AND type = 'REGISTRADO'
			AND password_hash = 'SOCIAL_LOGIN_mock_sub-ana'`); n != 1 {
			t.Fatalf("accounts opened = %d, want 1 with the SOCIAL_LOGIN_ hash", n)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM social_identity WHERE provider = 'mock' AND subject = 'sub-ana'`); n != 1 {
			t.Fatalf("identity links = %d, want 1", n)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM oidc_state`); n != 0 {
			t.Errorf("logins in progress left = %d, want 0 (a state is used once)", n)
		}

		// The password form refuses the account (docs/errors.md#operation-responses), and so does the login.
		st, body := webtest.CustCall(t, c, "PUT", a.URL+"/users/profile/password", map[string]any{
			"currentPassword": "SOCIAL_LOGIN_mock_sub-ana", "newPassword": "nueva-clave-1", "confirmPassword": "nueva-clave-1"})
		if st != http.StatusBadRequest || body["success"] != false {
			t.Errorf("password change on a social account: %d %v, want 400", st, body)
		}
		webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "ana@example.com", "SOCIAL_LOGIN_mock_sub-ana", "customer"), http.StatusUnauthorized)

		// The same person again, in another browser: same account, no new one.
		e.User("sub-ana", "ana@example.com", true)
		c2 := apptest.Client(t)
		res = socialFlow(t, e, c2, nil)
		webtest.WantStatus(t, res, http.StatusSeeOther)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE lower(email) = 'ana@example.com'`); n != 1 {
			t.Fatalf("customers with the email = %d after a second login, want 1", n)
		}
	})
}

// Refusals: a wrong state, a state from another browser, a state used twice, a
// wrong nonce, a token from another issuer, an expired token, an unverified email
// — each answered with the login page, a clear message, no session and no account.
func TestSocialLoginRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := oidctest.Start(t, d)
		a := e.App
		refused := func(t *testing.T, res webtest.Response, status int, msg string) {
			t.Helper()
			webtest.WantStatus(t, res, status)
			if ck := webtest.SessionCookie(res); ck != nil && ck.Value != "" {
				t.Error("a refused social login set a session cookie")
			}
			webtest.WantAll(t, "refusal page", res.Body, msg, `id="login-title"`)
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'eva@example.com'`); n != 0 {
				t.Errorf("a refused social login opened an account")
			}
		}
		const rejected = "No se ha podido verificar su identidad con " + oidctest.ProviderName
		const badState = "no es válido o ha caducado"

		t.Run("wrong state", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			res := socialFlow(t, e, apptest.Client(t), func(step string, u *url.URL) {
				if step == "callback" {
					q := u.Query()
					q.Set("state", "forged-"+q.Get("state"))
					u.RawQuery = q.Encode()
				}
			})
			refused(t, res, http.StatusBadRequest, badState)
		})
		t.Run("state from another browser", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			var cb *url.URL
			socialFlow(t, e, apptest.Client(t), func(step string, u *url.URL) {
				if step == "callback" {
					cb = &url.URL{}
					*cb = *u
					u.RawQuery = "" // the first browser does not use it
				}
			})
			res := webtest.Do(t, apptest.Client(t), "GET", cb.String(), nil)
			refused(t, res, http.StatusBadRequest, badState)
		})
		t.Run("state used twice", func(t *testing.T) {
			e.User("sub-eva-2", "eva2@example.com", true)
			c := apptest.Client(t)
			var cb string
			res := socialFlow(t, e, c, func(step string, u *url.URL) {
				if step == "callback" {
					cb = u.String()
				}
			})
			webtest.WantStatus(t, res, http.StatusSeeOther)
			again := webtest.Do(t, apptest.Client(t), "GET", cb, nil)
			refused(t, again, http.StatusBadRequest, badState)
		})
		t.Run("wrong nonce", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			res := socialFlow(t, e, apptest.Client(t), func(step string, u *url.URL) {
				if step == "authorize" { // the provider puts this nonce in the ID token
					q := u.Query()
					q.Set("nonce", "another-nonce")
					u.RawQuery = q.Encode()
				}
			})
			refused(t, res, http.StatusBadRequest, rejected)
		})
		t.Run("token from another issuer", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			e.TokenFromOther(t)
			defer e.OnToken(nil)
			res := socialFlow(t, e, apptest.Client(t), nil)
			refused(t, res, http.StatusBadRequest, rejected)
		})
		t.Run("expired token", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			// The provider issues the token, then two hours pass before the service
			// checks it (its ID tokens live ten minutes).
			e.OnToken(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
				next.ServeHTTP(w, r)
				e.Clock.Advance(2 * time.Hour)
			})
			defer e.OnToken(nil)
			res := socialFlow(t, e, apptest.Client(t), nil)
			refused(t, res, http.StatusBadRequest, rejected)
		})
		t.Run("expired login in progress", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			res := socialFlow(t, e, apptest.Client(t), func(step string, _ *url.URL) {
				if step == "callback" {
					e.Clock.Advance(11 * time.Minute)
				}
			})
			refused(t, res, http.StatusBadRequest, badState)
		})
		t.Run("email not verified", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", false)
			res := socialFlow(t, e, apptest.Client(t), nil)
			refused(t, res, http.StatusForbidden, "correo electrónico verificado")
		})
		t.Run("provider error", func(t *testing.T) {
			e.User("sub-eva", "eva@example.com", true)
			res := socialFlow(t, e, apptest.Client(t), func(step string, u *url.URL) {
				if step == "callback" {
					q := u.Query()
					q.Del("code")
					q.Set("error", "access_denied")
					u.RawQuery = q.Encode()
				}
			})
			refused(t, res, http.StatusBadRequest, "se ha cancelado")
		})
		t.Run("unknown provider", func(t *testing.T) {
			res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/oidc/nadie/start", nil)
			webtest.WantStatus(t, res, http.StatusNotFound)
		})
	})
}

// An existing account with the provider's email is never taken over: with a
// verified email the person must prove the account with its password once
// ("vincular"); a wrong password links nothing; staff accounts are refused.
func TestSocialLoginLinksExistingAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := oidctest.Start(t, d)
		a := e.App
		carlos := apptest.Account(t, a, reservation.Registered, "Carlos Cliente", "carlos@example.com", "600000001", "clave-de-carlos")
		apptest.Account(t, a, reservation.Admin, "Ana Admin", "admin@example.com", "", "clave-de-admin")

		// Unverified email: refused, nothing linked, no pending link.
		e.User("sub-carlos", "carlos@example.com", false)
		res := socialFlow(t, e, apptest.Client(t), nil)
		webtest.WantStatus(t, res, http.StatusForbidden)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM social_pending_link`); n != 0 {
			t.Fatalf("pending links = %d after an unverified email, want 0", n)
		}

		// Staff accounts: refused.
		e.User("sub-admin", "admin@example.com", true)
		res = socialFlow(t, e, apptest.Client(t), nil)
		webtest.WantStatus(t, res, http.StatusForbidden)
		webtest.WantAll(t, "staff refusal", res.Body, "personal no pueden iniciar sesión con un proveedor externo")

		// Verified email: the link page, then the account's password.
		e.User("sub-carlos", "carlos@example.com", true)
		c := apptest.Client(t)
		res = socialFlow(t, e, c, nil)
		webtest.WantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/users/oidc/link" {
			t.Fatalf("callback Location = %q, want the link page", loc)
		}
		if ck := webtest.SessionCookie(res); ck != nil && ck.Value != "" {
			t.Fatal("a session before the account was proved")
		}
		page := webtest.Do(t, c, "GET", a.URL+"/users/oidc/link", nil)
		webtest.WantStatus(t, page, http.StatusOK)
		webtest.WantAll(t, "link page", page.Body, "carlos@example.com", "Vincular y entrar")

		wrong := webtest.PostForm(t, c, a.URL+"/users/oidc/link", url.Values{"password": {"no-es-la-clave"}})
		webtest.WantStatus(t, wrong, http.StatusUnauthorized)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM social_identity`); n != 0 {
			t.Fatalf("a wrong password linked the identity")
		}
		ok := webtest.PostForm(t, c, a.URL+"/users/oidc/link", url.Values{"password": {"clave-de-carlos"}})
		webtest.WantStatus(t, ok, http.StatusSeeOther)
		if ck := webtest.SessionCookie(ok); ck == nil || ck.Value == "" {
			t.Fatal("no session after linking")
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM social_identity WHERE id_customer = $1 AND subject = 'sub-carlos'`, carlos.ID); n != 1 {
			t.Fatalf("identity linked to Carlos = %d, want 1", n)
		}
		// The account keeps its password; the pending link is used up.
		webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "carlos@example.com", "clave-de-carlos", "customer"), http.StatusSeeOther)
		again := webtest.PostForm(t, c, a.URL+"/users/oidc/link", url.Values{"password": {"clave-de-carlos"}})
		webtest.WantStatus(t, again, http.StatusBadRequest)

		// From now on the provider logs straight in to Carlos's account.
		e.User("sub-carlos", "carlos@example.com", true)
		c2 := apptest.Client(t)
		res = socialFlow(t, e, c2, nil)
		webtest.WantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/users/profile" {
			t.Fatalf("linked login Location = %q", loc)
		}
		prof := webtest.Do(t, c2, "GET", a.URL+"/users/profile", nil, "Accept: application/json")
		if !strings.Contains(prof.Body, `"Carlos Cliente"`) {
			t.Fatalf("linked login is not Carlos's account: %s", prof.Body)
		}
	})
}

// No provider configured: no button, and the routes answer 404.
func TestSocialLoginNotConfigured(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	page := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/login", nil)
	if strings.Contains(page.Body, "Continuar con") || strings.Contains(page.Body, "/users/oidc/") {
		t.Error("login page shows a social-login button with no provider configured")
	}
	webtest.WantStatus(t, webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/oidc/google/start", nil), http.StatusNotFound)
}
