// Package clock is the service's one source of "now". Every rule that reads the
// time (sessions, API tokens, login throttling, the notification outbox, default
// dates, "today" on pages) gets it from a Clock injected at start-up: internal/app
// wires Real, tests wire a Fake they can set and advance. Measuring how long
// something took (request latency) is not a rule and keeps using time.Now.
package clock

import (
	"sync"
	"time"
)

// Clock returns the current instant.
type Clock func() time.Time

// Real is the wall clock in UTC, truncated to microseconds: the precision both
// databases keep, so that a time read back equals the time written.
func Real() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Fake is a clock that stands still until it is set or advanced; it is safe for
// concurrent use. Its Now method is a Clock.
type Fake struct {
	mu sync.Mutex
	t  time.Time
}

// NewFake returns a clock stopped at t (kept in UTC, truncated to microseconds
// like Real).
func NewFake(t time.Time) *Fake { return &Fake{t: norm(t)} }

// Now returns the clock's current instant.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

// Set moves the clock to t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.t = norm(t)
	f.mu.Unlock()
}

// Advance moves the clock forward by d (backward if d is negative) and returns the
// new instant.
func (f *Fake) Advance(d time.Duration) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = norm(f.t.Add(d))
	return f.t
}

func norm(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
