// Package booking carries out the service's operations. Each method is one
// transaction that decides, writes and (from the Notifications issue on) enqueues
// its notification; the web pages and the JSON API call the same methods.
package booking

import (
	"context"
	"log/slog"
	"time"

	"parking/internal/catalog"
	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/managelink"
	"parking/internal/notify"
	"parking/internal/ops"
	"parking/internal/pricing"
	"parking/internal/records"
	"parking/internal/store"
)

// Service is the operations layer.
type Service struct {
	store   *store.Store
	catalog *pricing.Holder
	loc     *time.Location
	log     *slog.Logger
	now     func() time.Time
	outbox  *notify.Outbox
	input   input.Rules        // phones read in PARKING_PHONE_REGION (docs/input-rules.md#phones)
	events  Events             // metrics (events.go)
	shared  *ops.Announcer     // the catalog's: one origin for the instance (shared.go)
	links   *managelink.Signer // manage tokens and links (manage.go, docs/manage-booking.md#the-token)
	// catalogOps is the catalog the quote reads the facility settings through and the
	// announcements reload (WithCatalog): one per instance, shared with the web layer.
	catalogOps *catalog.Service
	// records reads a reservation's full record for the customer and manage-link views.
	records *records.Service

	// The helpers that need little of the service, each with just that.
	report   reporter  // after a commit: the live board, the metrics (board_feed.go)
	trail    trail     // the audit trail's view of a reservation (audit.go)
	notes    notifier  // notifications inside the transaction (notify.go)
	spots    spots     // one stay at a time on a spot (spot.go)
	receipts issuer    // receipts inside the transaction (receipts.go)
	dates    stayRules // the rules on a stay's dates (booking.go, exit.go)

	quoteDays occupancyCache // the quote's copy of the occupancy (availability_cache.go)
	running   running        // Idempotency-Keys whose request runs here (idempotency.go)
}

// Option adjusts a Service at construction.
type Option func(*Service)

// WithOutbox sets the notification outbox (the app passes the one its dispatcher
// listens to). Without it, notifications are recorded as skipped: no webhook.
func WithOutbox(o *notify.Outbox) Option { return func(s *Service) { s.outbox = o } }

// WithInputRules sets the rules phones are read with (the facility's region);
// without it, input.DefaultRegion.
func WithInputRules(r input.Rules) Option { return func(s *Service) { s.input = r } }

// WithCatalog sets the catalog operations the service shares with the web layer, so
// that a change of the facility settings reaches the quote's copy at once. Without
// it, the service has its own.
func WithCatalog(c *catalog.Service) Option { return func(s *Service) { s.catalogOps = c } }

// Input is the service's input rules (the web layer reads search phones with them).
func (s *Service) Input() input.Rules { return s.input }

// New builds the service. loc is the facility's time zone.
func New(st *store.Store, holder *pricing.Holder, loc *time.Location, log *slog.Logger, opts ...Option) *Service {
	s := &Service{store: st, catalog: holder, loc: loc, log: log, now: st.Clock()} // the service's one clock (internal/clock)
	for _, o := range opts {
		o(s)
	}
	if s.outbox == nil {
		s.outbox = notify.NewOutbox(loc, false)
	}
	if s.events == nil {
		s.events = noEvents{}
	}
	if s.catalogOps == nil {
		s.catalogOps = catalog.New(st, holder, log)
	}
	s.shared = s.catalogOps.Announcer()
	s.records = records.New(st, holder, loc, s.input)
	s.report.now, s.report.store, s.report.shared, s.report.events = func() time.Time { return s.now() }, st, s.shared, s.events
	s.trail = trail{loc: loc, catalog: holder}
	s.notes = notifier{outbox: s.outbox, catalog: holder}
	s.spots = spots{store: st, loc: loc}
	s.receipts = issuer{loc: loc}
	s.dates = stayRules{loc: loc}
	s.quoteDays.init(s)
	return s
}

// Location is the facility's time zone.
func (s *Service) Location() *time.Location { return s.loc }

// Catalog is the current pricing snapshot (nil before it is loaded).
func (s *Service) Catalog() *pricing.Snapshot { return s.catalog.Load() }

// Quote prices a request as a booking with the same data would be charged
// (docs/pricing.md#one-price-path: the quote is the price): through the one price path, so repeated
// extras count once, unknown or retired ones are skipped with a warning, and an
// inactive main service is refused to the public (ch Public; staff use WalkIn).
// A refusal or a price-rule failure is a fault.Error wrapping the pricing error.
func (s *Service) Quote(ctx context.Context, ch Channel, r pricing.Request) (pricing.Quote, error) {
	// The typed vehicle type is text like a booking's (docs/input-rules.md#control-characters: control
	// characters are a 400 naming the field, not a missing coefficient).
	if _, err := input.Text("vehicle_type", r.VehicleType, input.MaxText); err != nil {
		return pricing.Quote{}, err
	}
	exit := r.Exit
	var extras [8]store.BookedExtra // the usual handful of extras, on the stack
	p, err := s.price(ctx, ch, stay{Entry: r.Entry, Exit: &exit, VehicleType: r.VehicleType, MainService: r.MainService, Extras: r.Extras}, nil, extras[:0])
	return p.Quote, err
}

// pricingFault turns a price-rule failure into a refusal of the operation
// (docs/errors.md#refusals-by-operation: in a booking, a pricing failure is a 400 with the pricing message).
func pricingFault(err error) error { return pricing.Fault(fault.Invalid, err) }

// coded is a coded refusal that keeps its cause (docs/languages.md#messages-as-codes):
// the cause is for the logs, or carries what the web layer adds to the answer
// (fault.FullDays, fault.AmountDue, Retry-After).
func coded(k fault.Kind, cause error, code string, args ...any) error {
	e := fault.Coded(k, code, args...)
	e.Err = cause
	return e
}

// notFound is the refusal of a reservation id that does not exist.
func notFound(id int64) error { return fault.Coded(fault.NotFound, "err.booking.not_found", "ID", id) }

// stayRules are the rules on a stay's dates every create and edit checks, their
// refusals worded in the facility's zone (exit.go has the rest).
type stayRules struct {
	loc *time.Location
}

// exitAfterEntry is the rule every create and edit checks (docs/errors.md#operation-responses).
func (s *stayRules) exitAfterEntry(entry time.Time, exit *time.Time) error {
	if exit != nil && !exit.After(entry) {
		return fault.Coded(fault.Invalid, "err.booking.exit_before_entry", "Exit", exit.In(s.loc), "Entry", entry.In(s.loc))
	}
	return nil
}
