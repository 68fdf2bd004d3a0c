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

	"parking/internal/app"
	"parking/internal/booking"
	"parking/internal/catalog"
	"parking/internal/pricing"
	"parking/internal/store"
)

// Env is what a benchmark tool works with.
type Env struct {
	Store   *store.Store
	Catalog *pricing.Holder
	Log     *slog.Logger
	Loc     *time.Location
	URL     string // the database's address, as given
	tool    string
}

// FromFlags adds -database-url to the tool's flags (default PARKING_DATABASE_URL),
// parses them and opens that database; ctx is the tool's context, which lasts as
// long as the tool runs.
func FromFlags(tool string) (ctx context.Context, env Env) {
	dbURL := flag.String("database-url", os.Getenv("PARKING_DATABASE_URL"), "database to measure (sqlite:PATH or postgres://…)")
	flag.Parse()
	ctx = context.Background()
	return ctx, Open(ctx, tool, *dbURL)
}

// Open opens dbURL for tool (its name prefixes any error, after which the tool
// exits).
func Open(ctx context.Context, tool, dbURL string) Env {
	e := Env{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog: &pricing.Holder{}, URL: dbURL, tool: tool}
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

// Booking is the booking operations wired to the catalog, as the service wires them.
func (e Env) Booking() (*catalog.Service, *booking.Service) {
	cat := catalog.New(e.Store, e.Catalog, e.Log)
	return cat, booking.New(e.Store, e.Catalog, e.Loc, e.Log, booking.WithCatalog(cat))
}

// StartService starts the whole service on the tool's database, on a free port of
// 127.0.0.1 and logging errors only; its URL is the address to ask.
func (e Env) StartService(ctx context.Context) *app.App {
	cfg, err := app.LoadConfig(nil, func(k string) string {
		switch k {
		case "PARKING_DATABASE_URL":
			return e.URL
		case "PARKING_ADDR":
			return "127.0.0.1:0"
		case "PARKING_LOG_LEVEL":
			return "error"
		}
		return ""
	}, io.Discard)
	e.Check(err)
	a, err := app.Start(ctx, cfg, e.Log)
	e.Check(err)
	return a
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
