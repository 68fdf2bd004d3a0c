package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"parking/internal/arrival"

	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
)

// Kind names a notification; it is the body's top-level "type" and the
// X-Parking-Notification header (docs/notifications.md#delivery).
type Kind string

const (
	BookingConfirmation Kind = "booking_confirmation"
	VehicleEntry        Kind = "vehicle_entry"
	ReservationModified Kind = "reservation_modified"
	Invoice             Kind = "invoice"
	// BookingReminder is sent 24 hours before the entry (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder).
	BookingReminder Kind = "booking_reminder"
	// PasswordReset carries a password reset link (docs/manage-booking.md#password-reset); it concerns an
	// account, not a reservation.
	PasswordReset Kind = "password_reset"
	// EmailVerification carries the link that verifies an account's email
	// (docs/accounts.md#email-verification); it concerns an account.
	EmailVerification Kind = "email_verification"
)

// Kinds lists every notification kind.
var Kinds = []Kind{BookingConfirmation, VehicleEntry, ReservationModified, Invoice, BookingReminder, PasswordReset, EmailVerification}

// Valid reports whether k is one of the kinds.
func (k Kind) Valid() bool {
	for _, v := range Kinds {
		if k == v {
			return true
		}
	}
	return false
}

// TimeFormat is hora_entrada's form, "10:00", in the facility's zone. Dates
// (fecha_entrada, fecha_salida) use localtime.Spanish, "21/11/2026, 10:00:00", the
// form of the booking responses (README: Notifications).
const TimeFormat = "15:04"

// Wire structs of the spec's Events tables. Field names and JSON types are the
// interface: reserva.id_reservation and precio_total are strings, is_paid a boolean,
// prices JSON numbers with two decimals (docs/notifications.md#payloads).

// Cliente is the customer in the nested payloads.
type Cliente struct {
	Nombre   string `json:"nombre"`
	Email    string `json:"email"`
	Telefono string `json:"telefono"`
}

// Reserva is the reservation in the nested payloads.
type Reserva struct {
	IDReservation string `json:"id_reservation"`
	Referencia    string `json:"referencia"` // the booking reference, K7Q2-M9XD (docs/manage-booking.md#booking-reference)
	Matricula     string `json:"matricula"`
	FechaEntrada  string `json:"fecha_entrada"`
	FechaSalida   string `json:"fecha_salida"`
	PrecioTotal   string `json:"precio_total"`
	HoraEntrada   string `json:"hora_entrada"`
	IsPaid        bool   `json:"is_paid"`
}

// VehicleData is the vehicle in the nested payloads.
type VehicleData struct {
	Brand string `json:"brand"`
	Model string `json:"model"`
	Color string `json:"color"`
}

// Line is a priced service: main_service and the items of additional_services.
type Line struct {
	Name  string      `json:"name"`
	Price money.Cents `json:"price"`
}

// OriginalData is the reservation as it was before a modification
// (reservation_modified, docs/notifications.md#payloads).
type OriginalData struct {
	FechaEntrada       string `json:"fecha_entrada"`
	FechaSalida        string `json:"fecha_salida"`
	PrecioTotal        string `json:"precio_total"`
	MainService        Line   `json:"main_service"`
	AdditionalServices []Line `json:"additional_services"`
}

// Nested is the body of booking_confirmation, vehicle_entry, reservation_modified
// and booking_reminder.
type Nested struct {
	Type Kind `json:"type"`
	// Idioma is the reservation's language, which the email is written in
	// (docs/notifications.md#payloads); every kind carries it.
	Idioma             string        `json:"idioma"`
	Cliente            Cliente       `json:"cliente"`
	Reserva            Reserva       `json:"reserva"`
	Vehicle            VehicleData   `json:"vehicle"`
	MainService        Line          `json:"main_service"`
	AdditionalServices []Line        `json:"additional_services"`
	Original           *OriginalData `json:"original,omitempty"`
	// ManageURL opens the booking without an account (docs/manage-booking.md#the-token): in the booking
	// confirmation, the modification and the reminder.
	ManageURL string `json:"manage_url,omitempty"`
	// Facility is the car park: name, address, phone, map link and arrival
	// instructions (the confirmation and the reminder, docs/notifications.md#arrival).
	Facility *FacilityData `json:"facility,omitempty"`
	// QRURL is the booking's QR code, a PNG the service serves (the confirmation
	// and the reminder).
	QRURL string `json:"qr_url,omitempty"`
	// Llaves and JustificanteURL (vehicle_entry): whether the keys were handed over,
	// and the signed link to the entry document (docs/entry-document.md).
	Llaves          *bool  `json:"llaves,omitempty"`
	JustificanteURL string `json:"justificante_url,omitempty"`
}

// FacilityData is the car park as the confirmation and the reminder name it (the
// settings).
type FacilityData struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Phone   string `json:"phone"`
	// MapURL opens the address in a map ("" without an address).
	MapURL string `json:"map_url"`
	// ArrivalInstructions are the settings' text in the booking's language, else
	// the Spanish one; "" when none is written.
	ArrivalInstructions string `json:"arrival_instructions"`
	arrival             settings.Texts
}

// FacilityFromSettings is the car park the reminder names from the facility settings
// (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder): a name not
// yet set on /admin/settings is the service's own.
func FacilityFromSettings(f settings.Facility) FacilityData {
	return FacilityData{Name: f.DisplayName(), Address: f.Address, Phone: f.Phone, MapURL: f.MapURL(), arrival: f.Arrival}
}

// ResetCliente is the account a password reset is for.
type ResetCliente struct {
	Nombre string `json:"nombre"`
	Email  string `json:"email"`
}

// PasswordResetData is the body of password_reset (docs/manage-booking.md#password-reset).
type PasswordResetData struct {
	Type    Kind         `json:"type"`
	Idioma  string       `json:"idioma"` // the account's language, else es
	Cliente ResetCliente `json:"cliente"`
	// ResetURL is stored sealed and delivered as the link (docs/notifications.md#sealed-fields).
	ResetURL Sealed `json:"reset_url"`
}

// EmailVerificationData is the body of email_verification. VerifyURL is stored
// sealed (Outbox.Seal) and opened at delivery.
type EmailVerificationData struct {
	Type      Kind         `json:"type"`
	Idioma    string       `json:"idioma"` // the account's language, else es
	Cliente   ResetCliente `json:"cliente"`
	VerifyURL Sealed       `json:"verify_url"`
}

// InvoiceReserva carries the booking reference in the flat invoice body, under the
// same name as in the other payloads (reserva.referencia).
type InvoiceReserva struct {
	Referencia string `json:"referencia"`
}

// Extra is what some kinds carry besides the reservation: the manage link and the
// facility (docs/manage-booking.md).
type Extra struct {
	ManageURL       string
	Facility        *FacilityData
	JustificanteURL string // vehicle_entry: the entry document's signed link
}

// InvoiceCustomer is the invoice's customer object.
type InvoiceCustomer struct {
	FullName string `json:"full_name"`
	Email    string `json:"email"`
}

// InvoiceData is the flat invoice body: the spec's fields plus type, payment_method
// (null until finalization) and status PAID or PENDING.
type InvoiceData struct {
	Type            Kind            `json:"type"`
	Idioma          string          `json:"idioma"` // the reservation's language
	IDReservation   int64           `json:"id_reservation"`
	Customer        InvoiceCustomer `json:"customer"`
	LicensePlate    string          `json:"license_plate"`
	VehicleBrand    string          `json:"vehicle_brand"`
	VehicleModel    string          `json:"vehicle_model"`
	MainServiceName string          `json:"main_service_name"`
	TotalPrice      money.Cents     `json:"total_price"`
	// Exceso is what the real stay of a late car added to its booked price
	// (docs/exit.md#overstay); 0 when none.
	Exceso             money.Cents    `json:"exceso"`
	IsPaid             bool           `json:"is_paid"`
	PaymentMethod      *string        `json:"payment_method"`
	Status             string         `json:"status"`
	AdditionalServices []Line         `json:"additional_services"`
	Reserva            InvoiceReserva `json:"reserva"`
	// The receipt (docs/receipts.md#the-invoice-notification): its number and where the customer opens it;
	// both null before finalize, when there is no receipt.
	NumeroFactura *string `json:"numero_factura"`
	ReceiptURL    *string `json:"receipt_url"`
}

// Build renders the body of a notification of kind about sub. at is the time of the
// triggering change (the transaction's clock): for vehicle_entry it is the moment
// the vehicle was received, shown as hora_entrada. original is required for
// reservation_modified and ignored otherwise.
func Build(kind Kind, sub store.NotificationSubject, original *store.NotificationSubject, at time.Time, loc *time.Location) ([]byte, error) {
	return build(kind, sub, original, at, loc, "", Extra{})
}

// build is Build with the service's public address (PARKING_BASE_URL), which the
// links in a payload start with, and the manage link and facility of docs/manage-booking.md#the-token
// (set by the outbox for the kinds that carry them).
func build(kind Kind, sub store.NotificationSubject, original *store.NotificationSubject, at time.Time, loc *time.Location, baseURL string, extra Extra) ([]byte, error) {
	// docs/notifications.md#recipient: cliente (and the invoice's customer) is the reservation's contact
	// (docs/input-rules.md), falling back to the customer's data.
	contact := recipient(sub)
	var v any
	switch kind {
	case BookingConfirmation, VehicleEntry, ReservationModified, BookingReminder:
		n := Nested{
			Type:   kind,
			Idioma: Idioma(sub.Reservation.Language),
			Cliente: Cliente{
				Nombre:   contact.FullName,
				Email:    deref(contact.Email),
				Telefono: deref(contact.Phone),
			},
			Reserva: Reserva{
				IDReservation: strconv.FormatInt(sub.Reservation.ID, 10),
				Referencia:    reservation.ShowReference(sub.Reservation.Reference),
				Matricula:     sub.Vehicle.LicensePlate,
				FechaEntrada:  localtime.Spanish(sub.Reservation.Entry, loc),
				FechaSalida:   exitText(sub.Reservation.Exit, loc),
				PrecioTotal:   sub.Reservation.TotalPrice.String(),
				HoraEntrada:   sub.Reservation.Entry.In(loc).Format(TimeFormat),
				IsPaid:        sub.Reservation.IsPaid,
			},
			Vehicle:            VehicleData{Brand: sub.Vehicle.Brand, Model: sub.Vehicle.Model, Color: sub.Vehicle.Color},
			MainService:        Line{Name: sub.MainServiceName, Price: BasePrice(sub)},
			AdditionalServices: lines(sub.Extras),
		}
		if kind == VehicleEntry {
			n.Reserva.HoraEntrada = at.In(loc).Format(TimeFormat)
			keys := sub.Reservation.KeysHandedOver
			n.Llaves, n.JustificanteURL = &keys, extra.JustificanteURL
		}
		if kind != VehicleEntry {
			n.ManageURL = extra.ManageURL
		}
		if kind == BookingReminder || kind == BookingConfirmation {
			// docs/notifications.md#arrival: what the customer needs to arrive.
			f := FacilityData{}
			if extra.Facility != nil {
				f = *extra.Facility
			}
			if f.ArrivalInstructions == "" {
				f.ArrivalInstructions = f.arrival.In(Idioma(sub.Reservation.Language))
			}
			n.Facility = &f
			if sub.Reservation.Reference != "" {
				n.QRURL = arrival.QRURL(baseURL, sub.Reservation.Reference)
			}
		}
		if kind == ReservationModified {
			if original == nil {
				return nil, fmt.Errorf("build %s for reservation %d: the original reservation is required", kind, sub.Reservation.ID)
			}
			n.Original = &OriginalData{
				FechaEntrada:       localtime.Spanish(original.Reservation.Entry, loc),
				FechaSalida:        exitText(original.Reservation.Exit, loc),
				PrecioTotal:        original.Reservation.TotalPrice.String(),
				MainService:        Line{Name: original.MainServiceName, Price: BasePrice(*original)},
				AdditionalServices: lines(original.Extras),
			}
		}
		v = n
	case Invoice:
		inv := InvoiceData{
			Type:               kind,
			Idioma:             Idioma(sub.Reservation.Language),
			IDReservation:      sub.Reservation.ID,
			Customer:           InvoiceCustomer{FullName: contact.FullName, Email: deref(contact.Email)},
			LicensePlate:       sub.Vehicle.LicensePlate,
			VehicleBrand:       sub.Vehicle.Brand,
			VehicleModel:       sub.Vehicle.Model,
			MainServiceName:    sub.MainServiceName,
			TotalPrice:         sub.Reservation.TotalPrice,
			Exceso:             sub.Reservation.Excess(),
			IsPaid:             sub.Reservation.IsPaid,
			Status:             "PENDING",
			AdditionalServices: lines(sub.Extras),
			Reserva:            InvoiceReserva{Referencia: reservation.ShowReference(sub.Reservation.Reference)},
		}
		if sub.Reservation.PaymentMethod != nil {
			m := string(*sub.Reservation.PaymentMethod)
			inv.PaymentMethod = &m
		}
		if sub.Reservation.IsPaid {
			inv.Status = "PAID"
		}
		if n := sub.ReceiptNumber; n != "" {
			u := ReceiptURL(baseURL, sub.Reservation.ID)
			inv.NumeroFactura, inv.ReceiptURL = &n, &u
		}
		v = inv
	default:
		return nil, fmt.Errorf("unknown notification type %q", kind)
	}
	return encode(kind, v)
}

// encode writes a payload as compact JSON without HTML escaping (URLs stay readable).
func encode(kind Kind, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode %s: %w", kind, err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// ReceiptURL is the customer's page of a reservation's receipt (docs/receipts.md#the-vat-arithmetic),
// which links its PDF; it asks the customer to sign in.
func ReceiptURL(baseURL string, reservationID int64) string {
	return baseURL + "/users/profile/reservation/" + strconv.FormatInt(reservationID, 10) + "/receipt"
}

// BasePrice is main_service.price: daily rate × days × coefficient (docs/notifications.md#payloads).
// It is the stored total less the additional services at the prices they were
// booked with, which is exactly the base the price rule computed when the
// reservation was last priced (rule 5: total = base + extras). Recomputing it from
// today's catalog instead could disagree with the stored total after a catalog
// change (docs/pricing.md#one-price-path), and an email whose lines do not add up to its total is worse
// than none.
func BasePrice(sub store.NotificationSubject) money.Cents {
	base := sub.Reservation.TotalPrice
	for _, e := range sub.Extras {
		base -= e.Price
	}
	return base
}

func lines(extras []reservation.BookedExtraDetail) []Line {
	out := make([]Line, 0, len(extras))
	for _, e := range extras {
		out = append(out, Line{Name: e.Name, Price: e.Price})
	}
	return out
}

// exitText is fecha_salida: "" while the exit is open (a walk-in), so that the field
// keeps its string type.
func exitText(exit *time.Time, loc *time.Location) string {
	if exit == nil {
		return ""
	}
	return localtime.Spanish(*exit, loc)
}

// Idioma is a payload's idioma: the reservation's or account's language, Spanish
// when there is none (docs/notifications.md#payloads).
func Idioma(lang string) string {
	if lang == "" {
		return "es"
	}
	return lang
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// recipient is who a notification about sub is for: the reservation's contact,
// or its customer's data when it has none (reservation.ContactOf).
func recipient(sub store.NotificationSubject) reservation.Contact {
	return reservation.ContactOf(sub.Reservation, sub.Customer)
}

// hasEmail reports whether the notification's recipient can receive an email at all.
func hasEmail(sub store.NotificationSubject) bool {
	c := recipient(sub)
	return c.Email != nil && *c.Email != ""
}
