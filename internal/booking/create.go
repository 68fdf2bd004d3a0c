package booking

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"parking/internal/fault"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Channel says who creates a booking: the rules differ slightly.
type Channel int

const (
	// Public is the online booking flow: every field of CONTRACT §8 is required.
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
	// is marked as made without signing in (CONTRACT §8).
	SignedIn int64
}

// Created is the outcome of a booking. Customer and Vehicle are the stored records
// the booking landed on; Contact and Typed are what the booker sent (with the
// spec's defaults), the only data a public response may show (CONTRACT §8).
type Created struct {
	Reservation reservation.Reservation
	Customer    reservation.Customer
	Vehicle     reservation.Vehicle
	Quote       pricing.Quote
	Contact     reservation.Contact // the reservation's contact (Reservation.Contact)
	Typed       reservation.Vehicle // plate, brand, model, color and type as sent, defaults filled in
}

// ErrMissingData is the spec's refusal for missing required booking data.
const msgMissingData = "Faltan datos obligatorios."

// Limits of CONTRACT §8 (characters).
const (
	MaxName  = 100
	MaxEmail = 254
	MaxPhone = 20
	MaxPlate = 15
	MaxText  = 50 // brand, model, color, vehicle type
	MaxNotes = 2000
	MaxSpot  = 20
)

// NormalizePlate is the stored form of a licence plate: trimmed, upper-case,
// inner spaces and dashes kept as typed.
func NormalizePlate(p string) string { return strings.ToUpper(strings.TrimSpace(p)) }

// NormalizeSpot is the stored form of a spot code; "" means no spot (spec: blank → null).
func NormalizeSpot(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// CheckLength refuses a field longer than max characters, naming it.
func CheckLength(field, value string, max int) error {
	if utf8.RuneCountInString(value) > max {
		return fault.Invalidf("El campo %s admite como máximo %d caracteres.", field, max)
	}
	return nil
}

// Create makes a reservation in one transaction: customer found or created by phone,
// vehicle by plate, their link, the reservation (PENDIENTE, priced by the server) and
// its additional services (spec, States and transitions, first row). Nothing is
// saved on any failure.
func (s *Service) Create(ctx context.Context, ch Channel, in NewBooking) (Created, error) {
	in.FullName = strings.TrimSpace(in.FullName)
	in.Phone = strings.TrimSpace(in.Phone)
	in.Email = strings.TrimSpace(in.Email)
	in.LicensePlate = NormalizePlate(in.LicensePlate)
	in.VehicleType = pricing.NormalizeVehicleType(in.VehicleType)
	in.Spot = NormalizeSpot(in.Spot)
	in.Notes = strings.TrimSpace(in.Notes)
	in.Brand = orDefault(in.Brand, reservation.DefaultBrand)
	in.Model = orDefault(in.Model, reservation.DefaultModel)
	in.Color = orDefault(in.Color, reservation.DefaultColor)

	if ch == WalkIn && in.Entry.IsZero() {
		in.Entry = s.now()
	}
	// Spec, Errors: entry_date, phone or license_plate missing; CONTRACT §8 adds, for
	// the public flow, vehicle_type, id_main_service and exit_date.
	missing := in.Phone == "" || in.LicensePlate == "" || in.Entry.IsZero()
	if ch == Public {
		missing = missing || in.VehicleType == "" || in.MainService == 0 || in.Exit == nil
	}
	if missing {
		return Created{}, fault.Invalidf(msgMissingData)
	}
	if ch == WalkIn && in.VehicleType == "" {
		return Created{}, fault.Invalidf("El tipo de vehículo es obligatorio.")
	}
	if ch == WalkIn && in.MainService == 0 {
		return Created{}, fault.Invalidf("El servicio principal es obligatorio.")
	}
	for _, c := range []struct {
		field, value string
		max          int
	}{
		{"full_name", in.FullName, MaxName}, {"email", in.Email, MaxEmail}, {"phone", in.Phone, MaxPhone},
		{"license_plate", in.LicensePlate, MaxPlate}, {"brand", in.Brand, MaxText}, {"model", in.Model, MaxText},
		{"color", in.Color, MaxText}, {"vehicle_type", in.VehicleType, MaxText}, {"notes", in.Notes, MaxNotes},
		{"cod_parking_spot", in.Spot, MaxSpot},
	} {
		if err := CheckLength(c.field, c.value, c.max); err != nil {
			return Created{}, err
		}
	}
	if in.Email != "" && !ValidEmail(in.Email) {
		return Created{}, fault.Invalidf("El correo electrónico %q no es válido.", in.Email)
	}
	if err := s.exitAfterEntry(in.Entry, in.Exit); err != nil {
		return Created{}, err
	}

	if snap := s.catalog.Load(); snap != nil && ch == Public {
		if m, ok := snap.MainService(in.MainService); ok && !m.Active {
			return Created{}, fault.Invalidf("El servicio %s no está disponible.", m.Name)
		}
	}
	priced, err := s.priceStay(ch, in.Entry, in.Exit, in.VehicleType, in.MainService, in.Extras)
	if err != nil {
		return Created{}, err
	}
	quote := priced.Quote

	var out Created
	out.Quote = quote
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		var email *string
		if in.Email != "" {
			email = &in.Email
		}
		customer, _, err := tx.FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: in.FullName, Phone: in.Phone, Email: email})
		if err != nil {
			return err
		}
		customerID := customer.ID
		vehicle, _, err := tx.FindOrCreateVehicleByPlate(ctx, reservation.Vehicle{
			LicensePlate: in.LicensePlate, Brand: in.Brand, Model: in.Model, Color: in.Color, Type: in.VehicleType,
		})
		if err != nil {
			return err
		}
		// Spec (walk-in) and CONTRACT §8 (public): a plate stored with another type is
		// refused, otherwise the stored vehicle and the price would disagree.
		if pricing.NormalizeVehicleType(vehicle.Type) != in.VehicleType {
			return fault.Invalidf("La matrícula %s ya está registrada con el tipo de vehículo %s.", vehicle.LicensePlate, vehicle.Type)
		}
		if err := tx.LinkCustomerVehicle(ctx, customerID, vehicle.ID); err != nil {
			return err
		}
		// CONTRACT §8: the reservation keeps the contact the booker typed; the stored
		// customer and vehicle are found, never rewritten (the store's find-or-create
		// inserts or reads, it does not update).
		contact, bookedBy := bookingContact(ch, in, customer, email)
		nr := store.NewReservation{
			Entry: in.Entry, Exit: in.Exit, TotalPrice: quote.Total,
			CustomerID: customerID, VehicleID: vehicle.ID, MainServiceID: in.MainService,
			Contact: &contact, BookedBy: bookedBy,
		}
		if in.Notes != "" {
			nr.Notes = &in.Notes
		}
		if in.Spot != "" {
			nr.Spot = &in.Spot
		}
		if err := s.ensureSpotFree(ctx, tx, 0, in.Spot, in.Entry, in.Exit); err != nil { // spots are physical (admin_spot.go)
			return err
		}
		nr.Extras = priced.Extras
		if out.Reservation, err = tx.InsertReservation(ctx, nr); err != nil {
			return err
		}
		out.Customer, out.Vehicle, out.Contact = customer, vehicle, contact
		out.Typed = reservation.Vehicle{ID: vehicle.ID, LicensePlate: in.LicensePlate, Brand: in.Brand, Model: in.Model,
			Color: in.Color, Type: in.VehicleType}
		// Spec, Events: booking confirmation, in this transaction, so that the
		// notification exists exactly when the booking does (CONTRACT §9).
		return s.enqueueBooked(ctx, tx, ch, out, priced.Extras)
	})
	if err != nil {
		err = s.spotViolation(ctx, err, 0, in.Spot, in.Entry, in.Exit)
		return Created{}, fmt.Errorf("create booking: %w", err)
	}
	return out, nil
}

// bookingContact is the contact a new reservation keeps and how it was made
// (CONTRACT §8). Online, it is exactly what the booker typed: nothing of the customer
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

// selectExtras keeps the known additional services of the request, once each, in
// the order given. Unknown ids are skipped with a warning (spec, price rule 4); the
// public flow also skips retired ones.
func (s *Service) selectExtras(snap *pricing.Snapshot, ch Channel, ids []int64) []pricing.Extra {
	seen := make(map[int64]bool, len(ids))
	out := make([]pricing.Extra, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		e, ok := snap.Extra(id)
		if !ok || (ch == Public && !e.Active) {
			s.log.Warn("unknown additional service skipped", "id_additional_service", id)
			continue
		}
		out = append(out, e)
	}
	return out
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v == "" {
		return def
	}
	return v
}

// ValidEmail is a plain sanity check: one @, something on both sides, a dot in the
// domain, no spaces. Real validation is the confirmation email arriving.
func ValidEmail(e string) bool {
	at := strings.LastIndexByte(e, '@')
	if at < 1 || at == len(e)-1 || strings.ContainsAny(e, " \t\r\n<>") {
		return false
	}
	domain := e[at+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}
