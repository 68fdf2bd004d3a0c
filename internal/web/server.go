// Package web assembles the HTTP surface: one mux with the JSON API
// (internal/web/api), the pages and their form posts (internal/web/ui), the
// operations' /healthz and /readyz, and the site's 404/405 answer, wrapped in the
// shared middleware (internal/web/httpx). Everything else lives in those three
// packages; none of them reaches the store, only the operations (booking, account).
package web

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"parking/internal/booking"
	"parking/internal/clock"
	"parking/internal/metrics"
	"parking/internal/records"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
	"parking/internal/web/ui"
)

// Config is what the web layer needs of the service configuration.
type Config = httpx.Config

// Server is the assembled HTTP surface.
type Server struct {
	kit     *httpx.Kit
	log     *slog.Logger
	booking *booking.Service
	records *records.Service
	api     *api.Server
	ui      *ui.Server
	// dbTimeout is the deadline of each request's database work (httpx.DBDeadline).
	dbTimeout time.Duration
	metrics   *metrics.Metrics
	// metricsToken guards GET /metrics when set.
	metricsToken string
	// https: PARKING_BASE_URL is https (Strict-Transport-Security).
	https   bool
	trusted httpx.TrustedProxies // PARKING_TRUSTED_PROXIES
}

// Deps are the collaborators of a Server.
type Deps struct {
	// The operations by capability the pages and the API call (ui.Operations).
	ui.Operations
	Config Config
	Log    *slog.Logger
	// Clock is the service's clock; default the operations' (the same one the
	// store reads).
	Clock clock.Clock
	// Metrics, when set, measures every request and serves GET /metrics, behind
	// MetricsToken when that is set (PARKING_METRICS_TOKEN).
	Metrics      *metrics.Metrics
	MetricsToken string
}

// New builds the server. The pages parse their embedded templates and static
// files; as they are part of the binary, a failure there is a programming error
// and panics.
func New(d Deps) *Server {
	if d.Config.Location == nil {
		d.Config.Location = time.UTC
	}
	if d.Config.TokenTTL <= 0 {
		d.Config.TokenTTL = 12 * time.Hour
	}
	if d.Clock == nil {
		d.Clock = clock.Real
		if d.Records != nil {
			d.Clock = d.Records.Clock()
		}
	}
	kit := httpx.NewKit(d.Log, d.Accounts, d.Config.BaseURL)
	limiter := httpx.NewRateLimiter(d.Config.PublicRate, d.Clock) // one count per instance (docs/public-booking.md#limits-on-anonymous-traffic)
	s := &Server{
		kit: kit, log: d.Log, booking: d.Booking, records: d.Records, dbTimeout: d.Config.DBTimeout, metrics: d.Metrics, metricsToken: d.MetricsToken, https: strings.HasPrefix(d.Config.BaseURL, "https://"), trusted: d.Config.TrustedProxies,
		api: api.New(api.Deps{Kit: kit, Config: d.Config, Log: d.Log, Booking: d.Booking, Records: d.Records, Accounts: d.Accounts, Gate: d.Gate, Catalog: d.Catalog, Limiter: limiter,
			PartnerLimiter: httpx.NewRateLimiter(api.PartnerRate, d.Clock)}),
		ui: ui.New(ui.Deps{Operations: d.Operations, Kit: kit, Config: d.Config, Log: d.Log, Clock: d.Clock, Limiter: limiter}),
	}
	kit.SetErrorPage(s.ui.ErrorPage) // the guards' 503 page (docs/reliability.md)
	kit.SetDBTimeout(d.Config.DBTimeout)
	return s
}

// Handler returns the whole HTTP surface with its middleware.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	// Operations.
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	s.api.Routes(mux) // /api/...
	s.ui.Routes(mux)  // /, /booking, /users/..., /admin/..., /static/...
	deadline := httpx.DBDeadline(s.dbTimeout, "/admin/parking/events", "/admin/history.csv", "/admin/reservations/*/photos", "/media/photos/*/*")
	routed := httpx.NotePattern(httpx.Unrouted(mux, s.ui.ErrorPage))
	if s.metrics != nil {
		var scrape http.Handler = s.metrics.Handler(s.metricsToken)
		if s.metricsToken == "" {
			// Without a token, only a scraper on this host (docs/metrics.md#access).
			scrape = httpx.LoopbackOnly(scrape, httpx.Unrouted(http.NewServeMux(), s.ui.ErrorPage))
		}
		mux.Handle("GET /metrics", scrape)
		s.kit.ObserveRequests(s.metrics.ObserveRequest)
	}
	return s.trusted.Resolve(s.kit.RecoverPanics(s.kit.LogRequests(httpx.SecurityHeaders(s.https, s.kit.Languages(deadline(routed))))))
}
