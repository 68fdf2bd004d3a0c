package httpx

import (
	"net/http"
	"strings"

	"parking/internal/i18n"
)

// ErrorPage renders the site's error page for browsers (the pages' error.html).
type ErrorPage func(w http.ResponseWriter, r *http.Request, status int, heading, message string)

// Unrouted answers the requests no route takes — an unknown path (404) or a known
// path with another method (405) — in the site's own words instead of Go's plain
// "404 page not found": browsers get the site's error page in the page's language (Spanish on /api); API paths
// (/api/…) and clients preferring JSON (docs/errors.md#json-on-web-routes) get {"success": false,
// "message": …} with the same status. A 405 keeps its Allow header. Static files
// (/static/…) keep the plain answer: nobody reads it, and a page with its own
// stylesheets would be an odd answer to a missing stylesheet.
//
// The routes' own 404s (an unknown reservation, say) are theirs: only requests that
// match no pattern come here.
func Unrouted(mux *http.ServeMux, page ErrorPage) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" || strings.HasPrefix(r.URL.Path, "/static/") {
			// A route, or one of the mux's redirects (to the cleaned path).
			mux.ServeHTTP(w, r)
			return
		}
		// Ask the mux's own answer for its status and Allow header; its text is
		// not sent.
		var ans muxAnswer
		h.ServeHTTP(&ans, r)
		if ans.status != http.StatusMethodNotAllowed {
			ans.status = http.StatusNotFound
		}
		lang := langOf(r)
		heading, msg := i18n.T(lang, "error.not_found"), i18n.T(lang, "error.not_found_msg")
		if ans.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", ans.Header().Get("Allow"))
			heading, msg = i18n.T(lang, "error.not_allowed"), i18n.T(lang, "error.not_allowed_msg", "Method", r.Method)
		}
		if r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/") || WantsJSON(r) {
			WriteJSON(w, ans.status, map[string]any{"success": false, "message": msg})
			return
		}
		page(w, r, ans.status, heading, msg)
	})
}

// muxAnswer keeps the status and headers of the mux's not-found or
// method-not-allowed answer and drops its body.
type muxAnswer struct {
	header http.Header
	status int
}

func (a *muxAnswer) Header() http.Header {
	if a.header == nil {
		a.header = http.Header{}
	}
	return a.header
}

func (a *muxAnswer) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *muxAnswer) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return len(b), nil
}
