package api

import "net/http"

// Routes registers the whole JSON API on mux, on one screen.
func (s *Server) Routes(mux *http.ServeMux) {
	// Public JSON API (docs/routes.md#who-may-call).
	mux.HandleFunc("POST /api/pricing/dynamic", s.apiPricing)
	mux.HandleFunc("GET /api/catalog", s.apiCatalog)
	mux.HandleFunc("GET /api/availability", s.apiAvailability) // docs/capacity.md#seeing-it
	mux.HandleFunc("GET /api/openapi.json", s.apiOpenAPI)
	// Anonymous writes are limited per client address (docs/public-booking.md#limits-on-anonymous-traffic); the alias
	// counts with its route.
	publicBooking := s.limit.Limit("public-booking", s.apiPublicBooking, s.WriteSuccessFalse)
	mux.HandleFunc("POST /api/reservations/public-new", publicBooking)
	mux.HandleFunc("POST /api/reservations/public", publicBooking)

	// Managing a booking without an account (docs/manage-booking.md#the-lookup-and-guessing). The lookup is limited
	// per client address (docs/public-booking.md#limits-on-anonymous-traffic) and throttled per reference (booking.Lookup); the
	// other routes need the manage token the lookup or the link gives.
	mux.HandleFunc("POST /api/bookings/lookup", s.limit.Limit("booking-lookup", s.apiBookingLookup, s.WriteSuccessFalse))
	mux.HandleFunc("GET /api/bookings/{reference}", s.apiManagedBooking)
	mux.HandleFunc("POST /api/bookings/{reference}/cancel", s.apiManagedCancel)
	mux.HandleFunc("PUT /api/bookings/{reference}", s.apiManagedEdit)

	// API tokens (docs/accounts.md#api-tokens).
	mux.HandleFunc("POST /api/auth/token", s.limit.Limit("token", s.apiIssueToken, s.WriteErrorField))
	mux.HandleFunc("DELETE /api/auth/token", s.apiRevokeToken)

	// Plate-recognition cameras at the gate, with a camera's own token (docs/gate.md).
	mux.HandleFunc("POST /api/gate/events", s.apiGateEvent)

	// The partner API (docs/partners.md): a partner's key, limited per key.
	mux.HandleFunc("GET /api/partner/availability", s.requirePartner(s.apiPartnerAvailability))
	mux.HandleFunc("POST /api/partner/quote", s.requirePartner(s.apiPricing))
	mux.HandleFunc("POST /api/partner/bookings", s.requirePartner(s.apiPartnerBook))
	mux.HandleFunc("GET /api/partner/bookings/{partner_reference}", s.requirePartner(s.apiPartnerBooking))
	mux.HandleFunc("PUT /api/partner/bookings/{partner_reference}", s.requirePartner(s.apiPartnerEdit))
	mux.HandleFunc("POST /api/partner/bookings/{partner_reference}/cancel", s.requirePartner(s.apiPartnerCancel))

	// The administrators' daily board, with an ADMIN bearer token.
	mux.HandleFunc("GET /api/reservations", s.RequireAdminToken(s.apiReservations))
}
