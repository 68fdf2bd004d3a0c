package app

import (
	"context"
	"flag"
	"fmt"
	"io"

	"parking/internal/datagen"
)

// runGenerate is `parking generate`: it fills the configured database with a
// realistic history for measurements (see internal/datagen).
func runGenerate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("parking generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("reservations", 1_000_000, "number of reservations")
	places := fs.Int("places", 1000, "places in the car park")
	years := fs.Int("years", 3, "years of history")
	seed := fs.Uint64("seed", 1, "random seed (same seed, same data)")
	dbURL := fs.String("database-url", "", "database URL (default PARKING_DATABASE_URL or sqlite:parking.db)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return withCommandApp(ctx, *dbURL, getenv, stderr, func(a *App) error {
		sum, err := datagen.Generate(ctx, a.Store, datagen.Options{
			Reservations: *n, Places: *places, Years: *years, Seed: *seed, Location: a.Config.Location,
		}, a.Log)
		if err != nil {
			return err
		}
		// The bulk load bypasses the operations: the occupancy ledger is counted afresh.
		if _, err := a.Store.Occupancy().RebuildOccupancy(ctx, a.Config.Location); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "generated %d reservations (%d in course, %d pending), %d customers, %d vehicles, %d additional services in %s\n",
			sum.Reservations, sum.InCourse, sum.Pending, sum.Customers, sum.Vehicles, sum.Extras, sum.Elapsed.Round(1e7))
		return nil
	})
}
