package ui_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The facility settings (docs/settings.md): PARKING_CAPACITY seeds them; an
// administrator reads and changes them as JSON or through the page's form; a
// change keeps the fields not sent; a wrong value is a 400 that changes nothing;
// nobody else reaches them.
func TestAdminSettings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.Capacity = 80
		e := webtest.AdminEnvWith(t, cfg)

		status, body := e.JSON("GET", "/admin/settings", nil)
		s, _ := body["settings"].(map[string]any)
		if status != 200 || s == nil || s["capacity"] != 80.0 || s["sellable"] != 0.0 || s["sellable_limit"] != 80.0 ||
			s["vat_rate"] != 21.0 || s["photo_retention_days"] != 365.0 || s["name"] != "" {
			t.Fatalf("seeded settings: %d %v", status, body)
		}

		status, body = e.JSON("PATCH", "/admin/settings", map[string]any{"sellable": 70, "name": " Parking Aeropuerto Sur ",
			"tax_id": "b12345674", "vat_rate": "10,5", "email": "info@parking.example"})
		s, _ = body["settings"].(map[string]any)
		if status != 200 || body["message"] != "Ajustes guardados." || s["capacity"] != 80.0 || s["sellable_limit"] != 70.0 ||
			s["name"] != "Parking Aeropuerto Sur" || s["tax_id"] != "B12345674" || s["vat_rate"] != 10.5 {
			t.Fatalf("partial change: %d %v", status, body)
		}
		f, err := e.A.CatalogOps.Facility(t.Context())
		if err != nil || f.VATBasisPoints != 1050 || f.Sellable != 70 || f.Email != "info@parking.example" {
			t.Fatalf("stored: %+v %v", f, err)
		}

		for _, bad := range []map[string]any{{"capacity": -1}, {"vat_rate": "veinte"}, {"email": "sin-arroba"},
			{"photo_retention_days": 0}, {"capacity": "muchas"}} {
			status, body = e.JSON("PATCH", "/admin/settings", bad)
			if status != 400 || body["success"] != false || body["message"] == "" {
				t.Errorf("%v: got %d %v, want 400 with a message", bad, status, body)
			}
		}
		if again, _ := e.A.CatalogOps.Facility(t.Context()); again != f {
			t.Errorf("a refused change altered the settings: %+v, want %+v", again, f)
		}

		// The page and its form post (no script): 303 back with the outcome.
		page := e.Page("/admin/settings")
		webtest.WantStatus(t, page, 200)
		webtest.WantAll(t, "settings page", page.Body, `action="/admin/settings"`, `name="capacity"`, `value="80"`,
			`value="10,5"`, `value="Parking Aeropuerto Sur"`, `href="/admin/settings"`)
		r := e.BrowserPost("/admin/settings", url.Values{"capacity": {"50"}, "sellable": {"0"}, "name": {"Parking Sur"},
			"tax_id": {"B12345674"}, "address": {"Calle Mayor 1"}, "phone": {"910000000"}, "email": {""},
			"vat_rate": {"21"}, "photo_retention_days": {"30"}})
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/admin/settings?ok=") {
			t.Fatalf("form post: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		if f, _ := e.A.CatalogOps.Facility(t.Context()); f.Capacity != 50 || f.SellableLimit() != 50 || f.PhotoRetentionDays != 30 || f.Email != "" {
			t.Errorf("after the form: %+v", f)
		}
		r = e.BrowserPost("/admin/settings", url.Values{"vat_rate": {"150"}})
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/admin/settings?error=") {
			t.Errorf("refused form post: %d %q", r.StatusCode, r.Header.Get("Location"))
		}

		// Anonymous visitors and customers are refused.
		anon := webtest.Do(t, http.DefaultClient, "GET", e.A.URL+"/admin/settings", nil, "Accept: application/json")
		if anon.StatusCode != 401 && anon.StatusCode != 403 {
			t.Errorf("anonymous: %d, want 401 or 403", anon.StatusCode)
		}
	})
}
