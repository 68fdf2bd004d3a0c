// Package ui is the spec's second surface: every page and form post — the public
// pages (/, /booking), accounts and sessions (/users/login, /users/register,
// /users/logout), the customer area (/users/profile/...), the administrators' pages
// (/admin/..., with the parking board's server-sent events, the history CSV and the
// receipt) and /static/... — with their JSON answers for clients that prefer JSON
// (Accept, docs/errors.md#json-on-web-routes), the embedded templates and static files. It reads and
// answers through internal/web/httpx and calls the operations (booking, account)
// only; it reuses the JSON API's catalog wire shape (internal/web/api). routes.go
// shows the whole surface on one screen.
package ui

import (
	"log/slog"
	"net/http"

	"parking/internal/account"
	"parking/internal/booking"
	"parking/internal/catalog"
	"parking/internal/clock"
	"parking/internal/gate"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/pricing"
	"parking/internal/privacy"
	"parking/internal/records"
	"parking/internal/reports"
	"parking/internal/social"
	"parking/internal/web/httpx"
)

// Server is the pages: it builds the handler types, one per capability, and
// mounts their routes (routes.go).
type Server struct {
	*base
}

// base holds the pages' dependencies and the helpers every handler type shares
// (render, the error pages, the staff JSON shapes); the request helpers come with
// the embedded kit. Each handler type embeds it, so a handler reads s.booking,
// s.render, s.RequireAdmin alike.
type base struct {
	*httpx.Kit
	cfg        httpx.Config
	log        *slog.Logger
	booking    *booking.Service
	catalogOps *catalog.Service
	handover   *handover.Service
	records    *records.Service
	reports    *reports.Service // docs/reports.md
	accounts   *account.Service
	catalog    *pricing.Holder
	assets     *assets
	pages      *localized
	now        clock.Clock // "now" and "today" on pages (internal/clock)
	limit      *httpx.RateLimiter
	social     *social.Providers
	privacy    *privacy.Service
	gate       *gate.Service
	phones     input.Rules // the booking page's phone check (docs/input-rules.md#phones)
}

// Operations are what the pages and the service's assembly call: the operations by
// capability, the catalog as the quote holds it, the social-login providers (nil:
// none; no buttons, no routes answer).
type Operations struct {
	Booking    *booking.Service
	CatalogOps *catalog.Service
	Handover   *handover.Service
	Records    *records.Service
	Reports    *reports.Service // the figures and the invoice book (docs/reports.md)
	Accounts   *account.Service
	Privacy    *privacy.Service // the export and erasure of a customer's data
	Gate       *gate.Service    // the plate-recognition cameras (docs/gate.md)
	Catalog    *pricing.Holder
	Social     *social.Providers
	// Input reads phones in the facility's region (PARKING_PHONE_REGION), for the
	// booking page's phone check; the zero value reads them in Spain.
	Input input.Rules
}

// Deps are the collaborators of the pages.
type Deps struct {
	Operations
	Kit    *httpx.Kit
	Config httpx.Config
	Log    *slog.Logger
	Clock  clock.Clock
	// Limiter is PARKING_PUBLIC_RATE's limiter (docs/public-booking.md#limits-on-anonymous-traffic), shared with the API.
	Limiter *httpx.RateLimiter
}

// New builds the pages. It parses the embedded templates and static files; as
// they are part of the binary, a failure there is a programming error and panics.
func New(d Deps) *Server {
	s := &base{
		Kit: d.Kit, now: d.Clock, cfg: d.Config, log: d.Log, booking: d.Booking, catalogOps: d.CatalogOps, handover: d.Handover, records: d.Records, reports: d.Reports, accounts: d.Accounts, catalog: d.Catalog,
		limit: d.Limiter, social: d.Social, privacy: d.Privacy, phones: d.Input, gate: d.Gate,
	}
	var err error
	if s.assets, err = loadAssets(); err != nil {
		panic(err)
	}
	if s.pages, err = newLocalized(s.templateFuncs); err != nil {
		panic(err)
	}
	return &Server{s}
}

// ErrorPage renders the site's error page with a heading and a message and a way
// back to the home page (the 404/405 answer of httpx.Unrouted for browsers).
func (s *base) ErrorPage(w http.ResponseWriter, r *http.Request, status int, heading, message string) {
	s.render(w, r, status, "error.html", heading, errorView{
		Heading: heading, Message: message, BackHref: "/", BackLabel: "back.home",
	})
}
