package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/records"
	"parking/internal/web/httpx"
)

// healthz answers while the process is up.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the database is reachable and the catalog is loaded
// (records.Service.Ready).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	switch err := s.records.Ready(ctx); {
	case errors.Is(err, records.ErrCatalogNotLoaded):
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "catalog not loaded"})
		return
	case err != nil:
		s.log.Warn("not ready: database", "err", err)
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database unreachable"})
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// Starting is the whole HTTP surface while the service waits for its database at
// start (PARKING_DB_WAIT): /healthz answers 200 (the process is up), /readyz and
// every other route 503 with Retry-After (docs/reliability.md), in JSON for API paths and
// JSON clients, as a short Spanish page for browsers.
func Starting(baseURL string) http.Handler {
	return httpx.SecurityHeaders(strings.HasPrefix(baseURL, "https://"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", httpx.RetryAfterUnavailable)
		switch {
		case r.URL.Path == "/healthz":
			w.Header().Del("Retry-After")
			httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		case r.URL.Path == "/readyz":
			httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database unreachable"})
		case httpx.WantsJSON(r) || strings.HasPrefix(r.URL.Path, "/api/"):
			httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"success": false, "message": fault.MsgUnavailable})
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Servicio no disponible</title></head>`+
				`<body><h1>Servicio no disponible</h1><p>`+fault.MsgUnavailable+`</p></body></html>`+"\n")
		}
	}))
}
