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
//
// The mux matches once: it serves the request through unroutedWriter, which lets a
// route's answer through and keeps the mux's own 404 or 405 (its handlers run with
// no pattern set on the request; a redirect to the cleaned path has one).
func Unrouted(mux *http.ServeMux, page ErrorPage) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/static/") {
			mux.ServeHTTP(w, r)
			return
		}
		if r.RequestURI == "*" || r.Pattern != "" {
			// The mux answers 400 to "*" without matching (the site answers a 404);
			// a request another mux routed here keeps its pattern: this one is asked
			// without serving.
			h, pattern := mux.Handler(r)
			if pattern != "" {
				mux.ServeHTTP(w, r) // a route, or one of the mux's redirects (to the cleaned path)
				return
			}
			var ans muxAnswer
			h.ServeHTTP(&ans, r)
			unrouted(w, r, page, &ans)
			return
		}
		uw := &unroutedWriter{ResponseWriter: w, r: r}
		mux.ServeHTTP(uw, r)
		if uw.caught {
			unrouted(w, r, page, &uw.ans)
		}
	})
}

// unrouted answers a request no route takes, ans holding the mux's own answer (its
// status and Allow header; its text is not sent).
func unrouted(w http.ResponseWriter, r *http.Request, page ErrorPage, ans *muxAnswer) {
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
}

// unroutedWriter passes a route's answer to the ResponseWriter it wraps; the mux's
// own answer (no pattern on the request when its handler writes) goes to ans, and
// caught says there was one.
type unroutedWriter struct {
	http.ResponseWriter
	r      *http.Request
	ans    muxAnswer
	caught bool
}

// mine reports whether the writer is the mux's own answer's, and notes it.
func (u *unroutedWriter) mine() bool {
	if u.r.Pattern == "" {
		u.caught = true
	}
	return u.caught
}

func (u *unroutedWriter) Header() http.Header {
	if u.mine() {
		return u.ans.Header()
	}
	return u.ResponseWriter.Header()
}

func (u *unroutedWriter) WriteHeader(status int) {
	if u.mine() {
		u.ans.WriteHeader(status)
		return
	}
	u.ResponseWriter.WriteHeader(status)
}

func (u *unroutedWriter) Write(b []byte) (int, error) {
	if u.mine() {
		return u.ans.Write(b)
	}
	return u.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the wrapped writer (server-sent events).
func (u *unroutedWriter) Unwrap() http.ResponseWriter { return u.ResponseWriter }

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
