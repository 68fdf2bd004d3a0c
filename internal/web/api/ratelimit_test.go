package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/public-booking.md#limits-on-anonymous-traffic: PARKING_PUBLIC_RATE limits public booking, registration and token
// requests per client address; beyond it, 429 with Retry-After in each route's
// error shape; each route counts apart; a minute later the address may try again.
func TestPublicRateLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		cfg.PublicRate = 3
		a := apptest.StartWith(t, cfg)
		cl := apptest.Client(t)
		const msg = "Demasiadas solicitudes desde su dirección. Inténtelo de nuevo en 60 segundos."

		for _, path := range []string{"/api/reservations/public-new", "/api/reservations/public", "/api/reservations/public-new"} {
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+path, map[string]any{}), http.StatusBadRequest)
		}
		res := webtest.PostJSON(t, cl, a.URL+"/api/reservations/public-new", map[string]any{})
		webtest.WantStatus(t, res, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") != "60" {
			t.Errorf("Retry-After = %q, want 60", res.Header.Get("Retry-After"))
		}
		if body := webtest.Decode(t, res); body["success"] != false || body["message"] != msg {
			t.Errorf("booking 429 body = %v", body)
		}

		// The token route counts on its own and answers {error}.
		for range 3 {
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "nadie@example.com", "password": "x"}), http.StatusUnauthorized)
		}
		res = webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "otro@example.com", "password": "x"})
		webtest.WantStatus(t, res, http.StatusTooManyRequests)
		if body := webtest.Decode(t, res); body["error"] != msg || len(body) != 1 || res.Header.Get("Retry-After") != "60" {
			t.Errorf("token 429: body %v, Retry-After %q", body, res.Header.Get("Retry-After"))
		}

		// Registration: JSON clients get JSON, browsers the form with the message.
		for range 3 {
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/users/register", map[string]string{"email": "x"}), http.StatusBadRequest)
		}
		res = webtest.PostJSON(t, cl, a.URL+"/users/register", map[string]string{"email": "x"})
		webtest.WantStatus(t, res, http.StatusTooManyRequests)
		if body := webtest.Decode(t, res); body["success"] != false || body["message"] != msg {
			t.Errorf("register 429 JSON body = %v", body)
		}
		res = webtest.PostForm(t, cl, a.URL+"/users/register", url.Values{"email": {"x"}})
		webtest.WantStatus(t, res, http.StatusTooManyRequests)
		if !strings.Contains(res.Body, "Inténtelo de nuevo en 60 segundos.") || !strings.Contains(res.Body, "<form") {
			t.Errorf("register 429 page lacks the form or the message: %.300s", res.Body)
		}

		clk.Set(clk.Now().Add(time.Minute))
		webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/api/reservations/public-new", map[string]any{}), http.StatusBadRequest)
	})
}

// PARKING_PUBLIC_RATE=0 (the tests' default) is no limit.
func TestPublicRateLimitOff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		cl := apptest.Client(t)
		for range 40 {
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/api/reservations/public-new", map[string]any{}), http.StatusBadRequest)
		}
	})
}
