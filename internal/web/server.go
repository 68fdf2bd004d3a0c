// Package web is the HTTP surface: the JSON API under /api, the session-based web
// routes under /admin, /users and /booking, and their middleware. It decodes and
// validates the wire format, calls booking, and writes the spec's body shapes; it is
// the only package that knows HTTP statuses.
package web

import (
	"log/slog"
	"net/http"
	"time"

	"parking/internal/account"
	"parking/internal/booking"
	"parking/internal/clock"
	"parking/internal/pricing"
)

// Config is what the web layer needs of the service configuration.
type Config struct {
	BaseURL  string
	Location *time.Location
	TokenTTL time.Duration
	Capacity int
}

// Server holds the handlers' dependencies.
type Server struct {
	cfg         Config
	log         *slog.Logger
	booking     *booking.Service
	accounts    *account.Service
	catalog     *pricing.Holder
	crossOrigin *http.CrossOriginProtection
	assets      *assets
	pages       pages
	boards      *boardCache
	now         clock.Clock // "now" and "today" on pages (internal/clock)
}

// Deps are the collaborators of a Server.
type Deps struct {
	Config   Config
	Log      *slog.Logger
	Booking  *booking.Service
	Accounts *account.Service
	Catalog  *pricing.Holder
	// Clock is the service's clock; default the operations' (the same one the
	// store reads).
	Clock clock.Clock
}

// boardCacheBytes bounds the daily-board cache: about 70 busy days.
const boardCacheBytes = 32 << 20

// New builds the server. It parses the embedded templates and static files; as
// they are part of the binary, a failure there is a programming error and panics.
func New(d Deps) *Server {
	if d.Config.Location == nil {
		d.Config.Location = time.UTC
	}
	if d.Config.TokenTTL <= 0 {
		d.Config.TokenTTL = 12 * time.Hour
	}
	if d.Clock == nil {
		d.Clock = clock.Real
		if d.Booking != nil {
			d.Clock = d.Booking.Clock()
		}
	}
	s := &Server{
		now: d.Clock, cfg: d.Config, log: d.Log, booking: d.Booking, accounts: d.Accounts, catalog: d.Catalog,
		crossOrigin: http.NewCrossOriginProtection(),
		boards:      newBoardCache(boardCacheBytes),
	}
	var err error
	if s.assets, err = loadAssets(); err != nil {
		panic(err)
	}
	if s.pages, err = parsePages(s.templateFuncs()); err != nil {
		panic(err)
	}
	return s
}

// Handler returns the whole HTTP surface with its middleware.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(mux)
	return s.recoverPanics(s.logRequests(securityHeaders(s.unrouted(mux))))
}
