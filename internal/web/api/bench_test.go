package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
)

// BenchmarkPricingHandler measures one POST /api/pricing/dynamic through the whole
// middleware stack, in process (no network), to see the handler's own cost.
func BenchmarkPricingHandler(b *testing.B) {
	cfg := apptest.Config(b, store.SQLite)
	cfg.LogLevel = "warn"
	a := apptest.StartWith(b, cfg)
	h := a.Web.Handler()
	body := `{"entry_date":"2026-12-01T10:00","exit_date":"2026-12-05T13:00","vehicle_type":"SUV","id_main_service":2,"additional_services":[1,3]}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/api/pricing/dynamic", strings.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}
