package ui

import "net/http"

// accountPages are accounts and sessions (docs/accounts.md): login,
// registration, password reset, social login and logout; email verification and
// claims; the privacy rights (docs/privacy.md) for the customer and for staff;
// and the staff accounts (docs/staff-and-audit.md).
type accountPages struct{ *base }

func (s accountPages) routes(mux *http.ServeMux) {
	// The cookie-setting POSTs refuse cross-origin requests (login CSRF).
	mux.HandleFunc("GET /users/login", s.loginPage)
	mux.Handle("POST /users/login", s.SameOrigin(http.HandlerFunc(s.login)))
	mux.HandleFunc("GET /users/register", s.registerPage)
	// Registration is limited per client address (docs/public-booking.md#limits-on-anonymous-traffic): it answers 409 for a
	// taken email, so it must not serve to test addresses in bulk.
	mux.Handle("POST /users/register", s.SameOrigin(s.limit.Limit("register", s.register, s.registerRefused)))
	// Password reset (docs/manage-booking.md: the request is limited per client address).
	mux.HandleFunc("GET /users/password/forgot", s.forgotPage)
	mux.Handle("POST /users/password/forgot", s.SameOrigin(s.limit.Limit("password-reset", s.forgot, s.forgotRefused)))
	mux.HandleFunc("GET /users/password/reset", s.resetPage)
	mux.Handle("POST /users/password/reset", s.SameOrigin(s.limit.Limit("password-reset-set", s.reset, s.forgotRefused)))
	// Social login (docs/social-login.md; accounts_social.go). Starting one writes a
	// row, so it is limited per client address like the other anonymous writes.
	mux.HandleFunc("GET /users/oidc/{provider}/start", s.limit.Limit("oidc", s.oidcStart, s.oidcRefused))
	mux.HandleFunc("GET /users/oidc/{provider}/callback", s.oidcCallback)
	mux.HandleFunc("GET /users/oidc/link", s.oidcLinkPage)
	mux.Handle("POST /users/oidc/link", s.SameOrigin(http.HandlerFunc(s.oidcLink)))
	mux.HandleFunc("GET /users/logout", s.logout)
	mux.Handle("POST /users/logout", s.SameOrigin(http.HandlerFunc(s.logout)))

	// Email verification and claims (accounts_verify.go): the emailed link needs no
	// session; a resend and a claim are limited per client address, a claim also
	// throttled per reference like the booking lookup.
	mux.HandleFunc("GET /users/verify", s.verifyEmail)
	mux.Handle("POST /users/verify/resend", s.RequireUser(s.limit.Limit("verify-resend", s.resendVerification, s.customerFormRefused)))
	mux.Handle("POST /users/profile/claim", s.RequireUser(s.limit.Limit("booking-lookup", s.claimBooking, s.customerFormRefused)))

	// Privacy rights (accounts_privacy.go): the data export and the erasure, for
	// the customer and for staff on a guest's request.
	mux.Handle("GET /users/profile/data", s.RequireUser(s.customerExport))
	mux.Handle("POST /users/profile/delete", s.RequireUser(s.customerErase))
	mux.Handle("POST /users/profile/consents", s.RequireUser(s.customerConsents))
	admin := s.adminOnly(mux)
	admin("GET /admin/customers/{id}/data", s.adminCustomerExport)
	admin("POST /admin/customers/{id}/erase", s.adminCustomerErase)

	// Staff accounts.
	admin("GET /admin/staff", s.adminStaff)
	admin("POST /admin/staff", s.adminCreateStaff)
	admin("POST /admin/staff/{id}/disable", s.adminDisableStaff)
	admin("POST /admin/staff/{id}/enable", s.adminEnableStaff)
	admin("POST /admin/staff/{id}/password", s.adminStaffPassword)
}
