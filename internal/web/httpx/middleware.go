package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"path"
	"runtime/debug"
	"strings"
	"time"
)

type ctxKey int

const requestIDKey ctxKey = iota

// statusRecorder remembers the status a handler wrote, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
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
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		rec := &statusRecorder{ResponseWriter: w}
		info := &requestInfo{id: id}
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey, info))
		next.ServeHTTP(rec, r)
		if s.observe != nil {
			route, status := info.pattern, rec.status
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
			"method", r.Method, "pattern", info.pattern, "path", r.URL.Path, "status", rec.status,
			"duration_ms", float64(time.Since(start).Microseconds())/1000, "request_id", id, "client", ClientAddr(r))
	})
}

// requestInfo is what LogRequests learns about a request from inside: the mux
// sets the matched pattern on the request it is given, which is a copy of the
// one LogRequests holds (middleware in between derive contexts), so NotePattern
// reports it back here.
type requestInfo struct {
	id      string
	pattern string
}

// NotePattern wraps the handler holding the mux and tells LogRequests the route
// pattern the mux matched, for the request log.
func NotePattern(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		if info, ok := r.Context().Value(requestIDKey).(*requestInfo); ok {
			info.pattern = r.Pattern
		}
	})
}

// SecurityHeaders sets the headers every response carries (docs/security.md#headers).
// https (PARKING_BASE_URL is https) adds Strict-Transport-Security.
func SecurityHeaders(https bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' https: http: data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'")
		h.Set("Permissions-Policy", PermissionsPolicy(r.URL.Path))
		if https {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// PermissionsPolicy is the Permissions-Policy of the page at path: no powerful
// feature anywhere, but the camera for the site itself on staff pages (/admin/…),
// where the counter photographs vehicles.
func PermissionsPolicy(path string) string {
	camera := "camera=()"
	if path == "/admin" || strings.HasPrefix(path, "/admin/") {
		camera = "camera=(self)"
	}
	return camera + ", microphone=(), geolocation=(), payment=(), usb=(), display-capture=(), accelerometer=(), gyroscope=(), magnetometer=()"
}

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
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, p := range long {
				if ok, _ := path.Match(p, r.URL.Path); ok || r.URL.Path == p {
					next.ServeHTTP(w, r)
					return
				}
			}
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
