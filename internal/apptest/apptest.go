// Package apptest starts the whole service on 127.0.0.1:0 against a fresh database,
// for HTTP and browser tests that go through the real handler and middleware.
package apptest

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"parking/internal/app"
	"parking/internal/clock"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
)

// Config returns a test configuration for dialect d: a fresh database, a random
// port, Europe/Madrid, no webhook, a fake clock stopped at clocktest.Base (see
// ConfigClock). Adjust it before StartWith.
func Config(tb testing.TB, d store.Dialect) app.Config {
	tb.Helper()
	cfg, _ := ConfigClock(tb, d)
	return cfg
}

// ConfigClock is Config, also returning the service's clock, for tests that move it.
func ConfigClock(tb testing.TB, d store.Dialect) (app.Config, *clock.Fake) {
	tb.Helper()
	loc, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		tb.Fatal(err)
	}
	clk := clocktest.New()
	return app.Config{
		Addr:           "127.0.0.1:0",
		DatabaseURL:    storetest.URL(tb, d),
		BaseURL:        "http://127.0.0.1",
		Timezone:       "Europe/Madrid",
		Location:       loc,
		WebhookTimeout: 10 * time.Second,
		TokenTTL:       12 * time.Hour,
		LogFormat:      "text",
		LogLevel:       "info",
		SQLiteSync:     store.SyncNormal, // a test database need not survive a power cut
		Clock:          clk.Now,
		// Accounts hashed at cost 11 take seconds each under -race; tests need no
		// protection against offline cracking.
		HashCost: bcrypt.MinCost,
		MediaDir: tb.TempDir(), // uploaded photos (PostgreSQL would default to ./media)
	}, clk
}

// Now is the running service's "now" (its injected clock).
func Now(a *app.App) time.Time { return a.Config.Clock() }

// Start runs the service with the default test configuration for dialect d.
func Start(tb testing.TB, d store.Dialect) *app.App {
	tb.Helper()
	return StartWith(tb, Config(tb, d))
}

// StartWith runs the service with cfg and stops it when the test ends. Logs are
// discarded unless PARKING_TEST_LOG=1.
func StartWith(tb testing.TB, cfg app.Config) *app.App {
	tb.Helper()
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("PARKING_TEST_LOG") == "1" {
		log = app.NewLogger(cfg, os.Stderr)
	}
	a, err := app.Start(context.Background(), cfg, log)
	if err != nil {
		tb.Fatalf("start service: %v", err)
	}
	tb.Cleanup(func() { a.Close() })
	return a
}
