// Package app wires the service together: configuration, logger, store and
// migrations, catalog, operations, HTTP server, and graceful shutdown. It also runs
// the command-line interface of cmd/parking.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"parking/internal/account"
	"parking/internal/booking"
	"parking/internal/clock"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/web"
)

// App is a running service. Tests start one on 127.0.0.1:0 and read URL.
type App struct {
	Config   Config
	Log      *slog.Logger
	Store    *store.Store
	Catalog  *pricing.Holder
	Booking  *booking.Service
	Accounts *account.Service
	Web      *web.Server
	// Outbox records notifications inside operations; Dispatcher delivers them
	// (nil when no webhook is configured, or before Start).
	Outbox     *notify.Outbox
	Dispatcher *notify.Dispatcher

	URL      string
	server   *http.Server
	listener net.Listener
	done     chan error
	closing  sync.Once
}

// Open prepares a service without listening: database opened and migrated, catalog
// seeded when empty and loaded into memory, operations and handlers built.
func Open(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real
	}
	// The one clock: the store's transactions, and through the store every
	// operation, the dispatcher and the pages read it.
	st, err := store.OpenWith(ctx, cfg.DatabaseURL, store.Options{SQLiteSync: cfg.SQLiteSync, Clock: cfg.Clock})
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, Log: log, Store: st, Catalog: &pricing.Holder{}}
	if err := a.prepare(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) prepare(ctx context.Context) error {
	if err := a.Store.Migrate(ctx); err != nil {
		return err
	}
	a.normaliseStored(ctx)
	seeded, err := a.Store.SeedCatalog(ctx, pricing.Default())
	if err != nil {
		return fmt.Errorf("seed catalog: %w", err)
	}
	if seeded {
		a.Log.Info("empty database: default catalog seeded")
	}
	cat, err := a.Store.LoadCatalog(ctx)
	if err != nil {
		return fmt.Errorf("load catalog: %w", err)
	}
	a.Catalog.Store(pricing.NewSnapshot(cat))
	a.Outbox = notify.NewOutbox(a.Config.Location, a.Config.WebhookURL != "")
	a.Booking = booking.New(a.Store, a.Catalog, a.Config.Location, a.Log, booking.WithOutbox(a.Outbox),
		booking.WithInputRules(a.Config.Input))
	a.Accounts = account.New(a.Store, a.Log, account.WithInputRules(a.Config.Input))
	if created, err := a.Accounts.EnsureAdmin(ctx, a.Config.AdminEmail, a.Config.AdminPassword); err != nil {
		return fmt.Errorf("create administrator from PARKING_ADMIN_EMAIL: %w", err)
	} else if created {
		a.Log.Info("administrator account created", "email", a.Config.AdminEmail)
	}
	if ok, err := a.Accounts.HasAdmin(ctx); err == nil && !ok {
		a.Log.Warn("no administrator account exists yet; create one with " +
			"`parking admin create --email E --password P` or set PARKING_ADMIN_EMAIL and PARKING_ADMIN_PASSWORD")
	}
	a.Web = web.New(web.Deps{
		Config: web.Config{BaseURL: a.Config.BaseURL, Location: a.Config.Location, TokenTTL: a.Config.TokenTTL, Capacity: a.Config.Capacity,
			FeedHeartbeat: a.Config.FeedHeartbeat, DBTimeout: a.Config.DBTimeout},
		Log: a.Log, Booking: a.Booking, Accounts: a.Accounts, Catalog: a.Catalog,
		Clock: a.Config.Clock,
	})
	return nil
}

// normaliseStored gives phones and plates stored before CONTRACT §8's canonical
// forms those forms, once (store.NormaliseStored). The start never waits on staff:
// collisions that cannot be merged are listed for them (`parking duplicates
// list`), and a failure is logged and tried again at the next start.
func (a *App) normaliseStored(ctx context.Context) {
	rep, err := a.Store.NormaliseStored(ctx, store.Normalisers{
		Phone: func(p string) (string, error) { return a.Config.Input.Phone("phone", p) },
		Plate: func(p string) (string, error) { return input.Plate("license_plate", p) },
	}, a.Log)
	switch {
	case err != nil:
		a.Log.Error("normalising stored phones and plates failed; the service starts and tries again at the next start", "err", err)
	case rep.AlreadyDone:
	default:
		a.Log.Info("stored phones and plates normalised", "rewritten", rep.Rewritten, "merged", rep.Merged, "conflicts", rep.Conflicts)
		if rep.Conflicts > 0 {
			a.Log.Warn("some customers or vehicles could not be merged safely; list them with `parking duplicates list`", "conflicts", rep.Conflicts)
		}
	}
}

// Start opens the service and serves it in the background on cfg.Addr.
func Start(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	a, err := Open(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	a.startDispatcher()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		a.stopDispatcher()
		a.Store.Close()
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	a.listener = ln
	a.URL = "http://" + ln.Addr().String()
	a.server = &http.Server{
		Handler:           a.Web.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Open live-board streams end when shutdown begins, so that in-flight requests
	// can finish within the grace period.
	a.server.RegisterOnShutdown(a.Booking.ParkingFeed().Close)
	a.done = make(chan error, 1)
	go func() {
		err := a.server.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		a.done <- err
	}()
	log.Info("listening", "addr", ln.Addr().String(), "database", string(a.Store.Dialect()), "base_url", cfg.BaseURL, "timezone", cfg.Timezone)
	return a, nil
}

// Close stops accepting, lets in-flight requests finish (up to 10 s), then closes
// the database (CONTRACT §1).
func (a *App) Close() error {
	var err error
	a.closing.Do(func() {
		if a.server != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if serr := a.server.Shutdown(ctx); serr != nil {
				err = errors.Join(err, fmt.Errorf("shutdown: %w", serr))
			}
			err = errors.Join(err, <-a.done)
		}
		// After the requests (which may enqueue), before the database closes.
		a.stopDispatcher()
		err = errors.Join(err, a.Store.Close())
	})
	return err
}

// Wait blocks until ctx ends (a signal) or the server fails, then shuts down.
func (a *App) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		a.Log.Info("shutting down")
		return a.Close()
	case err := <-a.done:
		a.done <- err // let Close read it
		return errors.Join(err, a.Close())
	}
}

// dispatcherGrace is how long an in-flight delivery may finish at shutdown; after it
// the delivery is cancelled and left pending, to be sent again (CONTRACT §1).
const dispatcherGrace = 5 * time.Second

// startDispatcher starts notification delivery when a webhook is configured.
func (a *App) startDispatcher() {
	if a.Config.WebhookURL == "" {
		a.Log.Info("PARKING_WEBHOOK_URL not set: notifications are recorded (status skipped), not sent")
		return
	}
	t := notify.Tuning{Timeout: a.Config.WebhookTimeout, Workers: 16, Grace: dispatcherGrace}
	sender := notify.NewHTTPSender(a.Config.WebhookURL, a.Config.WebhookSecret, a.Config.WebhookTimeout, t.Workers).WithClock(a.Config.Clock)
	a.Dispatcher = notify.NewDispatcher(a.Store, sender, a.Outbox.Wake(), a.Log, t)
	a.Dispatcher.Start()
	a.Log.Info("notification delivery started", "signed", a.Config.WebhookSecret != "", "timeout", a.Config.WebhookTimeout.String())
}

func (a *App) stopDispatcher() {
	if a.Dispatcher != nil {
		a.Dispatcher.Stop()
	}
}
