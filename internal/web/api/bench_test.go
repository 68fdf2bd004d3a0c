package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"parking/bench/bare/barequote"
	"parking/internal/apptest"
	"parking/internal/store"
)

// quoteBenchBody is bench/pricing.lua's quote: 5 days, SUV, two extras.
const quoteBenchBody = `{"entry_date":"2026-12-01T10:00","exit_date":"2026-12-05T13:00","vehicle_type":"SUV","id_main_service":2,"additional_services":[1,3]}`

// BenchmarkPricingHandler measures one POST /api/pricing/dynamic through the whole
// middleware stack, in process (no network), to see the handler's own cost: on each
// database, without a capacity and with one (set, never reached: the quote adds the
// availability from its copy of the occupancy, docs/capacity.md). "bare" is
// bench/bare's handler (decode the same JSON, answer a fixed body) under the same
// harness: the ceiling docs/performance.md#targets compares the quote with.
func BenchmarkPricingHandler(b *testing.B) {
	b.Run("bare", func(b *testing.B) { benchQuote(b, barequote.Handler()) })
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		for _, capacity := range []int{0, 100000} {
			name := string(d) + "/capacity-off"
			if capacity > 0 {
				name = string(d) + "/capacity-on"
			}
			b.Run(name, func(b *testing.B) {
				cfg := apptest.Config(b, d) // skips PostgreSQL when PARKING_TEST_POSTGRES_URL is not set
				cfg.LogLevel = "warn"
				cfg.Capacity = capacity
				benchQuote(b, apptest.StartWith(b, cfg).Web.Handler())
			})
		}
	}
}

func benchQuote(b *testing.B, h http.Handler) {
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/api/pricing/dynamic", strings.NewReader(quoteBenchBody))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}
