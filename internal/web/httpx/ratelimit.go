package httpx

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"parking/internal/clock"
	"parking/internal/fault"
)

// RateLimiter is the limit on anonymous traffic (docs/public-booking.md#limits-on-anonymous-traffic): at most PerMinute
// requests per client address and per limited route in each minute, counted in
// this instance's memory (a proxy in front limits globally). The window of an
// address opens with its first request and lasts one minute; beyond the limit the
// request is refused until the window closes. Idle addresses are forgotten, so
// memory stays bounded (MaxClients windows at most).
type RateLimiter struct {
	perMinute int
	now       clock.Clock
	mu        sync.Mutex
	windows   map[string]*rateWindow
}

type rateWindow struct {
	start time.Time
	count int
}

// rateWindowLength is the counting window of PARKING_PUBLIC_RATE (per minute).
const rateWindowLength = time.Minute

// MaxClients bounds the limiter's memory: beyond it, closed windows are swept and,
// if every window is still open, the oldest-looking ones are dropped.
const MaxClients = 100_000

// NewRateLimiter builds a limiter of perMinute requests per address (0 or less:
// no limit) reading time from now (the service's clock; tests pass a fake one).
func NewRateLimiter(perMinute int, now clock.Clock) *RateLimiter {
	if now == nil {
		now = clock.Real
	}
	return &RateLimiter{perMinute: perMinute, now: now, windows: map[string]*rateWindow{}}
}

// Allow counts one request of key and reports whether it is within the limit; when
// it is not, retryAfter is how long until the key's window closes.
func (l *RateLimiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l == nil || l.perMinute <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w == nil || !now.Before(w.start.Add(rateWindowLength)) {
		if w == nil && len(l.windows) >= MaxClients {
			l.sweep(now)
		}
		l.windows[key] = &rateWindow{start: now, count: 1}
		return true, 0
	}
	if w.count >= l.perMinute {
		return false, w.start.Add(rateWindowLength).Sub(now)
	}
	w.count++
	return true, 0
}

// sweep forgets closed windows; if none was closed, it drops a tenth of the open
// ones (map order: arbitrary), so a flood of new addresses cannot grow memory.
func (l *RateLimiter) sweep(now time.Time) {
	for k, w := range l.windows {
		if !now.Before(w.start.Add(rateWindowLength)) {
			delete(l.windows, k)
		}
	}
	for k := range l.windows {
		if len(l.windows) < MaxClients*9/10 {
			break
		}
		delete(l.windows, k)
	}
}

// Clients is the number of addresses the limiter currently remembers.
func (l *RateLimiter) Clients() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.windows)
}

// MsgTooManyRequests is the catalogue key of the refusal of a request beyond
// PARKING_PUBLIC_RATE (its placeholder Count: the seconds to wait).
const MsgTooManyRequests = "err.httpx.too_many_requests"

// Limit wraps h with the limit under scope (each limited route counts on its own):
// beyond it, the answer is 429 with Retry-After (whole seconds, rounded up), written
// by refuse in the route's own error shape from a fault.TooMany error.
func (l *RateLimiter) Limit(scope string, h http.HandlerFunc, refuse func(http.ResponseWriter, *http.Request, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ok, wait := l.Allow(scope + " " + ClientAddr(r))
		if !ok {
			secs := int((wait + time.Second - 1) / time.Second)
			if secs < 1 {
				secs = 1
			}
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			refuse(w, r, fault.Coded(fault.TooMany, MsgTooManyRequests, "Count", secs))

			return
		}
		h(w, r)
	}
}

// ClientAddr is the client's address for limits, login throttling and logs: the
// connection's peer (r.RemoteAddr without its port), or, when the peer is one of
// PARKING_TRUSTED_PROXIES, the client its X-Forwarded-For names
// (TrustedProxies.Resolve, proxy.go).
func ClientAddr(r *http.Request) string {
	if c, ok := r.Context().Value(clientKey{}).(string); ok {
		return c
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
