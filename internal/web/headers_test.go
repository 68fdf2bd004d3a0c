package web_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/web"
	"parking/internal/webtest"
)

// Every answer carries Permissions-Policy (the camera only on staff pages, for the
// site itself), and Strict-Transport-Security when PARKING_BASE_URL is https
// (docs/security.md#headers).
func TestSecurityHeaders(t *testing.T) {
	for _, base := range []string{"http://127.0.0.1", "https://parking.example.com"} {
		cfg := apptest.Config(t, store.SQLite)
		cfg.BaseURL = base
		a := apptest.StartWith(t, cfg)
		cl := apptest.Client(t)
		wantHSTS := ""
		if strings.HasPrefix(base, "https:") {
			wantHSTS = "max-age=31536000"
		}
		for path, camera := range map[string]string{
			"/": "camera=()", "/booking": "camera=()", "/users/login": "camera=()", "/reserva": "camera=()",
			"/api/catalog": "camera=()", "/healthz": "camera=()", "/no-such-page": "camera=()", "/administrador": "camera=()",
			"/admin/dashboard": "camera=(self)", "/admin/reservations/details/1": "camera=(self)",
		} {
			res := webtest.Do(t, cl, "GET", a.URL+path, nil)
			pp := res.Header.Get("Permissions-Policy")
			if !strings.HasPrefix(pp, camera+",") || !strings.Contains(pp, "geolocation=()") || !strings.Contains(pp, "microphone=()") {
				t.Errorf("%s %s: Permissions-Policy %q, want %s and no geolocation or microphone", base, path, pp, camera)
			}
			if got := res.Header.Get("Strict-Transport-Security"); got != wantHSTS {
				t.Errorf("%s %s: Strict-Transport-Security %q, want %q", base, path, got, wantHSTS)
			}
		}
	}
	// While the service waits for its database, too.
	for base, want := range map[string]string{"https://parking.example.com": "max-age=31536000", "http://localhost:8080": ""} {
		w := httptest.NewRecorder()
		web.Starting(base).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		if w.Header().Get("Strict-Transport-Security") != want || !strings.HasPrefix(w.Header().Get("Permissions-Policy"), "camera=()") {
			t.Errorf("starting, %s: %q %q", base, w.Header().Get("Strict-Transport-Security"), w.Header().Get("Permissions-Policy"))
		}
	}
}
