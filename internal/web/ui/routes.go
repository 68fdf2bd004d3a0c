package ui

import "net/http"

// Routes registers every page and form post on mux, on one screen.
func (s *Server) Routes(mux *http.ServeMux) {
	// Accounts and sessions (docs/accounts.md). The cookie-setting
	// POSTs refuse cross-origin requests (login CSRF).
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
	// Social login (docs/social-login.md; users_social.go). Starting one writes a
	// row, so it is limited per client address like the other anonymous writes.
	mux.HandleFunc("GET /users/oidc/{provider}/start", s.limit.Limit("oidc", s.oidcStart, s.oidcRefused))
	mux.HandleFunc("GET /users/oidc/{provider}/callback", s.oidcCallback)
	mux.HandleFunc("GET /users/oidc/link", s.oidcLinkPage)
	mux.Handle("POST /users/oidc/link", s.SameOrigin(http.HandlerFunc(s.oidcLink)))
	mux.HandleFunc("GET /users/logout", s.logout)
	mux.Handle("POST /users/logout", s.SameOrigin(http.HandlerFunc(s.logout)))

	// Administrators (docs/admin.md). Every
	// route needs an ADMIN session (RequireAdmin).
	admin := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, s.RequireAdmin(h)) }
	admin("GET /admin/reservations/new", s.adminWalkInForm)
	admin("POST /admin/reservations/new", s.adminWalkIn)
	admin("GET /admin/reservations/details/{id}", s.adminDetails)
	admin("POST /admin/reservations/{id}/edit", s.adminEdit)
	admin("PATCH /admin/reservations/{id}/start", s.adminStart)
	admin("PATCH /admin/reservations/{id}/finalize", s.adminFinalize)
	admin("GET /admin/reservations/{id}/{view}", s.adminCheckout) // {view} = checkout (docs/exit.md#checkout-preview)
	admin("PATCH /admin/reservations/{id}/cancel", s.adminCancel)
	// Photos: also an administrator's API token (docs/photos.md#api-tokens).
	mux.Handle("POST /admin/reservations/{id}/photos", s.RequireAdminOrToken(s.adminAddPhoto))
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
	admin("GET /admin/dashboard", s.adminDashboard)
	// Facility settings (docs/settings.md): places, identity, VAT, photo retention.
	admin("GET /admin/settings", s.adminSettings)
	admin("POST /admin/settings", s.adminSaveSettings)
	admin("PATCH /admin/settings", s.adminSaveSettings)
	admin("POST /admin/api-token", s.adminAPIToken)
	admin("POST /admin/reservations/{id}/invoice", s.adminRequestInvoice)
	// Administrator pages (issue 7): the CSV export of the filtered history and the
	// printable receipt; the other pages are the GET routes above, for browsers.
	admin("GET /admin/history.csv", s.adminHistoryCSV)
	admin("GET /admin/reservations/details/{id}/receipt", s.adminReceipt)
	// Staff accounts and the audit trail (docs/staff-and-audit.md).
	admin("GET /admin/staff", s.adminStaff)
	admin("POST /admin/staff", s.adminCreateStaff)
	admin("POST /admin/staff/{id}/disable", s.adminDisableStaff)
	admin("POST /admin/staff/{id}/enable", s.adminEnableStaff)
	admin("POST /admin/staff/{id}/password", s.adminStaffPassword)
	admin("GET /admin/audit", s.adminAudit)
	// Receipts (docs/receipts.md): the PDF and the VeriFactu records' export.
	admin("GET /admin/reservations/details/{id}/receipt.pdf", s.adminReceiptPDF)
	admin("GET /admin/verifactu/records", s.adminVerifactuRecords)
	// The vehicle's entry document (docs/entry-document.md), for staff, the owner
	// and the manage link.
	admin("GET /admin/reservations/details/{id}/justificante", s.adminEntryDocument)
	mux.Handle("GET /users/profile/reservation/{id}/justificante", s.RequireUser(s.customerEntryDocument))
	mux.HandleFunc("GET /reserva/{reference}/justificante", s.manageEntryDocument)

	// Customers (docs/customer-area.md).
	mux.Handle("GET /users/profile", s.RequireUser(s.customerProfile))
	mux.Handle("PUT /users/profile/update", s.RequireUser(s.customerUpdateProfile))
	mux.Handle("PUT /users/profile/password", s.RequireUser(s.customerChangePassword))
	mux.Handle("DELETE /users/profile/reservation/{id}/cancel", s.RequireUser(s.customerCancel))
	mux.Handle("PUT /users/profile/reservation/{id}/edit", s.RequireUser(s.customerEdit))
	mux.Handle("GET /users/profile/reservation/{id}/receipt", s.RequireUser(s.customerReceipt))
	mux.Handle("GET /users/profile/reservation/{id}/receipt.pdf", s.RequireUser(s.customerReceiptPDF))
	// Privacy rights (customer_privacy.go; docs/privacy.md): the data export and the
	// erasure, for the customer and for staff on a guest's request.
	mux.Handle("GET /users/profile/data", s.RequireUser(s.customerExport))
	mux.Handle("POST /users/profile/delete", s.RequireUser(s.customerErase))
	mux.Handle("POST /users/profile/consents", s.RequireUser(s.customerConsents))
	// Email verification and claims (customer_verify.go): the emailed link needs no
	// session; a resend and a claim are limited per client address, a claim also
	// throttled per reference like the booking lookup.
	mux.HandleFunc("GET /users/verify", s.verifyEmail)
	mux.Handle("POST /users/verify/resend", s.RequireUser(s.limit.Limit("verify-resend", s.resendVerification, s.customerFormRefused)))
	mux.Handle("POST /users/profile/claim", s.RequireUser(s.limit.Limit("booking-lookup", s.claimBooking, s.customerFormRefused)))
	admin("GET /admin/customers/{id}/data", s.adminCustomerExport)
	admin("POST /admin/customers/{id}/erase", s.adminCustomerErase)

	// Manage my booking without an account (docs/manage-booking.md#the-lookup-and-guessing): the lookup form is
	// limited with the JSON lookup (docs/public-booking.md#limits-on-anonymous-traffic) and throttled per reference.
	mux.HandleFunc("GET /reserva", s.manageLookupPage)
	mux.Handle("POST /reserva", s.SameOrigin(s.limit.Limit("booking-lookup", s.manageLookup, func(w http.ResponseWriter, r *http.Request, err error) {
		s.manageLookupRefused(w, r, manageLookupView{}, err)
	})))
	mux.HandleFunc("GET /reserva/{reference}", s.managePage)
	mux.HandleFunc("GET /reserva/{reference}/recibo", s.manageReceipt)
	mux.HandleFunc("GET /reserva/{reference}/recibo.pdf", s.manageReceiptPDF)
	mux.Handle("POST /reserva/{reference}/cancelar", s.SameOrigin(http.HandlerFunc(s.manageCancel)))
	mux.Handle("POST /reserva/{reference}/modificar", s.SameOrigin(http.HandlerFunc(s.manageEdit)))

	// Public pages (docs/web-pages.md): home and the 3-step booking flow.
	mux.HandleFunc("GET /{$}", s.homePage)
	mux.HandleFunc("GET /booking", s.bookingPage)
	// Privacy policy and terms (privacy_pages.go; docs/privacy.md).
	mux.HandleFunc("GET /privacidad", s.privacyPage)
	mux.HandleFunc("GET /condiciones", s.termsPage)

	// Uploaded photos (docs/photos.md): to staff and to the reservation's customer;
	// the handler checks who asks (admin_photos.go).
	mux.HandleFunc("GET /media/photos/{id}/{size}", s.mediaPhoto)

	// Static files.
	mux.HandleFunc("GET /static/{file}", s.assets.serveStatic)
}
