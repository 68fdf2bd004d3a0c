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

	// Accounts, sessions and API tokens (spec, Authentication; CONTRACT §5). The
	// cookie-setting POSTs refuse cross-origin requests (login CSRF).
	mux.HandleFunc("GET /users/login", s.loginPage)
	mux.Handle("POST /users/login", s.crossOrigin.Handler(http.HandlerFunc(s.login)))
	mux.HandleFunc("GET /users/register", s.registerPage)
	mux.Handle("POST /users/register", s.crossOrigin.Handler(http.HandlerFunc(s.register)))
	mux.HandleFunc("GET /users/logout", s.logout)
	mux.Handle("POST /users/logout", s.crossOrigin.Handler(http.HandlerFunc(s.logout)))
	mux.HandleFunc("POST /api/auth/token", s.apiIssueToken)
	mux.HandleFunc("DELETE /api/auth/token", s.apiRevokeToken)

	// Administrators.
	mux.HandleFunc("GET /api/reservations", s.requireAdminToken(s.apiReservations))
	mux.Handle("GET /admin/dashboard", s.requireAdmin(s.adminDashboard))
	mux.Handle("POST /admin/api-token", s.requireAdmin(s.adminAPIToken))
	mux.Handle("POST /admin/reservations/{id}/invoice", s.requireAdmin(s.adminRequestInvoice))

	// Customers (spec, Customer web routes; CONTRACT §6, §7).
	mux.Handle("GET /users/profile", s.requireUser(s.customerProfile))
	mux.Handle("PUT /users/profile/update", s.requireUser(s.customerUpdateProfile))
	mux.Handle("PUT /users/profile/password", s.requireUser(s.customerChangePassword))
	mux.Handle("DELETE /users/profile/reservation/{id}/cancel", s.requireUser(s.customerCancel))
	mux.Handle("PUT /users/profile/reservation/{id}/edit", s.requireUser(s.customerEdit))

	// Public pages (spec, Public pages): home and the 3-step booking flow.
	mux.HandleFunc("GET /{$}", s.homePage)
	mux.HandleFunc("GET /booking", s.bookingPage)

	// Pages and static files.
	mux.HandleFunc("GET /static/{file}", s.assets.serveStatic)
}
