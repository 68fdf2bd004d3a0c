// Package reservation holds the domain records and the spec's state rules
// (States and transitions; per-state rules). It is pure: no SQL, no HTTP.
package reservation

import (
	"time"

	"parking/internal/i18n"
	"parking/internal/money"
)

// Status is one of the four states of the spec.
type Status string

const (
	Pending   Status = "PENDIENTE"
	InCourse  Status = "EN CURSO"
	Finalized Status = "FINALIZADA"
	Cancelled Status = "CANCELADA"
)

// Statuses lists the states in their life order.
var Statuses = []Status{Pending, InCourse, Finalized, Cancelled}

// ParseStatus accepts exactly one of the four names.
func ParseStatus(s string) (Status, bool) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, true
		}
	}
	return "", false
}

// Terminal: FINALIZADA and CANCELADA allow no edits, no cancel, no photos, no status change.
func (s Status) Terminal() bool { return s == Finalized || s == Cancelled }

// Word is the status as a coded refusal's argument: the API's Spanish says it as
// written (PENDIENTE), a page in its language (PENDING) (docs/languages.md#messages-as-codes).
func (s Status) Word() i18n.Term { return i18n.Term("js.status." + string(s)) }

// PaymentMethod is recorded at finalization.
type PaymentMethod string

const (
	Cash PaymentMethod = "EFECTIVO"
	Card PaymentMethod = "TARJETA"
)

// ParsePaymentMethod accepts EFECTIVO or TARJETA.
func ParsePaymentMethod(s string) (PaymentMethod, bool) {
	switch PaymentMethod(s) {
	case Cash, Card:
		return PaymentMethod(s), true
	}
	return "", false
}

// CustomerType values (docs/accounts.md).
type CustomerType string

const (
	Admin        CustomerType = "ADMIN"
	Registered   CustomerType = "REGISTRADO"
	Unregistered CustomerType = "NO-REGISTRADO"
)

// Reservation is the stored record (docs/reservations.md#reservation).
type Reservation struct {
	ID              int64
	ReservationDate time.Time
	Entry           time.Time
	Exit            *time.Time
	Status          Status
	TotalPrice      money.Cents
	IsPaid          bool
	PaymentMethod   *PaymentMethod
	Notes           *string
	Spot            *string
	CustomerID      int64
	VehicleID       int64
	MainServiceID   int64
	UpdatedAt       time.Time
	// Contact is the name, email and phone the booker typed (docs/public-booking.md#privacy-of-anonymous-bookings); nil for
	// a reservation made before contacts were kept. Read it through ContactOf.
	Contact  *Contact
	BookedBy BookedBy // "" when not known (made before it was recorded)
	// Reference is the booking reference (docs/manage-booking.md#pages), 8 characters of Crockford
	// base32 without the dash; "" only until a row stored before references existed
	// is given one at start.
	Reference string
	// CheckedInAt is the moment of the start (check-in); nil until it happens.
	CheckedInAt *time.Time
	// KeysHandedOver: the customer left the keys at the start.
	KeysHandedOver bool
	// CheckedOutAt is the moment of check-out (finalize); nil until then.
	CheckedOutAt *time.Time
	// ArrivedAt is when a gate camera saw the car come in (docs/gate.md#arrival);
	// nil until then. It does not start the stay.
	ArrivedAt *time.Time
	// BookedExit and BookedPrice are the exit and total that were booked, kept
	// when a late car was repriced at the exit (docs/exit.md#overstay); nil when
	// the stay never was.
	BookedExit  *time.Time
	BookedPrice *money.Cents
	// ClaimedAt is when a reservation not booked while signed in to its customer's
	// account became that account's own (SeenBy); nil until then.
	ClaimedAt *time.Time
	// Language is the customer's language for this booking (es, en, de, fr): its
	// notifications carry it as idioma (docs/languages.md#the-bookings-language).
	Language string
	// Channel is where it was sold (docs/partners.md#channels): web, counter or
	// partner:<id>. Sale is the partner's part of a partner booking (nil otherwise).
	Channel string
	Sale    *PartnerSale
}

// Overdue reports whether the car is still in after its exit date: EN CURSO and the
// exit passed at now (docs/board.md#overdue).
func (r Reservation) Overdue(now time.Time) bool {
	return r.Status == InCourse && r.Exit != nil && r.Exit.Before(now)
}

// Excess is what the stay was charged over its booked price: the real stay of a
// late car (docs/exit.md#overstay); 0 when it was never repriced at the exit.
func (r Reservation) Excess() money.Cents {
	if r.BookedPrice == nil || r.TotalPrice <= *r.BookedPrice {
		return 0
	}
	return r.TotalPrice - *r.BookedPrice
}

// Contact is who a reservation is for, as the booker typed it: staff see it on the
// reservation and its notifications go to it (docs/public-booking.md#privacy-of-anonymous-bookings). Email nil: none
// was typed, and the notifications are recorded as skipped.
type Contact struct {
	FullName string
	Email    *string
	Phone    *string
}

// BookedBy says how a reservation was made (stored as reservation.booked_by).
type BookedBy string

const (
	// BookedPublic: the online booking, not signed in as the customer it landed on
	// (found by phone). The account holder's profile marks it (docs/input-rules.md#phones).
	BookedPublic BookedBy = "public"
	// BookedAccount: the online booking made while signed in as that very customer.
	BookedAccount BookedBy = "account"
	// BookedStaff: a walk-in entered by staff at the counter.
	BookedStaff BookedBy = "staff"
)

// MadeWithoutLogin reports whether the reservation was booked online by someone not
// signed in as its customer: the customer's profile marks it (docs/public-booking.md#privacy-of-anonymous-bookings).
func (r Reservation) MadeWithoutLogin() bool { return r.BookedBy == BookedPublic }

// ContactOr is the reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings): the one the booker
// typed, or fallback (its customer's data) when the reservation has none. This is
// the one rule for "who is this reservation for": every list, record and
// notification payload uses it. The fallback is all or nothing: a typed contact
// without an email stays without one (its notifications are skipped) rather than
// borrowing the stored customer's email.
func (r Reservation) ContactOr(fallback Contact) Contact {
	if r.Contact != nil {
		return *r.Contact
	}
	return fallback
}

// ContactOf is ContactOr with the customer's stored name, email and phone as the fallback.
func ContactOf(r Reservation, c Customer) Contact {
	return r.ContactOr(c.Contact())
}

// Contact is the customer's stored name, email and phone.
func (c Customer) Contact() Contact {
	return Contact{FullName: c.FullName, Email: c.Email, Phone: c.Phone}
}

// Customer is a customer or staff account (docs/reservations.md#customer).
type Customer struct {
	ID           int64
	FullName     string
	Phone        *string
	Email        *string
	Type         CustomerType
	PasswordHash *string
	CreatedAt    time.Time
	// EmailVerifiedAt is when the account proved it reads Email; nil while it has
	// not (or since the email last changed).
	EmailVerifiedAt *time.Time
	// Language is the language the account chose on its profile; "" when none
	// (docs/languages.md#how-the-language-is-chosen).
	Language string
}

// EmailVerified reports whether the customer's current email is verified.
func (c Customer) EmailVerified() bool { return c.EmailVerifiedAt != nil && c.Email != nil }

// Vehicle (docs/reservations.md#vehicle).
type Vehicle struct {
	ID           int64
	LicensePlate string
	Brand        string
	Model        string
	Color        string
	Type         string
}

// Default vehicle data for the booking flows (docs/reservations.md#vehicle: Desconocida / Desconocido / No color).
const (
	DefaultBrand = "Desconocida"
	DefaultModel = "Desconocido"
	DefaultColor = "No color"
)

// MinPhotosToStart is the spec's limit: at least 5 photos before check-in.
const MinPhotosToStart = 5
