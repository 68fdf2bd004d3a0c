package ui_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/webtest"
)

// A redirect built from the request's path stays on the site: a reference made of
// "../" and a backslash cannot turn the manage form's 303 into "/\evil.example"
// (docs/security.md#redirects).
func TestManageRedirectStaysOnSite(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	cl := apptest.Client(t)
	for _, action := range []string{"modificar", "cancelar"} {
		res := webtest.PostForm(t, cl, a.URL+"/reserva/..%2F..%2F%5Cevil.example/"+action,
			url.Values{"t": {"x.y"}, "id_main_service": {"no"}})
		loc := res.Header.Get("Location")
		if res.StatusCode == http.StatusSeeOther && (!strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") ||
			strings.HasPrefix(loc, `/\`) || strings.Contains(loc, "/evil.example")) {
			t.Errorf("%s: Location %q leaves the site", action, loc)
		}
		if action == "modificar" && (res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/reserva/..%2F..%2F%5Cevil.example?")) {
			t.Errorf("%s: %d %q, want 303 to the booking's own (escaped) page", action, res.StatusCode, loc)
		}
	}
}
