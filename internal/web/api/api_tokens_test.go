package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/account"
	"parking/internal/apptest"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// issueToken returns a fresh API token of the account through the API.
func issueToken(t *testing.T, c *http.Client, base, email, password string) map[string]any {
	t.Helper()
	res := webtest.PostJSON(t, c, base+"/api/auth/token", map[string]string{"email": email, "password": password})
	webtest.WantStatus(t, res, 200)
	return webtest.Decode(t, res)
}

// API tokens (docs/accounts.md#api-tokens) and the guard of GET /api/reservations (spec,
// Authentication 2; Errors): missing, garbage, expired or revoked → 401
// {"error":"Unauthorized"}; a customer's token → 403; an administrator's → 200.
func TestAPITokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		admin := apptest.Account(t, a, reservation.Admin, "Ana Admin", "admin@example.com", "", "admin-password")
		apptest.Account(t, a, reservation.Registered, "Carlos", "carlos@example.com", "600000001", "customer-password")
		cl := apptest.Client(t)
		board := a.URL + "/api/reservations?date=2026-11-21"

		now := apptest.Now(a)
		tok := issueToken(t, cl, a.URL, "ADMIN@example.com", "admin-password")
		if tok["token_type"] != "Bearer" || tok["role"] != "ADMIN" || len(tok["token"].(string)) < 43 || len(tok) != 4 {
			t.Fatalf("token body = %v", tok)
		}
		exp, err := time.Parse(time.RFC3339, tok["expires_at"].(string))
		if err != nil {
			t.Fatalf("expires_at %q: %v", tok["expires_at"], err)
		}
		if want := now.Add(12 * time.Hour).Truncate(time.Second); !exp.Equal(want) {
			t.Errorf("expires_at = %v, want %v (PARKING_TOKEN_TTL)", exp, want)
		}
		if !strings.HasSuffix(tok["expires_at"].(string), "+01:00") && !strings.HasSuffix(tok["expires_at"].(string), "+02:00") {
			t.Errorf("expires_at %q not in the facility's offset", tok["expires_at"])
		}
		adminToken := tok["token"].(string)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM api_token WHERE token_hash = $1 AND id_customer = $2 AND session_hash IS NULL`, account.HashToken(adminToken), admin.ID); n != 1 {
			t.Error("token not stored as its hash")
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM api_token WHERE token_hash = $1`, adminToken); n != 0 {
			t.Error("token stored in clear")
		}
		customerToken := issueToken(t, cl, a.URL, "carlos@example.com", "customer-password")
		if customerToken["role"] != "REGISTRADO" {
			t.Errorf("customer token role = %v", customerToken["role"])
		}

		unauthorized := `{"error":"Unauthorized"}`
		for _, c := range []struct {
			name, header string
			status       int
			body         string
		}{
			{"missing", "", 401, unauthorized},
			{"garbage", "Authorization: Bearer not-a-token", 401, unauthorized},
			{"empty bearer", "Authorization: Bearer ", 401, unauthorized},
			{"other scheme", "Authorization: Basic " + adminToken, 401, unauthorized},
			{"customer token", "Authorization: Bearer " + customerToken["token"].(string), 403, `{"error":"Forbidden: admin access required"}`},
			{"admin token", "Authorization: Bearer " + adminToken, 200, ""},
			{"scheme in lower case", "Authorization: bearer " + adminToken, 200, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				var headers []string
				if c.header != "" {
					headers = append(headers, c.header)
				}
				res := webtest.Do(t, cl, "GET", board, nil, headers...)
				webtest.WantStatus(t, res, c.status)
				if c.body != "" {
					webtest.WantBody(t, res, c.body)
				}
				if c.status == 401 && res.Header.Get("WWW-Authenticate") != `Bearer realm="parking"` {
					t.Errorf("WWW-Authenticate = %q", res.Header.Get("WWW-Authenticate"))
				}
			})
		}

		t.Run("expired", func(t *testing.T) {
			tk := issueToken(t, cl, a.URL, "admin@example.com", "admin-password")["token"].(string)
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+tk), 200)
			webtest.Exec(t, a, `UPDATE api_token SET expires_at = $1 WHERE token_hash = $2`, store.Time(apptest.Now(a).Add(-time.Second)), account.HashToken(tk))
			res := webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+tk)
			webtest.WantStatus(t, res, 401)
			webtest.WantBody(t, res, unauthorized)
		})

		t.Run("revoked", func(t *testing.T) {
			tk := issueToken(t, cl, a.URL, "admin@example.com", "admin-password")["token"].(string)
			res := webtest.Do(t, cl, "DELETE", a.URL+"/api/auth/token", nil, "Authorization: Bearer "+tk)
			webtest.WantStatus(t, res, 204)
			if res.Body != "" {
				t.Errorf("204 with body %q", res.Body)
			}
			res = webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+tk)
			webtest.WantStatus(t, res, 401)
			webtest.WantBody(t, res, unauthorized)
			// Revoking again, or without a token: 401.
			webtest.WantStatus(t, webtest.Do(t, cl, "DELETE", a.URL+"/api/auth/token", nil, "Authorization: Bearer "+tk), 401)
			webtest.WantStatus(t, webtest.Do(t, cl, "DELETE", a.URL+"/api/auth/token", nil), 401)
			// Other tokens live on.
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+adminToken), 200)
		})

		t.Run("issuing refusals", func(t *testing.T) {
			res := webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "admin@example.com", "password": "wrong-password"})
			webtest.WantStatus(t, res, 401)
			webtest.WantBody(t, res, unauthorized)
			res = webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "ghost@example.com", "password": "wrong-password"})
			webtest.WantStatus(t, res, 401)
			webtest.WantBody(t, res, unauthorized)
			res = webtest.Do(t, cl, "POST", a.URL+"/api/auth/token", strings.NewReader(`{"email":`), "Content-Type: application/json")
			webtest.WantStatus(t, res, 400)
			if m := webtest.Decode(t, res); m["error"] == nil || len(m) != 1 {
				t.Errorf("400 body = %s", res.Body)
			}
			res = webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "admin@example.com"})
			webtest.WantStatus(t, res, 400)
		})

		// The dashboard's token comes through the session and dies with it.
		t.Run("session token", func(t *testing.T) {
			web := apptest.Client(t)
			webtest.WantStatus(t, webtest.Login(t, web, a, "admin@example.com", "admin-password", "worker"), 303)
			res := webtest.Do(t, web, "POST", a.URL+"/admin/api-token", nil, "Accept: application/json")
			webtest.WantStatus(t, res, 200)
			m := webtest.Decode(t, res)
			tk := m["token"].(string)
			if m["role"] != "ADMIN" || m["token_type"] != "Bearer" {
				t.Errorf("body = %s", res.Body)
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM api_token WHERE token_hash = $1 AND session_hash IS NOT NULL`, account.HashToken(tk)); n != 1 {
				t.Error("session token not bound to its session")
			}
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+tk), 200)
			webtest.WantStatus(t, webtest.Do(t, web, "POST", a.URL+"/users/logout", nil), 303)
			res = webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+tk)
			webtest.WantStatus(t, res, 401)
			webtest.WantBody(t, res, unauthorized)
			// A token not bound to a session survives that logout.
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", board, nil, "Authorization: Bearer "+adminToken), 200)

			// Without an administrator's session there is no such token.
			webtest.WantStatus(t, webtest.Do(t, apptest.Client(t), "POST", a.URL+"/admin/api-token", nil, "Accept: application/json"), 401)
			cust, _ := apptest.Customer(t, a, "dora@example.com", "600000009")
			webtest.WantStatus(t, webtest.Do(t, cust, "POST", a.URL+"/admin/api-token", nil, "Accept: application/json"), 401)
		})

		// An administrator token also widens GET /api/catalog (docs/pricing.md#catalog).
		t.Run("catalog sees admin tokens", func(t *testing.T) {
			webtest.Exec(t, a, `UPDATE main_service SET active = $1 WHERE id_main_service = 1`, false)
			cat, err := a.Store.Catalog().LoadCatalog(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			a.Catalog.Store(pricing.NewSnapshot(cat))
			public := webtest.Decode(t, webtest.Do(t, cl, "GET", a.URL+"/api/catalog", nil))
			withToken := webtest.Decode(t, webtest.Do(t, cl, "GET", a.URL+"/api/catalog", nil, "Authorization: Bearer "+adminToken))
			withCustomer := webtest.Decode(t, webtest.Do(t, cl, "GET", a.URL+"/api/catalog", nil, "Authorization: Bearer "+customerToken["token"].(string)))
			np, na, nc := len(public["main_services"].([]any)), len(withToken["main_services"].([]any)), len(withCustomer["main_services"].([]any))
			if na != np+1 || nc != np {
				t.Errorf("main services: public %d, admin token %d, customer token %d; want admin = public+1 = customer+1", np, na, nc)
			}
		})
	})
}
