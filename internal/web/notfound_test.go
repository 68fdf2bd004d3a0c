package web_test

import (
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// A path no route takes is the site's own 404 page in Spanish for browsers, and
// {"success": false, "message"} for API paths and JSON clients; a known path with
// another method keeps 405 and its Allow header, in the same shapes. The routes'
// own 404s and a missing static file are untouched.
func TestUnroutedRequests(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		anon := apptest.Client(t)
		const html = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

		for _, path := range []string{"/nothing-here", "/booking/extra", "/users", "/admin/nothing"} {
			res := webtest.Do(t, anon, "GET", a.URL+path, nil, html)
			webtest.WantStatus(t, res, 404)
			webtest.CheckPage(t, res)
			webtest.WantAll(t, path, res.Body, `<h1 id="error-title">Página no encontrada</h1>`,
				`<p class="alert alert-error" role="alert">La dirección solicitada no existe.</p>`,
				`<a class="btn" href="/">Ir a la página de inicio</a>`, `<a class="brand" href="/">`)
			if strings.Contains(res.Body, "404 page not found") {
				t.Errorf("%s: Go's plain text", path)
			}
		}
		// A HEAD has the status without a body.
		if res := webtest.Do(t, anon, "HEAD", a.URL+"/nothing-here", nil, html); res.StatusCode != 404 || res.Body != "" {
			t.Errorf("HEAD unknown path: %d %q", res.StatusCode, res.Body)
		}

		// API paths answer JSON whatever the Accept header; other paths when JSON is preferred.
		for _, c := range []struct{ path, accept string }{
			{"/api/nothing", html}, {"/api/nothing", "Accept: */*"}, {"/api", "Accept: */*"}, {"/api/catalog/extra", "Accept: */*"},
			{"/nothing-here", "Accept: application/json"},
		} {
			res := webtest.Do(t, anon, "GET", a.URL+c.path, nil, c.accept)
			webtest.WantStatus(t, res, 404)
			if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("%s: Content-Type %q", c.path, ct)
			}
			webtest.WantBody(t, res, `{"message":"La dirección solicitada no existe.","success":false}`)
		}

		// 405 on a known path: the Allow header kept, the site's words.
		res := webtest.Do(t, anon, "DELETE", a.URL+"/api/catalog", nil)
		webtest.WantStatus(t, res, 405)
		if allow := res.Header.Get("Allow"); !strings.Contains(allow, "GET") {
			t.Errorf("Allow = %q", allow)
		}
		webtest.WantBody(t, res, `{"message":"La dirección solicitada no admite el método DELETE.","success":false}`)
		res = webtest.Do(t, anon, "PUT", a.URL+"/booking", strings.NewReader("x"), html)
		webtest.WantStatus(t, res, 405)
		webtest.CheckPage(t, res)
		webtest.WantAll(t, "405 page", res.Body, `<h1 id="error-title">Operación no permitida</h1>`, "La dirección solicitada no admite el método PUT.")
		if allow := res.Header.Get("Allow"); !strings.Contains(allow, "GET") {
			t.Errorf("Allow = %q", allow)
		}

		// Untouched: a route's own 404 (JSON of the route), a missing static file,
		// and the mux's redirect to the cleaned path.
		res = webtest.Do(t, anon, "GET", a.URL+"/static/nothing.css", nil, html)
		webtest.WantStatus(t, res, 404)
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("missing static file: Content-Type %q, want the plain answer", res.Header.Get("Content-Type"))
		}
		res = webtest.Do(t, anon, "GET", a.URL+"/static/a/b.css", nil, html)
		if res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("static path of two segments: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		res = webtest.Do(t, anon, "GET", a.URL+"/booking/../booking", nil, html)
		if res.StatusCode/100 != 3 || res.Header.Get("Location") != "/booking" {
			t.Errorf("a path to clean: %d to %q, want the mux's redirect to /booking", res.StatusCode, res.Header.Get("Location"))
		}
	})
}
