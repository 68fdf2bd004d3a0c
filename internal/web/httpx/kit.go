// Package httpx is the HTTP toolkit both surfaces share (internal/web/api and
// internal/web/ui): reading a request's input (ReadInput, DecodeJSON, the flexible
// wire types, dates through internal/localtime), writing answers (WriteJSON, the
// spec's three error shapes, the one map from fault kind to status), Accept
// negotiation (WantsJSON), path ids (PathID), sessions and their cookie, the
// route guards built on the account service, and the middleware (request log,
// panic recovery, security headers, gzip, the 404/405 answer). It knows no route
// and no operation.
package httpx

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"parking/internal/account"
)

// Kit holds what the shared helpers need: the logger, the account service (sessions
// and API tokens) and the cross-origin protection of cookie-authenticated writes.
// The surfaces embed it, so their handlers call s.CurrentUser, s.WriteSuccessFalse…
type Kit struct {
	log         *slog.Logger
	accounts    *account.Service
	crossOrigin *http.CrossOriginProtection
	secure      bool // the service is served over https: the session cookie is Secure
	// errorPage renders the site's error page (the pages' ErrorPage), for the
	// guards' 503 to browsers; nil: JSON.
	errorPage func(w http.ResponseWriter, r *http.Request, status int, heading, message string)
	dbTimeout time.Duration // PARKING_DB_TIMEOUT, for the guards' lookups (dbContext)
	// observe hears every answered request (the metrics): its route pattern
	// ("unmatched" when none), status and duration; nil: nobody.
	observe func(route string, status int, elapsed time.Duration)
}

// ObserveRequests has f hear every request LogRequests answers.
func (s *Kit) ObserveRequests(f func(route string, status int, elapsed time.Duration)) { s.observe = f }

// SetDBTimeout sets the deadline of the guards' session and token lookups
// (PARKING_DB_TIMEOUT; 0: DefaultDBTimeout).
func (s *Kit) SetDBTimeout(d time.Duration) { s.dbTimeout = d }

// SetErrorPage gives the kit the site's error page (internal/web assembles it).
func (s *Kit) SetErrorPage(page func(w http.ResponseWriter, r *http.Request, status int, heading, message string)) {
	s.errorPage = page
}

// NewKit builds the kit; baseURL decides whether the session cookie is Secure
// (docs/accounts.md).
func NewKit(log *slog.Logger, accounts *account.Service, baseURL string) *Kit {
	return &Kit{
		log: log, accounts: accounts, crossOrigin: http.NewCrossOriginProtection(),
		secure: strings.HasPrefix(baseURL, "https://"),
	}
}

// Log is the service's logger.
func (s *Kit) Log() *slog.Logger { return s.log }

// SameOrigin wraps h with the cross-origin protection: a state-changing request
// from another site is refused before h runs (docs/accounts.md).
func (s *Kit) SameOrigin(h http.Handler) http.Handler { return s.crossOrigin.Handler(h) }
