// Package benchsetup opens a benchmark tool's database as the service opens its
// own: migrated, with the catalog loaded, in the facility's time zone, logging to
// nowhere (the tools print their own figures).
package benchsetup

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"parking/internal/pricing"
	"parking/internal/store"
)

// Env is what a benchmark tool works with.
type Env struct {
	Store   *store.Store
	Catalog *pricing.Holder
	Log     *slog.Logger
	Loc     *time.Location
	tool    string
}

// FromFlags adds -database-url to the tool's flags (default PARKING_DATABASE_URL),
// parses them and opens that database.
func FromFlags(ctx context.Context, tool string) (Env, string) {
	dbURL := flag.String("database-url", os.Getenv("PARKING_DATABASE_URL"), "database to measure (sqlite:PATH or postgres://…)")
	flag.Parse()
	return Open(ctx, tool, *dbURL), *dbURL
}

// Open opens dbURL for tool (its name prefixes any error, after which the tool
// exits).
func Open(ctx context.Context, tool, dbURL string) Env {
	e := Env{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog: &pricing.Holder{}, tool: tool}
	if dbURL == "" {
		e.Check(fmt.Errorf("-database-url is required"))
	}
	var err error
	e.Loc, err = time.LoadLocation("Europe/Madrid")
	e.Check(err)
	e.Store, err = store.Open(ctx, dbURL)
	e.Check(err)
	e.Check(e.Store.Migrate(ctx))
	cat, err := e.Store.Catalog().LoadCatalog(ctx)
	e.Check(err)
	e.Catalog.Store(pricing.NewSnapshot(cat))
	return e
}

// Check ends the tool on an error.
func (e Env) Check(err error) { Check(e.tool, err) }

// Check ends tool on an error, naming it.
func Check(tool string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", tool, err)
		os.Exit(1)
	}
}
