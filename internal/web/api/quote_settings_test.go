package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/catalog"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// quoteAvailability asks a for a new booking's quote of a stay from day 10:00 to the next
// day 18:00 and returns its availability field as JSON ("" when absent).
func quoteAvailability(t *testing.T, c *http.Client, a *app.App, day string) string {
	t.Helper()
	body := fmt.Sprintf(`{"entry_date":"%sT10:00","exit_date":"%sT18:00","vehicle_type":"TURISMO","id_main_service":1}`,
		clocktest.D(day), clocktest.D(nextDay(day)))
	status, res := call(t, c, "POST", a.URL+"/api/pricing/dynamic", body)
	var out struct {
		Success      bool            `json:"success"`
		Availability json.RawMessage `json:"availability"`
	}
	if err := json.Unmarshal([]byte(res), &out); status != http.StatusOK || err != nil || !out.Success {
		t.Fatalf("quote: %d %s (%v)", status, res, err)
	}
	return string(out.Availability)
}

// availabilityJSON is the quote's availability field for status and full days
// (YYYY-MM-DD, moved to the test clock).
func availabilityJSON(status string, full ...string) string {
	days := make([]string, len(full))
	for i, d := range full {
		days[i] = `"` + clocktest.D(d) + `"`
	}
	return `{"status":"` + status + `","full_days":[` + strings.Join(days, ",") + `]}`
}

// The quote keeps an in-process copy of the settings (docs/capacity.md#the-quotes-copy-of-the-settings):
// capacity turned on or off through /admin/settings is seen by the next quote, and a day
// that fills up is shown full at once — the clock never moves here, so no expiry helps.
func TestQuoteSeesSettingsAndFullDaysAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		pub := apptest.Client(t)
		for range 2 { // the second answers from the copy
			if got := quoteAvailability(t, pub, e.A, "2026-12-01"); got != "" {
				t.Fatalf("quote without a limit: availability %s, want none", got)
			}
		}
		if status, res := e.JSON("PATCH", "/admin/settings", map[string]any{"capacity": 1}); status != http.StatusOK {
			t.Fatalf("capacity on: %d %v", status, res)
		}
		if got, want := quoteAvailability(t, pub, e.A, "2026-12-01"), availabilityJSON("available"); got != want {
			t.Fatalf("quote after capacity on: availability %s, want %s", got, want)
		}
		status, body := call(t, pub, "POST", e.A.URL+"/api/reservations/public-new", publicBookingBody(1, "2026-12-01"))
		if status != http.StatusCreated {
			t.Fatalf("booking the last place: %d %s", status, body)
		}
		if got, want := quoteAvailability(t, pub, e.A, "2026-12-01"), availabilityJSON("full", "2026-12-01", "2026-12-02"); got != want {
			t.Fatalf("quote after the last place: availability %s, want %s", got, want)
		}
		if status, res := e.JSON("PATCH", "/admin/settings", map[string]any{"capacity": 0}); status != http.StatusOK {
			t.Fatalf("capacity off: %d %v", status, res)
		}
		if got := quoteAvailability(t, pub, e.A, "2026-12-01"); got != "" {
			t.Fatalf("quote after capacity off: availability %s, want none", got)
		}
	})
}

// Two instances on one PostgreSQL: capacity turned on through one is seen by the other's
// quote as soon as the announcement arrives (the clock does not move); a day filled
// through one is shown full by the other's next quote; a change the other instance was
// never told of (written in the database directly) is seen within catalog.FacilityCacheTTL.
func TestQuoteSettingsAcrossInstances(t *testing.T) {
	cfg, clk := apptest.ConfigClock(t, store.Postgres)
	if !strings.HasPrefix(cfg.DatabaseURL, "postgres") {
		t.Skip("PostgreSQL not configured (PARKING_TEST_POSTGRES_URL)")
	}
	a1 := apptest.StartWith(t, cfg)
	a2 := apptest.StartWith(t, cfg) // same database, same clock: a second instance
	admin, _ := apptest.Admin(t, a1)
	env1 := &webtest.AdminEnv{T: t, A: a1, C: admin}
	pub := apptest.Client(t)
	if got := quoteAvailability(t, pub, a2, "2026-12-01"); got != "" {
		t.Fatalf("quote on the second instance without a limit: availability %s, want none", got)
	}
	if status, res := env1.JSON("PATCH", "/admin/settings", map[string]any{"capacity": 1}); status != http.StatusOK {
		t.Fatalf("capacity on through the first instance: %d %v", status, res)
	}
	// The announcement travels through PostgreSQL: asked again until it has arrived.
	want := availabilityJSON("available")
	got := quoteAvailability(t, pub, a2, "2026-12-01")
	for deadline := time.Now().Add(5 * time.Second); got != want && time.Now().Before(deadline); {
		got = quoteAvailability(t, pub, a2, "2026-12-01")
	}
	if got != want {
		t.Fatalf("second instance's quote after capacity on (clock unchanged, 5 s): availability %s, want %s", got, want)
	}
	status, body := call(t, pub, "POST", a1.URL+"/api/reservations/public-new", publicBookingBody(1, "2026-12-01"))
	if status != http.StatusCreated {
		t.Fatalf("booking the last place on the first instance: %d %s", status, body)
	}
	full := availabilityJSON("full", "2026-12-01", "2026-12-02")
	if got := quoteAvailability(t, pub, a2, "2026-12-01"); got != full {
		t.Fatalf("second instance's quote after the last place: availability %s, want %s", got, full)
	}
	// And the booking through the second instance is refused, as its quote said.
	status, body = call(t, pub, "POST", a2.URL+"/api/reservations/public-new", publicBookingBody(2, "2026-12-01"))
	if status != http.StatusConflict {
		t.Fatalf("booking a full day on the second instance: %d %s", status, body)
	}

	// A change nobody announced: the copy serves until it is FacilityCacheTTL old.
	env1.Exec(`UPDATE facility_settings SET capacity = 0 WHERE id = 1`)
	if got := quoteAvailability(t, pub, a2, "2026-12-01"); got != full {
		t.Fatalf("second instance's quote within the bound: availability %s, want its copy's %s", got, full)
	}
	clk.Advance(catalog.FacilityCacheTTL)
	if got := quoteAvailability(t, pub, a2, "2026-12-01"); got != "" {
		t.Fatalf("second instance's quote %v after an unannounced capacity off: availability %s, want none", catalog.FacilityCacheTTL, got)
	}
}
