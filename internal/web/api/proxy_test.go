package api_test

import (
	"net/http"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/web/httpx"
	"parking/internal/webtest"
)

// PARKING_TRUSTED_PROXIES: behind the proxy (here the test's own loopback) each
// forwarded client has its own count of the anonymous limit; without it the
// header is ignored and every request counts for the connection's address.
func TestRateLimitBehindTrustedProxy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		book := func(a string, c *http.Client, client string) int {
			return webtest.PostJSON(t, c, a+"/api/reservations/public-new", map[string]any{}, "X-Forwarded-For: "+client).StatusCode
		}
		cfg := apptest.Config(t, d)
		cfg.PublicRate = 1
		var err error
		if cfg.TrustedProxies, err = httpx.ParseTrustedProxies("127.0.0.0/8, ::1"); err != nil {
			t.Fatal(err)
		}
		a := apptest.StartWith(t, cfg)
		cl := apptest.Client(t)
		if got := book(a.URL, cl, "198.51.100.1"); got != http.StatusBadRequest {
			t.Fatalf("first client's first request = %d", got)
		}
		if got := book(a.URL, cl, "198.51.100.2"); got != http.StatusBadRequest {
			t.Errorf("second client behind the proxy = %d, want its own count (400)", got)
		}
		if got := book(a.URL, cl, "6.6.6.6, 198.51.100.1"); got != http.StatusTooManyRequests {
			t.Errorf("first client again, with a spoofed left part = %d, want 429", got)
		}

		// Not trusted: the header changes nothing.
		cfg2 := apptest.Config(t, d)
		cfg2.PublicRate = 1
		b := apptest.StartWith(t, cfg2)
		book(b.URL, cl, "198.51.100.1")
		if got := book(b.URL, cl, "198.51.100.2"); got != http.StatusTooManyRequests {
			t.Errorf("untrusted X-Forwarded-For made a new client: %d, want 429", got)
		}
	})
}
