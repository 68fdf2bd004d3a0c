package web_test

import (
	"net/http"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/webtest"
)

// Without PARKING_METRICS_TOKEN, /metrics answers the loopback peer only when no
// proxy forwarded the request (docs/metrics.md#access); a forwarded request gets
// the site's 404, as for a route that does not exist.
func TestMetricsWithoutTokenLoopbackOnly(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	cl := apptest.Client(t)
	webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/metrics", nil), http.StatusOK)
	for _, h := range []string{"X-Forwarded-For: 203.0.113.9", "Forwarded: for=203.0.113.9", "X-Forwarded-For: 127.0.0.1"} {
		res := webtest.Do(t, cl, "GET", a.URL+"/metrics", nil, h)
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET /metrics with %s: %d, want 404", h, res.StatusCode)
		}
	}
}
