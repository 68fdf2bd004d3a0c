package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/webtest"
)

// The quote's copy of the occupancy (docs/capacity.md#the-quotes-copy-of-the-occupancy) on two
// instances on one PostgreSQL, the clock never moving: a day within the margin of full
// is read from the database by every quote, so the booking of its last places on one
// instance is shown full by the other's next quote; and capacity lowered on one
// instance is seen by the other's quote once announced, on days its copy holds.
func TestQuoteOccupancyAcrossInstances(t *testing.T) {
	cfg, _ := apptest.ConfigClock(t, store.Postgres)
	if !strings.HasPrefix(cfg.DatabaseURL, "postgres") {
		t.Skip("PostgreSQL not configured (PARKING_TEST_POSTGRES_URL)")
	}
	a1 := apptest.StartWith(t, cfg)
	a2 := apptest.StartWith(t, cfg) // same database, same clock: a second instance
	admin, _ := apptest.Admin(t, a1)
	env1 := &webtest.AdminEnv{T: t, A: a1, C: admin}
	pub := apptest.Client(t)
	if status, res := env1.JSON("PATCH", "/admin/settings", map[string]any{"capacity": 12}); status != http.StatusOK {
		t.Fatalf("capacity 12: %d %v", status, res)
	}
	book := func(a string, n int, day string, want int) {
		t.Helper()
		url := a1.URL
		if a == "second" {
			url = a2.URL
		}
		if status, body := call(t, pub, "POST", url+"/api/reservations/public-new", publicBookingBody(n, day)); status != want {
			t.Fatalf("booking %d on %s through the %s instance: %d %s, want %d", n, day, a, status, body, want)
		}
	}
	for n := 1; n <= 2; n++ { // 10 free: not few, but within the margin of full
		book("first", n, "2026-12-01", http.StatusCreated)
	}
	// The second instance's quote, as soon as the settings' announcement has arrived.
	available := availabilityJSON("available")
	got := quoteAvailability(t, pub, a2, "2026-12-01")
	for deadline := time.Now().Add(5 * time.Second); got != available && time.Now().Before(deadline); {
		got = quoteAvailability(t, pub, a2, "2026-12-01")
	}
	if got != available {
		t.Fatalf("second instance's quote with 10 free of 12: availability %s, want %s", got, available)
	}
	for n := 3; n <= 12; n++ {
		book("first", n, "2026-12-01", http.StatusCreated)
	}
	full := availabilityJSON("full", "2026-12-01", "2026-12-02")
	if got := quoteAvailability(t, pub, a2, "2026-12-01"); got != full {
		t.Fatalf("second instance's quote after the last places: availability %s, want %s", got, full)
	}
	book("second", 13, "2026-12-01", http.StatusConflict)

	// Capacity lowered through the first instance: the second instance's quote of
	// 2026-12-10 (one place booked of 12, far from full) answers from its copy until then.
	book("first", 20, "2026-12-10", http.StatusCreated)
	if got := quoteAvailability(t, pub, a2, "2026-12-10"); got != available {
		t.Fatalf("second instance's quote of a day with one place booked: availability %s, want %s", got, available)
	}
	if status, res := env1.JSON("PATCH", "/admin/settings", map[string]any{"capacity": 1}); status != http.StatusOK {
		t.Fatalf("capacity 1: %d %v", status, res)
	}
	full = availabilityJSON("full", "2026-12-10", "2026-12-11")
	got = quoteAvailability(t, pub, a2, "2026-12-10")
	for deadline := time.Now().Add(5 * time.Second); got != full && time.Now().Before(deadline); {
		got = quoteAvailability(t, pub, a2, "2026-12-10")
	}
	if got != full {
		t.Fatalf("second instance's quote after capacity 1 (clock unchanged, 5 s): availability %s, want %s", got, full)
	}
}
