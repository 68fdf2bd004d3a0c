package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"parking/internal/booking"
	"parking/internal/web/httpx"
)

// healthz answers while the process is up.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the database is reachable and the catalog is loaded
// (booking.Service.Ready).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	switch err := s.booking.Ready(ctx); {
	case errors.Is(err, booking.ErrCatalogNotLoaded):
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "catalog not loaded"})
		return
	case err != nil:
		s.log.Warn("not ready: database", "err", err)
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database unreachable"})
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
