package app

import (
	"context"
	"database/sql"

	"parking/internal/metrics"
)

// newMetrics builds GET /metrics' registry. The shared figures (the outbox's
// backlog, today's occupancy) are read from the database at each scrape, so every
// instance on one PostgreSQL reports the same values; the connection pools are
// this instance's.
func (a *App) newMetrics() *metrics.Metrics {
	return metrics.New(metrics.Sources{
		Pools:   map[string]*sql.DB{"read": a.Store.DB(), "write": a.Store.WriteDB()},
		Backlog: a.Store.Outbox().NotificationBacklog,
		Occupancy: func(ctx context.Context) (int, int, int, error) {
			f, err := a.CatalogOps.Facility(ctx) // the capacity as the settings page keeps it
			if err != nil {
				return 0, 0, 0, err
			}
			b, err := a.Records.ParkingBoard(ctx, f.Capacity)
			return b.Occupied, b.Reserved, b.Capacity, err
		},
		// a.Booking is built after the metrics: read it at scrape time.
		Overdue: func(ctx context.Context) (int, error) { return a.Records.OverdueCount(ctx) },
		Now:     a.Config.Clock,
	}, a.Log)
}
