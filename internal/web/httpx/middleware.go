package httpx

import (
	"context"
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"path"
	"runtime/debug"
	"strings"
	"time"
)

// statusRecorder remembers the status a handler wrote, for the request log, and the
// route pattern the mux matched (NotePattern).
type statusRecorder struct {
	http.ResponseWriter
	status  int
	pattern string
	// id backs the X-Request-Id header's value slice (one allocation with the recorder).
	id [1]string
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	if code == http.StatusServiceUnavailable && r.Header().Get("Retry-After") == "" {
		// Every 503 tells the client when to try again (docs/reliability.md).
		r.Header().Set("Retry-After", RetryAfterUnavailable)
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush for server-sent events.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// RecoverPanics turns a handler panic into a logged 500, keeping the process alive.
func (s *Kit) RecoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(r.Context(), "handler panic", "panic", p, "stack", string(debug.Stack()))
				WriteJSON(w, http.StatusInternalServerError, map[string]any{"success": false, "message": GenericMessage(langOf(r), MsgInternalES)})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// RetryAfterUnavailable is the Retry-After, in seconds, of a 503 (docs/reliability.md).
const RetryAfterUnavailable = "5"

// LogRequests gives every request an id (X-Request-Id) and logs its outcome.
func (s *Kit) LogRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			id = newRequestID()
		}
		rec := &statusRecorder{ResponseWriter: w, id: [1]string{id}}
		w.Header()["X-Request-Id"] = rec.id[:]
		next.ServeHTTP(rec, r)
		if s.observe != nil {
			route, status := rec.pattern, rec.status
			if route == "" {
				route = "unmatched"
			}
			if status == 0 {
				status = http.StatusOK
			}
			s.observe(route, status, time.Since(start))
		}
		// Checked first: building the attributes costs allocations even when the
		// level is off (price quotes at tens of thousands a second).
		if !s.log.Enabled(r.Context(), slog.LevelInfo) {
			return
		}
		s.log.InfoContext(r.Context(), "request",
			"method", r.Method, "pattern", rec.pattern, "path", r.URL.Path, "status", rec.status,
			"duration_ms", float64(time.Since(start).Microseconds())/1000, "request_id", id, "client", ClientAddr(r))
	})
}

// newRequestID is a request id of 16 hexadecimal digits. It names a request in the
// logs and is no secret: a fast pseudo-random source does.
func newRequestID() string {
	var b [8]byte
	v := rand.Uint64()
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return hex.EncodeToString(b[:])
}

// NotePattern wraps the handler holding the mux and tells LogRequests the route
// pattern the mux matched, for the request log: the mux sets it on the request it
// is given, which may be a copy of the one LogRequests holds (middleware in between
// derive contexts), so it is reported back on LogRequests' response writer, found
// through the writers wrapping it (Unwrap).
func NotePattern(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		for w != nil {
			if rec, ok := w.(*statusRecorder); ok {
				rec.pattern = r.Pattern
				return
			}
			u, ok := w.(interface{ Unwrap() http.ResponseWriter })
			if !ok {
				return
			}
			w = u.Unwrap()
		}
	})
}

// SecurityHeaders sets the headers every response carries (docs/security.md#headers).
// https (PARKING_BASE_URL is https) adds Strict-Transport-Security.
func SecurityHeaders(https bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The values are built once (securityValues); the keys are in canonical form, so
		// they go into the map as they are. Each answer gets its own one-element slices
		// (a handler may change a value in place), copied from the shared ones in one
		// allocation.
		h := w.Header()
		vals := securityValues
		if isStaffPath(r.URL.Path) {
			vals = securityValuesStaff
		}
		n := len(securityKeys)
		if !https {
			n-- // Strict-Transport-Security is the last
		}
		own := make([]string, n)
		copy(own, vals[:n])
		for i, k := range securityKeys[:n] {
			h[k] = own[i : i+1 : i+1]
		}
		next.ServeHTTP(w, r)
	})
}

// securityKeys are the headers SecurityHeaders sets, Strict-Transport-Security last (https
// only); securityValues their values, securityValuesStaff those of staff pages.
var (
	securityKeys   = [...]string{"X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "Content-Security-Policy", "Permissions-Policy", "Strict-Transport-Security"}
	securityValues = [...]string{"nosniff", "same-origin", "DENY",
		"default-src 'self'; img-src 'self' https: http: data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'",
		permissionsPolicy, "max-age=31536000"}
	securityValuesStaff = func() [len(securityValues)]string {
		v := securityValues
		v[4] = permissionsPolicyStaff
		return v
	}()
)

// The Permissions-Policy values (PermissionsPolicy).
const (
	permissionsPolicyRest  = ", microphone=(), geolocation=(), payment=(), usb=(), display-capture=(), accelerometer=(), gyroscope=(), magnetometer=()"
	permissionsPolicy      = "camera=()" + permissionsPolicyRest
	permissionsPolicyStaff = "camera=(self)" + permissionsPolicyRest
)

// PermissionsPolicy is the Permissions-Policy of the page at path: no powerful
// feature anywhere, but the camera for the site itself on staff pages (/admin/…),
// where the counter photographs vehicles.
func PermissionsPolicy(path string) string {
	if isStaffPath(path) {
		return permissionsPolicyStaff
	}
	return permissionsPolicy
}

func isStaffPath(path string) bool { return path == "/admin" || strings.HasPrefix(path, "/admin/") }

// DBDeadline gives each request's context a deadline of d (PARKING_DB_TIMEOUT,
// docs/reliability.md): every database call made with it stops when it passes, the
// transaction rolls back, and the error is fault.Unavailable, a 503. The paths
// in long (exact, or path.Match patterns) are exempt: answers that stream for as
// long as the client reads (the live board's event stream, the history's CSV
// export, photos) and photo uploads, which set their own deadline on their
// database work (Kit.DBContext) once the files are read.
func DBDeadline(d time.Duration, long ...string) func(http.Handler) http.Handler {
	if d <= 0 {
		d = DefaultDBTimeout
	}
	// A pattern matches only paths starting with its text before the first
	// metacharacter: that prefix is checked first, path.Match only then.
	prefixes := make([]string, len(long))
	for i, p := range long {
		prefixes[i] = p[:strings.IndexAny(p+"*", `*?[\`)]
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for i, p := range long {
				if !strings.HasPrefix(r.URL.Path, prefixes[i]) {
					continue
				}
				if ok, _ := path.Match(p, r.URL.Path); ok || r.URL.Path == p {
					next.ServeHTTP(w, r)
					return
				}
			}
			if c := newDeadlineCtx(r.Context(), d); c != nil { // its timer starts when the database waits on it
				defer c.end()
				next.ServeHTTP(w, r.WithContext(c))
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
