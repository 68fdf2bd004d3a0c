package ui_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/localtime"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The login and registration pages, the layout's header for each kind of visitor,
// and the static files with their cache-busting names.
func TestPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		anon := apptest.Client(t)

		res := webtest.Do(t, anon, "GET", a.URL+"/users/login", nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		for _, s := range []string{
			`<input type="hidden" name="loginType" value="customer" data-login-type-input>`,
			`<label for="email">Correo electrónico</label>`, `<label for="password">Contraseña</label>`,
			`data-login-type="worker"`, `aria-selected="true">Cliente</a>`, `<a href="/users/register">`,
		} {
			if !strings.Contains(res.Body, s) {
				t.Errorf("login page lacks %s", s)
			}
		}
		res = webtest.Do(t, anon, "GET", a.URL+"/users/login?loginType=worker", nil)
		if !strings.Contains(res.Body, `name="loginType" value="worker"`) || !strings.Contains(res.Body, `aria-selected="true">Trabajador</a>`) || !strings.Contains(res.Body, "Acceso de personal") {
			t.Error("?loginType=worker does not select the staff tab")
		}

		res = webtest.Do(t, anon, "GET", a.URL+"/users/register", nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		for _, f := range []string{"full_name", "email", "phone", "password", "confirmPassword"} {
			if !strings.Contains(res.Body, `<label for="`+f+`">`) || !strings.Contains(res.Body, `name="`+f+`"`) {
				t.Errorf("register page lacks a labelled %s field", f)
			}
		}
		if strings.Contains(res.Body, "Cerrar sesión") {
			t.Error("anonymous page offers logout")
		}

		// Static files: hashed names, a year of immutable cache; nothing else served.
		refs := webtest.AssetRef.FindAllStringSubmatch(res.Body, -1)
		if len(refs) != 3 {
			t.Fatalf("asset references = %v, want the icon, the stylesheet and the script", refs)
		}
		for _, ref := range refs {
			if !regexp.MustCompile(`^/static/(app|favicon)\.[0-9a-f]{12}\.(css|js|svg)$`).MatchString(ref[1]) {
				t.Errorf("asset %s has no content hash in its name", ref[1])
			}
			res := webtest.Do(t, anon, "GET", a.URL+ref[1], nil)
			webtest.WantStatus(t, res, 200)
			if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
				t.Errorf("%s Cache-Control = %q", ref[1], cc)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") && !strings.HasPrefix(ct, "text/javascript") && ct != "image/svg+xml" {
				t.Errorf("%s Content-Type = %q", ref[1], ct)
			}
		}
		for _, p := range []string{"/static/app.css", "/static/app.0000000000.css", "/static/layout.html"} {
			if res := webtest.Do(t, anon, "GET", a.URL+p, nil); res.StatusCode != 404 {
				t.Errorf("GET %s = %d, want 404", p, res.StatusCode)
			}
		}

		// Logged in, the header names the user and offers logout (a POST form).
		admin, _ := apptest.Admin(t, a)
		res = webtest.Do(t, admin, "GET", a.URL+"/users/login", nil)
		for _, s := range []string{`<span class="whoami-name">Admin Test</span>`, `<form method="post" action="/users/logout"`, `href="/admin/dashboard"`} {
			if !strings.Contains(res.Body, s) {
				t.Errorf("admin header lacks %s", s)
			}
		}
		cust, _ := apptest.Customer(t, a, "c@example.com", "655000111")
		res = webtest.Do(t, cust, "GET", a.URL+"/users/register", nil)
		if !strings.Contains(res.Body, `<span class="badge">Cliente</span>`) || strings.Contains(res.Body, `href="/admin/dashboard"`) {
			t.Error("customer header wrong")
		}
	})
}

// GET /admin/dashboard: the page for browsers (date picker, counts and tables that
// its script fills from GET /api/reservations), the day's counts for JSON clients.
func TestAdminDashboard(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		admin, _ := apptest.Admin(t, a)
		madrid, _ := time.LoadLocation("Europe/Madrid")
		today := apptest.Now(a).In(madrid).Format("2006-01-02")

		res := webtest.Do(t, admin, "GET", a.URL+"/admin/dashboard", nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		for _, s := range []string{
			`data-dashboard`, `data-token-url="/admin/api-token"`, `data-api-url="/api/reservations"`,
			`data-detail-url="/admin/reservations/details/"`, `<input type="date" id="date" name="date" value="` + today + `" required>`,
			`data-today="` + today + `" data-now="` + strings.ReplaceAll(localtime.JSON(apptest.Now(a), madrid), "+", "&#43;") + `"`, // the server's clock
			`data-stat="entries"`, `data-stat="exits"`, `data-stat="total"`, `data-list="entries"`, `data-list="exits"`,
			`<a href="/admin/dashboard" aria-current="page">`,
		} {
			if !strings.Contains(res.Body, s) {
				t.Errorf("dashboard lacks %s", s)
			}
		}
		res = webtest.Do(t, admin, "GET", a.URL+"/admin/dashboard?date=2026-03-29", nil)
		webtest.WantStatus(t, res, 200)
		if !strings.Contains(res.Body, `name="date" value="2026-03-29"`) {
			t.Error("dashboard ignores ?date")
		}
		res = webtest.Do(t, admin, "GET", a.URL+"/admin/dashboard?date=nonsense", nil)
		webtest.WantStatus(t, res, 400)
		if !strings.Contains(res.Body, "La fecha indicada no es válida") || !strings.Contains(res.Body, `name="date" value="`+today+`"`) {
			t.Error("invalid date not explained in place")
		}

		webtest.SeedStay(t, a, "DASH1", "2026-11-21T08:00:00+01:00", "2026-11-21T18:00:00+01:00")
		webtest.SeedStay(t, a, "DASH2", "2026-11-21T09:00:00+01:00", "")
		res = webtest.Do(t, admin, "GET", a.URL+"/admin/dashboard?date=2026-11-21", nil, "Accept: application/json")
		webtest.WantStatus(t, res, 200)
		webtest.WantBody(t, res, `{"date":"2026-11-21","stats":{"total":3,"total_entries":2,"total_exits":1}}`)
		res = webtest.Do(t, admin, "GET", a.URL+"/admin/dashboard?date=nonsense", nil, "Accept: application/json")
		webtest.WantStatus(t, res, 400)
	})
}
