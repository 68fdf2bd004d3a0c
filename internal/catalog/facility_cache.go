package catalog

import (
	"context"
	"sync"
	"time"

	"parking/internal/settings"
)

// FacilityCacheTTL bounds how long a quote may use facility settings another instance
// changed (docs/capacity.md#the-quotes-copy-of-the-settings): this instance's own
// changes are seen at once, another instance's as soon as its announcement arrives
// (PostgreSQL NOTIFY) and at the latest after this long, by the injected clock.
const FacilityCacheTTL = time.Second

// facilityCache is the in-process copy of the facility settings the quote reads, so
// that a quote of a facility selling without a limit reads nothing from the database.
// gen counts invalidations: a read that began before one does not store what it read.
type facilityCache struct {
	mu  sync.Mutex
	f   settings.Facility
	at  time.Time // when f was read; zero: no copy
	gen uint64
}

// CachedFacility is the facility settings as the quote uses them: the in-process copy
// while it is younger than FacilityCacheTTL, the database's otherwise.
func (s *Service) CachedFacility(ctx context.Context) (settings.Facility, error) {
	now := s.now()
	c := &s.facility
	c.mu.Lock()
	f, at, gen := c.f, c.at, c.gen
	c.mu.Unlock()
	if !at.IsZero() && !now.Before(at) && now.Sub(at) < FacilityCacheTTL {
		return f, nil
	}
	f, err := s.store.Catalog().Facility(ctx)
	if err != nil {
		return f, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.f, c.at = f, now
	}
	c.mu.Unlock()
	return f, nil
}

// ForgetFacility drops the in-process copy: the settings changed (here, or on another
// instance), or announcements may have been missed.
func (s *Service) ForgetFacility() {
	c := &s.facility
	c.mu.Lock()
	c.gen++
	c.at = time.Time{}
	c.mu.Unlock()
}
