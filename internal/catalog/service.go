// Package catalog carries out the catalog's operations (docs/pricing.md#catalog):
// main services, rate bands, vehicle coefficients and additional services, and the
// facility settings (docs/settings.md), with the quote's copy of those settings.
// Each write is one transaction with its audit entry; the pricing snapshot the
// quote reads is swapped after it commits.
package catalog

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"parking/internal/ops"
	"parking/internal/pricing"
	"parking/internal/store"
)

// Service is the catalog's operations.
type Service struct {
	store   *store.Store
	catalog *pricing.Holder
	log     *slog.Logger
	now     func() time.Time
	shared  *ops.Announcer // tells the other instances to reload (internal/ops)
	// catalogMu orders catalog changes with their snapshot reloads, so that two
	// changes committed close together cannot install their snapshots out of order.
	catalogMu sync.Mutex
	facility  facilityCache // the quote's copy of the facility settings (facility_cache.go)
}

// New builds the catalog's operations over the pricing snapshot holder the quote
// reads. One per instance: it names the instance in its announcements (Announcer).
func New(st *store.Store, catalog *pricing.Holder, log *slog.Logger) *Service {
	return &Service{store: st, catalog: catalog, log: log, now: st.Clock(), shared: ops.NewAnnouncer(st, log)}
}

// Announcer is this instance's sender of announcements; the lifecycle sends the
// board's changes with it, so that the instance skips all its own.
func (s *Service) Announcer() *ops.Announcer { return s.shared }

// ReloadAnnounced reloads the catalog after another instance changed it, in order
// with this instance's own changes (catalogMu).
func (s *Service) ReloadAnnounced(ctx context.Context) {
	s.catalogMu.Lock()
	defer s.catalogMu.Unlock()
	_ = s.ReloadCatalog(ctx) // logs its own failure
}
