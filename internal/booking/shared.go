package booking

import (
	"context"
	"encoding/json"
	"log/slog"

	"parking/internal/feed"
	"parking/internal/ops"
)

// Several instances on one PostgreSQL (docs/deploy.md). Everything the operations
// keep in memory that another instance must see is announced through the store's
// signals (database.Engine.Signal / Listen, PostgreSQL NOTIFY):
//   - the live parking board's events: an operation on one instance reaches the
//     streams open on every instance;
//   - the catalog snapshot: a catalog change reloads it everywhere;
//   - the quote's copy of the facility settings: a change drops it everywhere (it
//     also expires after FacilityCacheTTL, should an announcement be lost);
//   - the quote's copy of the occupancy (availability_cache.go) is not announced: it
//     expires after OccupancyCacheTTL, days near full are always read from the
//     database, and it is dropped with the settings and when the connection is lost.
// The signals and their sender are in internal/ops, shared with the catalog.
// The rest is already shared through the database: sessions, API tokens, login
// throttling, idempotency keys, the outbox, the facility settings (read from the database by
// every operation but the quote), and the daily
// board's cache (checked against the database's board version on every request).
// The anonymous rate limit stays per instance (docs/public-booking.md#limits-on-anonymous-traffic).

// ListenShared receives the other instances' announcements until
// ctx ends; ready is called once listening has started the first time. It does
// nothing but call ready when the database is not shared (SQLite).
func (s *Service) ListenShared(ctx context.Context, log *slog.Logger, ready func()) {
	if !s.store.Shared() {
		ready()
		return
	}
	first := true
	_ = s.store.Listen(ctx, log, func() {
		if first {
			first = false
			ready()
			return
		}
		// Announcements sent while the connection was down are lost: the open
		// streams end (browsers reconnect and reload the board) and the catalog
		// is read again.
		s.report.feed.Reset()
		s.catalogOps.ForgetFacility()
		s.quoteDays.drop()
		s.catalogOps.ReloadAnnounced(ctx)
	}, func(payload string) {
		var m ops.Signal
		if err := json.Unmarshal([]byte(payload), &m); err != nil {
			log.Warn("unreadable announcement from another instance", "err", err)
			return
		}
		if m.Origin == s.shared.Origin() {
			return // this instance's own change, already applied
		}
		switch m.Type {
		case ops.SignalBoard:
			s.report.feed.Publish(feed.Event{Kind: feed.Kind(m.Kind), ReservationID: m.ReservationID, Status: m.Status,
				Spot: m.Spot, PreviousSpot: m.PreviousSpot, At: m.At})
		case ops.SignalCatalog:
			s.catalogOps.ReloadAnnounced(ctx)
		case ops.SignalSettings:
			s.catalogOps.ForgetFacility()
			s.quoteDays.drop()
		}
	})
}
