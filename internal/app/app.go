// Package app wires the service together: configuration, logger, store and
// migrations, catalog, operations, HTTP server, and graceful shutdown. It also runs
// the command-line interface of cmd/parking.
package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parking/internal/account"
	"parking/internal/booking"
	"parking/internal/catalog"
	"parking/internal/clock"
	"parking/internal/database"
	"parking/internal/gate"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/managelink"
	"parking/internal/media"
	"parking/internal/metrics"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/privacy"
	"parking/internal/records"
	"parking/internal/reports"
	facility "parking/internal/settings"
	"parking/internal/social"
	"parking/internal/store"
	"parking/internal/web"
	"parking/internal/web/ui"
)

// App is a running service. Tests start one on 127.0.0.1:0 and read URL.
type App struct {
	Config  Config
	Log     *slog.Logger
	Store   *store.Store
	Catalog *pricing.Holder
	Booking *booking.Service
	// The operations beside the lifecycle: the catalog and facility settings
	// (sharing the pricing snapshot Catalog), the hand-over, the staff's reads.
	CatalogOps *catalog.Service
	Handover   *handover.Service
	Records    *records.Service
	Reports    *reports.Service // docs/reports.md
	Accounts   *account.Service
	Privacy    *privacy.Service
	Gate       *gate.Service // the plate-recognition cameras (docs/gate.md)
	Web        *web.Server
	// Outbox records notifications inside operations; Dispatcher delivers them
	// (nil when no webhook is configured, or before Start).
	Outbox     *notify.Outbox
	Dispatcher *notify.Dispatcher
	// Metrics is GET /metrics: the instruments the web middleware, the operations
	// and the dispatcher report to, and the database readings taken per scrape.
	Metrics *metrics.Metrics

	URL      string
	handler  atomic.Pointer[http.Handler] // web.Starting until the database is ready, then Web.Handler
	server   *http.Server
	listener net.Listener
	done     chan error
	closing  sync.Once
	// stopListening ends the listener of other instances' announcements
	// (booking.Service.ListenShared); listening is closed when it has returned.
	stopListening context.CancelFunc
	listening     chan struct{}
	// Media is the store of uploaded photos (internal/media).
	Media     media.Store
	stopSweep func()
}

// Open prepares a service without listening: database opened (waited for up to
// cfg.DBWait while it cannot be reached) and migrated, catalog seeded when empty
// and loaded into memory, operations and handlers built.
func Open(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real
	}
	st, err := openStore(ctx, cfg, log)
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

// openStore opens the database. While it cannot be reached (database.IsUnavailable:
// PostgreSQL down or starting), it tries again with a growing pause, for up to
// cfg.DBWait (PARKING_DB_WAIT; 0: one try); any other error (a bad password, an
// unwritable SQLite file) ends the start at once. The pauses are real time: they
// wait for something outside the service, whatever its clock says.
func openStore(ctx context.Context, cfg Config, log *slog.Logger) (*store.Store, error) {
	// The one clock: the store's transactions, and through the store every
	// operation, the dispatcher and the pages read it.
	opts := store.Options{SQLiteSync: cfg.SQLiteSync, Clock: cfg.Clock}
	began := time.Now()
	pause := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		st, err := store.OpenWith(ctx, cfg.DatabaseURL, opts)
		if err == nil {
			if attempt > 1 {
				log.Info("database reachable", "attempts", attempt, "waited", time.Since(began).Round(time.Millisecond).String())
			}
			return st, nil
		}
		left := cfg.DBWait - time.Since(began)
		if !database.IsUnavailable(err) || left <= 0 {
			if attempt > 1 {
				return nil, fmt.Errorf("database not reachable after %s (PARKING_DB_WAIT): %w", cfg.DBWait, err)
			}
			return nil, err
		}
		log.Warn("database not reachable; trying again", "attempt", attempt, "in", min(pause, left).String(), "err", err)
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("waiting for the database: %w", ctx.Err())
		case <-t.C:
		}
		pause = min(2*pause, 5*time.Second)
	}
}

func (a *App) prepare(ctx context.Context) error {
	if err := a.Store.Migrate(ctx); err != nil {
		return err
	}
	a.normaliseStored(ctx)
	a.assignReferences(ctx)
	seeded, err := a.Store.Catalog().SeedCatalog(ctx, pricing.Default())
	if err != nil {
		return fmt.Errorf("seed catalog: %w", err)
	}
	if seeded {
		a.Log.Info("empty database: default catalog seeded")
	}
	// PARKING_CAPACITY seeds the facility settings once (docs/settings.md); later
	// changes are made on /admin/settings.
	if seeded, err := a.Store.Catalog().SeedFacility(ctx, facility.Defaults(a.Config.Capacity)); err != nil {
		return fmt.Errorf("seed facility settings: %w", err)
	} else if seeded {
		a.Log.Info("facility settings seeded", "capacity", a.Config.Capacity)
	}
	cat, err := a.Store.Catalog().LoadCatalog(ctx)
	if err != nil {
		return fmt.Errorf("load catalog: %w", err)
	}
	a.Catalog.Store(pricing.NewSnapshot(cat))
	secret, err := a.serviceSecret(ctx)
	if err != nil {
		return err
	}
	links := managelink.New(secret, a.Config.BaseURL)
	a.Outbox = notify.NewOutbox(a.Config.Location, a.Config.WebhookURL != "").WithBaseURL(a.Config.BaseURL)
	a.Outbox.SetManageLinks(links)
	// Links carrying a token (reset_url, verify_url) are stored sealed with a key derived
	// from the same secret, so every instance's dispatcher opens them (docs/notifications.md#sealed-fields).
	a.Outbox.SetSealer(notify.NewSealer(secret))
	a.Outbox.SetFacility(reminderFacility)
	a.Outbox.SetFacilityCopy(a.reminderFacilityCopy)
	m, where, err := openMedia(ctx, a.Config)
	if err != nil {
		return fmt.Errorf("photo storage: %w", err)
	}
	a.Media = m
	a.Log.Info("photo storage", "at", where)
	a.Metrics = a.newMetrics()
	a.CatalogOps = catalog.New(a.Store, a.Catalog, a.Log)
	a.Handover = handover.New(a.Store, a.Log, handover.WithMedia(a.Media, a.Config.BaseURL))
	a.Records = records.New(a.Store, a.Catalog, a.Config.Location, a.Config.Input)
	a.Booking = booking.New(a.Store, a.Catalog, a.Config.Location, a.Log, booking.WithOutbox(a.Outbox),
		booking.WithInputRules(a.Config.Input), booking.WithCatalog(a.CatalogOps), booking.WithManageLinks(links),
		booking.WithEvents(a.Metrics))
	a.Reports = reports.New(a.Store, a.Config.Location, a.Booking.Availability)
	// docs/capacity.md#what-counts: a database with reservations from before the occupancy ledger gets
	// it built once, from the reservations.
	if built, err := a.Booking.EnsureOccupancy(ctx); err != nil {
		return err
	} else if built {
		a.Log.Info("occupancy ledger built from the reservations")
	}
	accountOpts := []account.Option{account.WithInputRules(a.Config.Input), account.WithPasswordReset(a.Outbox, a.Config.BaseURL),
		account.WithEmailVerification(a.Outbox, secret)}
	if a.Config.HashCost > 0 {
		accountOpts = append(accountOpts, account.WithHashCost(a.Config.HashCost))
	}
	a.Accounts = account.New(a.Store, a.Log, accountOpts...)
	if created, err := a.Accounts.EnsureAdmin(ctx, a.Config.AdminEmail, a.Config.AdminPassword); err != nil {
		return fmt.Errorf("create administrator from PARKING_ADMIN_EMAIL: %w", err)
	} else if created {
		a.Log.Info("administrator account created", "email", a.Config.AdminEmail)
	}
	// A receipt is never issued blind: say at start what the settings still lack.
	if f, err := a.CatalogOps.Facility(ctx); err != nil {
		return fmt.Errorf("read facility settings: %w", err)
	} else if missing := f.SellerMissing(); len(missing) > 0 {
		a.Log.Warn("the seller's identity is incomplete in the facility settings: receipts would be issued without it; "+
			"set it on /admin/settings", "missing", strings.Join(missing, ","))
	}
	if ok, err := a.Accounts.HasAdmin(ctx); err == nil && !ok {
		a.Log.Warn("no administrator account exists yet; create one with " +
			"`parking admin create --email E --password P` or set PARKING_ADMIN_EMAIL and PARKING_ADMIN_PASSWORD")
	}
	// An erasure deletes the customer's uploaded photo files from the photo
	// storage after commit (docs/privacy.md).
	a.Gate = gate.New(a.Store, a.Log, a.Config.Location, booking.ArrivalPublisher(a.Booking))
	a.Privacy = privacy.New(a.Store, a.Log, privacy.WithPhotoFiles(a.Handover), privacy.WithEraser(a.Booking))
	a.Web = web.New(web.Deps{
		Config: web.Config{BaseURL: a.Config.BaseURL, Location: a.Config.Location, TokenTTL: a.Config.TokenTTL,
			FeedHeartbeat: a.Config.FeedHeartbeat, PublicRate: a.Config.PublicRate, DBTimeout: a.Config.DBTimeout,
			VerifactuQRBase: a.Config.VerifactuQR, TrustedProxies: a.Config.TrustedProxies},
		Log: a.Log,
		Operations: ui.Operations{Booking: a.Booking, CatalogOps: a.CatalogOps, Handover: a.Handover, Records: a.Records, Reports: a.Reports,
			Accounts: a.Accounts, Catalog: a.Catalog, Privacy: a.Privacy, Input: a.Config.Input, Gate: a.Gate,
			Social: social.New(a.Config.OIDCProviders, a.Config.BaseURL, a.Config.Clock)},
		Clock:   a.Config.Clock,
		Metrics: a.Metrics, MetricsToken: a.Config.MetricsToken,
	})
	return nil
}

// assignReferences gives a booking reference (docs/manage-booking.md#booking-reference) to the reservations
// stored before references existed, once (store.AssignReferences); a failure is
// logged and tried again at the next start.
func (a *App) assignReferences(ctx context.Context) {
	n, err := a.Store.Reservations().AssignReferences(ctx)
	switch {
	case err != nil:
		a.Log.Error("giving booking references to stored reservations failed; the service starts and tries again at the next start", "err", err)
	case n > 0:
		a.Log.Info("booking references given to stored reservations", "reservations", n)
	}
}

// reminderFacility is the car park the booking_reminder names (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder): its
// name, address and phone from the settings, read in the reminder's transaction.
// A name not yet set on /admin/settings is the service's own.
func reminderFacility(ctx context.Context, tx *store.Tx) (notify.FacilityData, error) {
	f, err := tx.Catalog().Facility(ctx)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return notify.FacilityData{}, err
	}
	return notify.FacilityFromSettings(f), nil
}

// reminderFacilityCopy is reminderFacility from the catalog's copy of the settings,
// read before a booking's transaction: at most catalog.FacilityCacheTTL old, dropped
// at once on a change here or announced by another instance. The reminder's payload
// is written when the booking is made and sent as written a day before the entry,
// usually days later, so it names the car park as it was when booked either way; a
// second's lag on a rename changes nothing a customer could notice, and the busiest
// transaction saves a read while it holds its locks (docs/performance.md). Never
// called inside a transaction: on a miss it takes a connection of its own.
func (a *App) reminderFacilityCopy(ctx context.Context) (notify.FacilityData, error) {
	f, err := a.CatalogOps.CachedFacility(ctx)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return notify.FacilityData{}, err
	}
	return notify.FacilityFromSettings(f), nil
}

// serviceSecret is the service's secret key (docs/manage-booking.md#the-token):
// PARKING_SECRET_KEY, or the key
// generated once and kept in the database. Each use derives its own key from it
// (manage links, email verification links, sealed outbox links).
func (a *App) serviceSecret(ctx context.Context) ([]byte, error) {
	key := a.Config.SecretKey
	if key == "" {
		var err error
		if key, err = a.Store.Reservations().Secret(ctx, "manage_link_key", managelink.GenerateSecret); err != nil {
			return nil, fmt.Errorf("secret key: %w", err)
		}
	}
	return []byte(key), nil
}

// normaliseStored gives phones and plates stored before the canonical (docs/input-rules.md)
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

// Start serves the service in the background on cfg.Addr and returns once it is
// ready. It listens first: while the database is waited for (openStore,
// PARKING_DB_WAIT), /healthz answers 200, /readyz and every other route 503 with
// Retry-After (web.Starting); then the database is migrated and the real routes
// take over. cfg.OnListen, when set, is told the address as soon as it listens.
func Start(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real
	}
	ln := cfg.Listener
	var err error
	if ln == nil {
		if ln, err = net.Listen("tcp", cfg.Addr); err != nil {
			return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
		}
	}
	a := &App{Config: cfg, Log: log, Catalog: &pricing.Holder{}}
	a.listener = ln
	a.URL = "http://" + ln.Addr().String()
	starting := web.Starting(cfg.BaseURL)
	a.handler.Store(&starting)
	// A client must send its headers within 10 s and its whole request within
	// 30 s (bodies are at most a few MiB), and read the answer within
	// WriteTimeout; the live board's event stream and the CSV export lift their
	// write deadline (http.ResponseController). Idle keep-alive connections
	// close after 2 min. None is a database deadline (PARKING_DB_TIMEOUT).
	a.server = &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*a.handler.Load()).ServeHTTP(w, r) }),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cmp.Or(cfg.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	a.done = make(chan error, 1)
	go func() {
		err := a.server.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		a.done <- err
	}()
	if cfg.OnListen != nil {
		cfg.OnListen(a.URL)
	}
	fail := func(err error) (*App, error) {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = a.server.Shutdown(sctx)
		<-a.done
		if a.Store != nil {
			a.Store.Close()
		}
		return nil, err
	}
	if a.Store, err = openStore(ctx, cfg, log); err != nil {
		return fail(err)
	}
	if err := a.prepare(ctx); err != nil {
		return fail(err)
	}
	a.startDispatcher()
	a.listenShared()
	a.startPhotoSweep()
	// Open live-board streams end when shutdown begins, so that in-flight requests
	// can finish within the grace period.
	a.server.RegisterOnShutdown(a.Booking.ParkingFeed().Close)
	h := a.Web.Handler()
	a.handler.Store(&h)
	log.Info("listening", "addr", ln.Addr().String(), "database", string(a.Store.Dialect()), "base_url", cfg.BaseURL, "timezone", cfg.Timezone)
	return a, nil
}

// DefaultWriteTimeout bounds writing one answer: well above the slowest ordinary
// page (a history search, a receipt) and short enough that a client that stops
// reading does not hold a connection and its goroutine for long.
const DefaultWriteTimeout = 60 * time.Second

// Close stops accepting, lets in-flight requests finish (up to 10 s), then closes
// the database (docs/operations.md).
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
		if a.stopListening != nil {
			a.stopListening()
			<-a.listening
		}
		a.stopPhotoSweep()
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

// listenReadyWait bounds how long the start waits for the listener of other
// instances' announcements before serving anyway (their live-board events then
// reach this instance's streams once it connects).
const listenReadyWait = 10 * time.Second

// listenShared starts receiving the other instances' announcements (PostgreSQL:
// the live board's events and catalog changes, booking/shared.go) and waits until
// it listens, so that no change made after the start is missed.
func (a *App) listenShared() {
	ctx, cancel := context.WithCancel(context.Background())
	a.stopListening, a.listening = cancel, make(chan struct{})
	ready := make(chan struct{})
	var once sync.Once
	go func() {
		defer close(a.listening)
		a.Booking.ListenShared(ctx, a.Log, func() { once.Do(func() { close(ready) }) })
	}()
	t := time.NewTimer(listenReadyWait)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
		a.Log.Warn("not yet listening for other instances' changes; serving anyway", "waited", listenReadyWait.String())
	}
}

// dispatcherGrace is how long an in-flight delivery may finish at shutdown; after it
// the delivery is cancelled and left pending, to be sent again (docs/operations.md#shutdown).
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
	a.Dispatcher.SetSealer(a.Outbox.Sealer())
	a.Dispatcher.OnOutcome(a.Metrics.Delivery)
	a.Dispatcher.Start()
	a.Log.Info("notification delivery started", "signed", a.Config.WebhookSecret != "", "timeout", a.Config.WebhookTimeout.String())
}

func (a *App) stopDispatcher() {
	if a.Dispatcher != nil {
		a.Dispatcher.Stop()
	}
}
