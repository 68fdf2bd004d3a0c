package app

import (
	"context"
	"errors"
	"fmt"
	"io"
)

const occupancyUsage = `usage:
  parking occupancy rebuild   recompute the per-day occupancy ledger from the reservations`

// runOccupancy is `parking occupancy rebuild` (docs/capacity.md#what-counts): it recomputes the
// occupancy ledger from the reservations in one transaction (the service may keep
// running: bookings wait for it on PostgreSQL, and SQLite has one writer) and says
// how many days it corrected. A correct ledger gives 0.
func runOccupancy(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) != 1 || args[0] != "rebuild" {
		return errors.New(occupancyUsage)
	}
	return withCommandApp(ctx, "", getenv, stderr, func(a *App) error {
		n, err := a.Booking.RebuildOccupancy(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "occupancy ledger rebuilt: %d days corrected\n", n)
		return nil
	})
}
