package web

import "net/http"

// routes is the whole HTTP surface on one screen.
func (s *Server) routes(mux *http.ServeMux) {
	// Operations.
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)

	// Public JSON API (spec, Authentication 1; CONTRACT §4).
	mux.HandleFunc("POST /api/pricing/dynamic", s.apiPricing)
	mux.HandleFunc("GET /api/catalog", s.apiCatalog)
	mux.HandleFunc("POST /api/reservations/public-new", s.apiPublicBooking)
	mux.HandleFunc("POST /api/reservations/public", s.apiPublicBooking)

	// Accounts, sessions and API tokens.

	// Administrators.
	mux.Handle("POST /admin/reservations/{id}/invoice", s.requireAdmin(s.adminRequestInvoice))

	// Customers.

	// Pages and static files.
}
