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

	// Administrators (spec, Administrator web routes; CONTRACT §4, §6, §7). Every
	// route needs an ADMIN session (requireAdmin).
	admin := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, s.requireAdmin(h)) }
	admin("GET /admin/reservations/new", s.adminWalkInForm)
	admin("POST /admin/reservations/new", s.adminWalkIn)
	admin("GET /admin/reservations/details/{id}", s.adminDetails)
	admin("POST /admin/reservations/{id}/edit", s.adminEdit)
	admin("PATCH /admin/reservations/{id}/start", s.adminStart)
	admin("PATCH /admin/reservations/{id}/finalize", s.adminFinalize)
	admin("PATCH /admin/reservations/{id}/cancel", s.adminCancel)
	admin("POST /admin/reservations/{id}/photos", s.adminAddPhoto)
	admin("GET /admin/history", s.adminHistory)
	admin("GET /admin/parking", s.adminParking)
	admin("GET /admin/parking/events", s.adminParkingEvents)
	admin("GET /admin/catalog", s.adminCatalog)
	admin("POST /admin/catalog/main-services", s.adminCreateMainService)
	admin("POST /admin/catalog/main-services/{id}", s.adminUpdateMainService)
	admin("PATCH /admin/catalog/main-services/{id}", s.adminUpdateMainService)
	admin("POST /admin/catalog/rates", s.adminCreateRate)
	admin("POST /admin/catalog/rates/{id}", s.adminUpdateRate)
	admin("PATCH /admin/catalog/rates/{id}", s.adminUpdateRate)
	admin("DELETE /admin/catalog/rates/{id}", s.adminDeleteRate)
	admin("POST /admin/catalog/rates/{id}/delete", s.adminDeleteRate)
	admin("POST /admin/catalog/vehicle-types", s.adminCreateVehicleType)
	admin("POST /admin/catalog/vehicle-types/{type}", s.adminUpdateVehicleType)
	admin("PATCH /admin/catalog/vehicle-types/{type}", s.adminUpdateVehicleType)
	admin("POST /admin/catalog/additional-services", s.adminCreateExtra)
	admin("POST /admin/catalog/additional-services/{id}", s.adminUpdateExtra)
	admin("PATCH /admin/catalog/additional-services/{id}", s.adminUpdateExtra)
	mux.HandleFunc("GET /api/reservations", s.requireAdminToken(s.apiReservations))
	admin("GET /admin/dashboard", s.adminDashboard)
	admin("POST /admin/api-token", s.adminAPIToken)
	admin("POST /admin/reservations/{id}/invoice", s.adminRequestInvoice)
	// Administrator pages (issue 7): the CSV export of the filtered history and the
	// printable receipt; the other pages are the GET routes above, for browsers.
	admin("GET /admin/history.csv", s.adminHistoryCSV)
	admin("GET /admin/reservations/details/{id}/receipt", s.adminReceipt)

	// Customers (spec, Customer web routes; CONTRACT §6, §7).
	mux.Handle("GET /users/profile", s.requireUser(s.customerProfile))
	mux.Handle("PUT /users/profile/update", s.requireUser(s.customerUpdateProfile))
	mux.Handle("PUT /users/profile/password", s.requireUser(s.customerChangePassword))
	mux.Handle("DELETE /users/profile/reservation/{id}/cancel", s.requireUser(s.customerCancel))
	mux.Handle("PUT /users/profile/reservation/{id}/edit", s.requireUser(s.customerEdit))
	mux.Handle("GET /users/profile/reservation/{id}/receipt", s.requireUser(s.customerReceipt))

	// Public pages (spec, Public pages): home and the 3-step booking flow.
	mux.HandleFunc("GET /{$}", s.homePage)
	mux.HandleFunc("GET /booking", s.bookingPage)

	// Pages and static files.
	mux.HandleFunc("GET /static/{file}", s.assets.serveStatic)
}
