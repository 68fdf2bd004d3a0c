package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/occupancy"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Channel says who creates a booking: the rules differ slightly.
type Channel int

const (
	// Public is the online booking flow: every field of docs/input-rules.md#required-fields-of-a-booking is required.
	Public Channel = iota
	// WalkIn is an administrator creating a booking at the counter: entry defaults
	// to now, the exit may be left open (priced for one day), a spot may be given.
	WalkIn
)

// NewBooking is a booking request after wire decoding. Zero values mean "not sent".
type NewBooking struct {
	FullName     string
	Phone        string
	Email        string
	LicensePlate string
	Brand        string
	Model        string
	Color        string
	VehicleType  string
	Entry        time.Time
	Exit         *time.Time
	MainService  int64
	Extras       []int64
	Spot         string
	Notes        string
	// SignedIn is the customer whose session sent a public booking (0: none). A
	// booking that lands on that same customer is theirs; any other public booking
	// is marked as made without signing in (docs/public-booking.md#privacy-of-anonymous-bookings).
	SignedIn int64
	// PrivacyAck and MarketingConsent are the booker's "He leído la política de
	// privacidad" and optional marketing consent (docs/privacy.md#consents), stored with their
	// time on the reservation. A booking rests on the contract, not on consent:
	// neither is required here.
	PrivacyAck, MarketingConsent bool
	// OverrideCapacity: staff accept a walk-in on a full day (docs/capacity.md#refusals); the
	// public flow ignores it.
	OverrideCapacity bool
	// Language is the customer's language for this booking, stored with it and carried
	// by its notifications as idioma: the request's language field, else what the web
	// layer chose (docs/languages.md#the-bookings-language); "" is Spanish.
	Language string
	// Sale makes it a partner booking (docs/partners.md): the partner, its own
	// reference and its commission rate; nil for any other booking.
	Sale *reservation.PartnerSale
}

// Created is the outcome of a booking. Customer and Vehicle are the stored records
// the booking landed on; Contact and Typed are what the booker sent (with the
// spec's defaults), the only data a public response may show (docs/input-rules.md).
type Created struct {
	Reservation reservation.Reservation
	Customer    reservation.Customer
	Vehicle     reservation.Vehicle
	Quote       pricing.Quote
	Contact     reservation.Contact // the reservation's contact (Reservation.Contact)
	Typed       reservation.Vehicle // plate, brand, model, color and type as sent, defaults filled in
}

// PublicEntryGrace is how far in the past a public booking's entry may be
// (docs/input-rules.md): a customer booking at the gate a few minutes late is not refused.
const PublicEntryGrace = 15 * time.Minute

// maxReferenceDraws bounds the runs of a booking whose drawn reference was taken
// (store.ErrReferenceTaken): with 2^40 references, a second collision in a row is
// already one in a trillion.
const maxReferenceDraws = 8

// Create makes a reservation in one transaction: customer found or created by phone,
// vehicle by plate, their link, the reservation (PENDIENTE, priced by the server) and
// its additional services (docs/reservations.md#creation). Nothing is
// saved on any failure. The outcome is reported to the service's events (metrics).
func (s *Service) Create(ctx context.Context, ch Channel, in NewBooking, opts ...CreateOption) (Created, error) {
	c, err := s.create(ctx, ch, in, opts...)
	if err != nil {
		if answered := (*keyAnswered)(nil); !errors.As(err, &answered) { // a replay is no refusal
			s.events.BookingRefused(channelName(ch, in), refusalReason(err))
		}
		return c, err
	}
	s.events.BookingCreated(channelName(ch, in))
	s.report.moved("", reservation.Pending)
	return c, nil
}

func (s *Service) create(ctx context.Context, ch Channel, in NewBooking, opts ...CreateOption) (Created, error) {
	var co createOptions
	for _, o := range opts {
		o(&co)
	}
	if ch == WalkIn && in.Entry.IsZero() {
		in.Entry = s.now()
	}
	// docs/errors.md#refusals-by-operation: entry_date, phone or license_plate missing; docs/input-rules.md#required-fields-of-a-booking adds, for
	// the public flow, vehicle_type, id_main_service and exit_date.
	missing := input.Blank(in.Phone) || input.Blank(in.LicensePlate) || in.Entry.IsZero()
	if ch == Public {
		missing = missing || input.Blank(in.VehicleType) || in.MainService == 0 || in.Exit == nil
	}
	if missing {
		return Created{}, fault.Coded(fault.Invalid, "err.booking.missing_data")
	}
	if err := s.readBooking(ch, &in); err != nil {
		return Created{}, err
	}
	// docs/dates.md#past-entries: a public booking cannot start in the past (staff walk-ins may:
	// the car is already there).
	if ch == Public && in.Entry.Before(s.now().Add(-PublicEntryGrace)) {
		return Created{}, fault.Coded(fault.Invalid, "err.booking.entry_before_now", "Field", i18n.FieldName("entry_date"), "Now", s.now().In(s.loc))
	}
	if err := s.dates.exitAfterEntry(in.Entry, in.Exit); err != nil {
		return Created{}, err
	}

	// The one price path (price.go, docs/pricing.md#one-price-path): the same total as the quote.
	priced, err := s.price(ctx, ch, stay{Entry: in.Entry, Exit: in.Exit, VehicleType: in.VehicleType, MainService: in.MainService, Extras: in.Extras}, nil, nil)
	if err != nil {
		return Created{}, err
	}
	quote := priced.Quote

	// The car park the confirmation and the reminder name, read before the transaction
	// (notify.Outbox.BookingFacility, docs/performance.md): the transaction saves a read
	// while it holds its locks.
	facility, err := s.notes.outbox.BookingFacility(ctx)
	if err != nil {
		return Created{}, err
	}
	var out Created
	out.Quote = quote
	// The trail names an anonymous online booking "público" (a signed-in booker is
	// put in ctx by the web layer); a walk-in's actor is the staff member.
	action := audit.ActionWalkIn
	if ch == Public {
		action = audit.ActionCreate
		ctx = audit.WithActor(ctx, audit.ActorOr(ctx, audit.Public))
	}
	// On PostgreSQL the transaction is two round trips
	// (docs/performance.md#the-public-booking-in-two-round-trips): BEGIN, the
	// Idempotency-Key, the reservation's id and the booker; every write that names
	// the reservation, queued, with the ledger's claim and the COMMIT (each refusal
	// of that round trip is raised inside the database).
	book := func(tx *store.Tx) error {
		var email *string
		if in.Email != "" {
			email = &in.Email
		}
		// The Idempotency-Key, read with the booker on PostgreSQL (readKey).
		judged, err := readKey(ctx, tx, co.once)
		if err != nil {
			return err
		}
		var id int64 // drawn with the booker on PostgreSQL; 0 on SQLite (store.ReservationsTx.ReserveID)
		if err := tx.Reservations().ReserveID(ctx, &id); err != nil {
			return err
		}
		// The customer found or created by phone, the vehicle by plate, and their link
		// (one statement on PostgreSQL, store.FindOrCreateBooker).
		customer, vehicle, err := tx.Customers().FindOrCreateBooker(ctx, store.NewCustomer{FullName: in.FullName, Phone: in.Phone, Email: email},
			reservation.Vehicle{LicensePlate: in.LicensePlate, Brand: in.Brand, Model: in.Model, Color: in.Color, Type: in.VehicleType})
		if err != nil {
			return err
		}
		if err := judged(); err != nil {
			return err
		}
		customerID := customer.ID
		// For the walk-in and the public booking alike (docs/input-rules.md#plates): a plate stored with another type is
		// refused, otherwise the stored vehicle and the price would disagree. The refusal
		// fails the transaction: the link just made is undone with it.
		if pricing.NormalizeVehicleType(vehicle.Type) != in.VehicleType {
			return fault.Coded(fault.Invalid, "err.booking.plate_other_type", "Plate", vehicle.LicensePlate, "Type", vehicle.Type)
		}
		// docs/public-booking.md#privacy-of-anonymous-bookings: the reservation keeps the contact the booker typed; the stored
		// customer and vehicle are found, never rewritten (the store's find-or-create
		// inserts or reads, it does not update).
		contact, bookedBy := bookingContact(ch, in, customer, email)
		nr := store.NewReservation{
			ID: id, Entry: in.Entry, Exit: in.Exit, TotalPrice: quote.Total,
			CustomerID: customerID, VehicleID: vehicle.ID, MainServiceID: in.MainService,
			Contact: &contact, BookedBy: bookedBy, Language: in.Language, Sale: in.Sale,
		}
		// A booking that qualifies for the account it landed on (its contact email is
		// the account's verified email) is the account's from the start
		// (docs/privacy.md#who-sees-a-booking).
		nr.Claimed = bookedBy != reservation.BookedAccount && reservation.Claimable(
			reservation.Reservation{CustomerID: customerID, Contact: &contact, BookedBy: bookedBy}, customer)
		if in.Notes != "" {
			nr.Notes = &in.Notes
		}
		if in.Spot != "" {
			nr.Spot = &in.Spot
		}
		if err := s.spots.ensureSpotFree(ctx, tx, 0, in.Spot, in.Entry, in.Exit); err != nil { // spots are physical (spot.go)
			return err
		}
		nr.Extras = priced.Extras
		if out.Reservation, err = tx.Reservations().InsertReservation(ctx, nr); err != nil {
			return err
		}
		if in.PrivacyAck || in.MarketingConsent {
			if err := tx.Privacy().SetReservationConsents(ctx, out.Reservation.ID, in.PrivacyAck, in.MarketingConsent); err != nil {
				return err
			}
		}
		out.Customer, out.Vehicle, out.Contact = customer, vehicle, contact
		out.Typed = reservation.Vehicle{ID: vehicle.ID, LicensePlate: in.LicensePlate, Brand: in.Brand, Model: in.Model,
			Color: in.Color, Type: in.VehicleType}
		// docs/notifications.md#events: booking confirmation, in this transaction, so that the
		// notification exists exactly when the booking does (docs/notifications.md).
		if err := s.notes.enqueueBooked(ctx, tx, ch, out, priced.Extras, facility); err != nil {
			return err
		}
		created := resState{r: out.Reservation, extras: bookedDetails(s.catalog.Load(), priced.Extras)}
		if err := auditReservation(ctx, tx, action, out.Reservation.ID, nil, s.trail.fields(created)); err != nil {
			return err
		}
		// docs/public-booking.md#retries-idempotency-key: the answer under its Idempotency-Key, with the booking.
		if err := finishOnce(ctx, tx, co.once, out); err != nil {
			return err
		}
		// docs/capacity.md#what-counts: the stay takes its days in the ledger, or the booking is
		// refused. Last before the commit: the ledger rows of popular days are locked
		// until it, and every booking of those days waits for them.
		check := publicCheck
		if ch == WalkIn {
			check = staffCheck
		}
		return s.occupy(ctx, tx, out.Reservation.ID, occupancy.Stay{}, stayOf(out.Reservation), check, in.OverrideCapacity)
	}
	// A drawn reference already taken (docs/manage-booking.md#booking-reference) failed
	// the transaction, nothing stored: it runs again and draws another.
	for draws := 1; ; draws++ {
		if err = s.store.InTx(ctx, book); !errors.Is(err, store.ErrReferenceTaken) || draws == maxReferenceDraws {
			break
		}
	}
	if err != nil {
		err = s.spots.spotViolation(ctx, overLimit(err), 0, in.Spot, in.Entry, in.Exit)
		return Created{}, fmt.Errorf("create booking: %w", err)
	}
	return out, nil
}

// bookingContact is the contact a new reservation keeps and how it was made
// (docs/public-booking.md#privacy-of-anonymous-bookings). Online, it is exactly what the booker typed: nothing of the customer
// found by phone is shown or reused, and a booking not made while signed in as that
// customer is marked for its profile. At the counter (a walk-in), staff may see the
// customer's record anyway, so a field they left blank is taken from it.
func bookingContact(ch Channel, in NewBooking, found reservation.Customer, email *string) (reservation.Contact, reservation.BookedBy) {
	phone := in.Phone
	c := reservation.Contact{FullName: in.FullName, Email: email, Phone: &phone}
	switch {
	case ch == WalkIn:
		if c.FullName == "" {
			c.FullName = found.FullName
		}
		if c.Email == nil {
			c.Email = found.Email
		}
		return c, reservation.BookedStaff
	case in.SignedIn != 0 && in.SignedIn == found.ID:
		return c, reservation.BookedAccount
	default:
		return c, reservation.BookedPublic
	}
}

// readBooking checks every typed field of a booking and puts it in its stored form
// (docs/input-rules.md#required-fields-of-a-booking, internal/input): phone in E.164, canonical plate, email, name (required
// for public bookings), texts within their limits and free of control characters.
func (s *Service) readBooking(ch Channel, in *NewBooking) error {
	var err error
	if ch == Public || !input.Blank(in.FullName) {
		if in.FullName, err = input.Name("full_name", in.FullName); err != nil {
			return err
		}
	}
	if in.Phone, err = s.input.Phone("phone", in.Phone); err != nil {
		return err
	}
	if !input.Blank(in.Email) {
		if in.Email, err = input.Email("email", in.Email); err != nil {
			return err
		}
	} else {
		in.Email = ""
	}
	if in.LicensePlate, err = input.Plate("license_plate", in.LicensePlate); err != nil {
		return err
	}
	if in.Spot, err = input.Spot("cod_parking_spot", in.Spot); err != nil {
		return err
	}
	if in.Notes, err = input.Notes("notes", in.Notes, input.MaxNotes); err != nil {
		return err
	}
	if in.Language, err = input.Language("language", in.Language); err != nil {
		return err
	}
	in.Language = orDefault(in.Language, i18n.Default)
	for _, f := range []struct {
		field string
		value *string
		def   string
	}{
		{"brand", &in.Brand, reservation.DefaultBrand}, {"model", &in.Model, reservation.DefaultModel},
		{"color", &in.Color, reservation.DefaultColor}, {"vehicle_type", &in.VehicleType, ""},
	} {
		v, err := input.Text(f.field, *f.value, input.MaxText)
		if err != nil {
			return err
		}
		*f.value = orDefault(v, f.def)
	}
	in.VehicleType = pricing.NormalizeVehicleType(in.VehicleType)
	if ch == WalkIn && in.VehicleType == "" {
		return fault.Coded(fault.Invalid, "err.booking.vehicle_type_required")
	}
	if ch == WalkIn && in.MainService == 0 {
		return fault.Coded(fault.Invalid, "err.booking.main_service_required")
	}
	return nil
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v == "" {
		return def
	}
	return v
}
