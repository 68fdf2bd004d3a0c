// Package api is the JSON API of the spec's first surface: every /api/... route
// (price quotes, the catalog, public booking and its alias, API tokens, and the
// administrators' daily board GET /api/reservations with its cache). It reads
// requests and writes answers through internal/web/httpx and calls the operations
// (booking, account) only. routes.go shows the whole surface on one screen. The
// pages (internal/web/ui) reuse its catalog wire shape (CatalogView).
package api

import (
	"log/slog"

	"parking/internal/account"
	"parking/internal/booking"
	"parking/internal/gate"
	"parking/internal/pricing"
	"parking/internal/records"
	"parking/internal/web/httpx"
)

// Server holds the API handlers' dependencies; the shared helpers come with the
// embedded kit.
type Server struct {
	*httpx.Kit
	cfg      httpx.Config
	log      *slog.Logger
	booking  *booking.Service
	records  *records.Service
	accounts *account.Service
	gate     *gate.Service
	catalog  *pricing.Holder
	boards   *boardCache
	limit    *httpx.RateLimiter
	// partners and partnerLimit serve the partner API (api_partner.go).
	partners     *booking.Partners
	partnerLimit *httpx.RateLimiter
}

// Deps are the collaborators of the API.
type Deps struct {
	Kit      *httpx.Kit
	Config   httpx.Config
	Log      *slog.Logger
	Booking  *booking.Service
	Records  *records.Service
	Accounts *account.Service
	Gate     *gate.Service // the cameras' events (docs/gate.md)
	Catalog  *pricing.Holder
	// Limiter is PARKING_PUBLIC_RATE's limiter (docs/public-booking.md#limits-on-anonymous-traffic), shared with the pages.
	Limiter *httpx.RateLimiter
	// PartnerLimiter counts each partner key's requests (PartnerRate a minute).
	PartnerLimiter *httpx.RateLimiter
}

// boardCacheBytes bounds the daily-board cache: about 70 busy days.
const boardCacheBytes = 32 << 20

// New builds the API.
func New(d Deps) *Server {
	return &Server{
		Kit: d.Kit, cfg: d.Config, log: d.Log, booking: d.Booking, records: d.Records, accounts: d.Accounts, gate: d.Gate, catalog: d.Catalog,
		boards: newBoardCache(boardCacheBytes), limit: d.Limiter,
		partners: booking.NewPartners(d.Booking), partnerLimit: d.PartnerLimiter,
	}
}
