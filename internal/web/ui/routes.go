package ui

import "net/http"

// Routes registers every page and form post on mux. Each capability's handler
// type lists its own routes next to it (its routes method); this is the whole
// surface, a line per capability.
func (s *Server) Routes(mux *http.ServeMux) {
	// Accounts and sessions, email verification, privacy rights, staff
	// (accounts.go): /users/login, /users/register, /users/password/...,
	// /users/oidc/..., /users/logout, /users/verify..., /users/profile/{data,
	// delete,consents,claim}, /admin/customers/..., /admin/staff...
	accountPages{s.base}.routes(mux)
	// Customers (docs/customer-area.md; customer.go): /users/profile, its updates
	// and the own reservations' cancel and edit.
	customerPages{s.base}.routes(mux)
	// Administrators (docs/admin.md): every /admin route needs an ADMIN session
	// (RequireAdmin); the photo post also takes an administrator's API token.
	// The walk-in, detail and actions (reservations.go): /admin/reservations/...
	// but the photos.
	reservationPages{s.base}.routes(mux)
	// The read side (records.go): /admin/dashboard, /admin/api-token,
	// /admin/history, /admin/history.csv, /admin/parking..., /admin/audit,
	// /admin/find and the QR code's /r/{reference}.
	recordsPages{s.base}.routes(mux)
	// The figures and the invoice book (reports.go, docs/reports.md): /admin/reports,
	// /admin/reports/invoices.
	reportPages{s.base}.routes(mux)
	// The catalog and the facility settings (catalog.go): /admin/catalog/...,
	// /admin/settings.
	catalogPages{s.base}.routes(mux)
	// Partners (partners.go): /admin/partners..., keys and statements.
	partnerPages{s.base}.routes(mux)
	// Receipts (receipts.go): …/receipt and …/receipt.pdf for staff and the owner,
	// /admin/reservations/{id}/invoice, /admin/verifactu/records.
	receiptPages{s.base}.routes(mux)
	// Hand-over (handover.go): POST /admin/reservations/{id}/photos,
	// /media/photos/..., and the entry document …/justificante for staff, the
	// owner and the manage link.
	handoverPages{s.base}.routes(mux)
	// Manage my booking without an account (docs/manage-booking.md; manage.go):
	// /reserva, /reserva/{reference}/...
	managePages{receiptPages{s.base}}.routes(mux)
	// The gate's cameras and their events (docs/gate.md; gate.go): /admin/devices...,
	// /admin/gate.
	gatePages{s.base}.routes(mux)
	// Public pages (docs/web-pages.md; public.go): home, the 3-step booking flow,
	// /privacidad, /condiciones.
	publicPages{s.base}.routes(mux)
	arrivalPages{s.base}.routes(mux) // the booking's QR code (arrival.go)

	// Static files.
	mux.HandleFunc("GET /static/{file}", s.assets.serveStatic)
}

// adminOnly registers administrators' routes on mux: each needs an ADMIN
// session (RequireAdmin).
func (s *base) adminOnly(mux *http.ServeMux) func(pattern string, h http.HandlerFunc) {
	return func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, s.RequireAdmin(h)) }
}
