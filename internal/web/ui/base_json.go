package ui

import (
	"time"

	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/notify"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/api"
)

// Wire shapes of the administrator routes, with the spec's field names.

// adminReservationJSON is a reservation record (docs/reservations.md#reservation).
type adminReservationJSON struct {
	reservationHeadJSON
	reservationPaymentJSON
	Notes         *string `json:"notes"`
	Spot          *string `json:"cod_parking_spot"`
	CustomerID    int64   `json:"id_customer"`
	VehicleID     int64   `json:"id_vehicle"`
	MainServiceID int64   `json:"id_main_service"`
	// How it was made: "public" (online, not signed in as its customer), "account",
	// "staff"; null when not recorded (made before it was). docs/input-rules.md.
	BookedBy         *string `json:"booked_by"`
	MadeWithoutLogin bool    `json:"made_without_login"`
	// Language is the customer's language for this booking (docs/languages.md#the-bookings-language).
	Language string `json:"language"`
	// Channel is where it was sold: web, counter or partner:<id>; a partner's
	// booking adds its reference and commission (docs/partners.md#channels).
	Channel          string       `json:"channel"`
	PartnerReference *string      `json:"partner_reference,omitempty"`
	Commission       *money.Cents `json:"commission,omitempty"`
}

// reservationHeadJSON is what every wire shape of a reservation starts with.
type reservationHeadJSON struct {
	ID              int64   `json:"id_reservation"`
	Reference       string  `json:"reference"` // K7Q2-M9XD (docs/manage-booking.md#booking-reference)
	ReservationDate string  `json:"reservation_date"`
	EntryDate       string  `json:"entry_date"`
	ExitDate        *string `json:"exit_date"`
	Status          string  `json:"status"`
}

func (s *base) reservationHead(r reservation.Reservation) reservationHeadJSON {
	return reservationHeadJSON{ID: r.ID, Reference: reservation.ShowReference(r.Reference),
		ReservationDate: localtime.JSON(r.ReservationDate, s.cfg.Location), EntryDate: localtime.JSON(r.Entry, s.cfg.Location),
		ExitDate: s.adminTime(r.Exit), Status: string(r.Status)}
}

// reservationPaymentJSON is a reservation's amount and how it was paid.
type reservationPaymentJSON struct {
	TotalPrice    money.Cents `json:"total_price"`
	IsPaid        bool        `json:"is_paid"`
	PaymentMethod *string     `json:"payment_method"`
}

func reservationPayment(r reservation.Reservation) reservationPaymentJSON {
	out := reservationPaymentJSON{TotalPrice: r.TotalPrice, IsPaid: r.IsPaid}
	if r.PaymentMethod != nil {
		m := string(*r.PaymentMethod)
		out.PaymentMethod = &m
	}
	return out
}

// contactJSON is the reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings): the name, email and phone
// the booker typed, or the customer's when the reservation has none (typed false).
type contactJSON struct {
	FullName string  `json:"full_name"`
	Email    *string `json:"email"`
	Phone    *string `json:"phone"`
	Typed    bool    `json:"typed"`
}

func contactView(r reservation.Reservation, c reservation.Customer) contactJSON {
	ct := reservation.ContactOf(r, c)
	return contactJSON{FullName: ct.FullName, Email: ct.Email, Phone: ct.Phone, Typed: r.Contact != nil}
}

func (s *base) adminReservation(r reservation.Reservation) adminReservationJSON {
	out := adminReservationJSON{
		reservationHeadJSON: s.reservationHead(r), reservationPaymentJSON: reservationPayment(r),
		Notes: r.Notes, Spot: r.Spot, CustomerID: r.CustomerID, VehicleID: r.VehicleID, MainServiceID: r.MainServiceID,
		Language: r.Language, Channel: r.Channel,
	}
	if r.Sale != nil {
		c := r.Commission()
		out.PartnerReference, out.Commission = &r.Sale.Reference, &c
	}
	if r.BookedBy != "" {
		b := string(r.BookedBy)
		out.BookedBy = &b
	}
	out.MadeWithoutLogin = r.MadeWithoutLogin()
	return out
}

// adminTime formats an optional instant (docs/dates.md#output), null when absent.
func (s *base) adminTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	v := localtime.JSON(*t, s.cfg.Location)
	return &v
}

type adminCustomerJSON struct {
	ID       int64   `json:"id_customer"`
	FullName string  `json:"full_name"`
	Phone    *string `json:"phone"`
	Email    *string `json:"email"`
	Type     string  `json:"type"`
}

func adminCustomer(c reservation.Customer) adminCustomerJSON {
	return adminCustomerJSON{ID: c.ID, FullName: c.FullName, Phone: c.Phone, Email: c.Email, Type: string(c.Type)}
}

// vehicleJSON is a vehicle, for staff and for its owner alike.
type vehicleJSON struct {
	ID           int64  `json:"id_vehicle"`
	LicensePlate string `json:"license_plate"`
	Brand        string `json:"brand"`
	Model        string `json:"model"`
	Color        string `json:"color"`
	Type         string `json:"type"`
}

func vehicleView(v reservation.Vehicle) vehicleJSON {
	return vehicleJSON{ID: v.ID, LicensePlate: v.LicensePlate, Brand: v.Brand, Model: v.Model, Color: v.Color, Type: v.Type}
}

type adminPhotoJSON struct {
	ID            int64   `json:"id_photo"`
	ReservationID int64   `json:"id_reservation"`
	FilePath      string  `json:"file_path"`
	Description   *string `json:"description"`
	TakenAt       string  `json:"taken_at"`
	Phase         string  `json:"phase"` // entrada or salida (docs/receipts.md)
}

func (s *base) adminPhoto(p reservation.Photo) adminPhotoJSON {
	return adminPhotoJSON{ID: p.ID, ReservationID: p.ReservationID, FilePath: p.FilePath, Description: p.Description,
		TakenAt: localtime.JSON(p.TakenAt, s.cfg.Location), Phase: p.Phase}
}

// handoverJSON is a hand-over record: at the start (entrada) or at finalize
// (salida); the measures not taken are null.
type handoverJSON struct {
	Phase       string  `json:"phase"`
	MileageKm   *int    `json:"mileage_km"`
	FuelPercent *int    `json:"fuel_percent"`
	DamageNotes *string `json:"damage_notes"`
	RecordedAt  string  `json:"recorded_at"`
}

// adminDetailJSON is the detail record (docs/admin.md#detail;
// docs/errors.md#json-on-web-routes): the reservation with its main service name and selected additional services,
// customer, vehicle, photos with count, notification history, and the lists the
// edit form offers (vehicle types, all main services, all additional services).
type adminDetailJSON struct {
	Reservation struct {
		adminReservationJSON
		MainServiceName    string                `json:"main_service_name"`
		AdditionalServices []api.BookedExtraJSON `json:"additional_services"`
		// CapacityOverrideAt: when staff accepted it over the capacity (docs/capacity.md#refusals); null: never.
		CapacityOverrideAt *string `json:"capacity_override_at"`
		// CheckedInAt: the moment of the start; null before it. KeysHandedOver: the
		// customer left the keys then (docs/entry-document.md).
		CheckedInAt    *string `json:"checked_in_at"`
		KeysHandedOver bool    `json:"keys_handed_over"`
		// The exit (docs/exit.md): the moment of check-out, and what was booked when
		// a late car was repriced at the exit; null until they happen.
		CheckedOutAt   *string      `json:"checked_out_at"`
		BookedExitDate *string      `json:"booked_exit_date"`
		BookedPrice    *money.Cents `json:"booked_price"`
		// ArrivedAt: when a gate camera saw the car come in (docs/gate.md#arrival); null until then.
		ArrivedAt *string `json:"arrived_at"`
	} `json:"reservation"`
	Customer           adminCustomerJSON     `json:"customer"`
	Contact            contactJSON           `json:"contact"`
	Vehicle            vehicleJSON           `json:"vehicle"`
	Photos             []adminPhotoJSON      `json:"photos"`
	PhotoCount         int                   `json:"photo_count"`
	Handovers          []handoverJSON        `json:"handovers"` // docs/photos.md
	Notifications      []notify.HistoryItem  `json:"notifications"`
	VehicleTypes       []api.VehicleTypeJSON `json:"vehicle_types"`
	MainServices       []api.MainServiceJSON `json:"main_services"`
	AdditionalServices []api.ExtraJSON       `json:"additional_services"`
}

func (s *base) adminDetail(d records.Detail) adminDetailJSON {
	var out adminDetailJSON
	out.Reservation.adminReservationJSON = s.adminReservation(d.Reservation)
	out.Reservation.MainServiceName = d.MainServiceName
	if d.CapacityOverrideAt != nil {
		at := localtime.JSON(*d.CapacityOverrideAt, s.cfg.Location)
		out.Reservation.CapacityOverrideAt = &at
	}
	out.Reservation.CheckedInAt = s.adminTime(d.Reservation.CheckedInAt)
	out.Reservation.KeysHandedOver = d.Reservation.KeysHandedOver
	out.Reservation.CheckedOutAt = s.adminTime(d.Reservation.CheckedOutAt)
	out.Reservation.BookedExitDate = s.adminTime(d.Reservation.BookedExit)
	out.Reservation.BookedPrice = d.Reservation.BookedPrice
	out.Reservation.ArrivedAt = s.adminTime(d.Reservation.ArrivedAt)
	out.Reservation.AdditionalServices = api.BookedExtras(d.Extras)
	out.Customer = adminCustomer(d.Customer)
	out.Contact = contactView(d.Reservation, d.Customer)
	out.Vehicle = vehicleView(d.Vehicle)
	out.Photos = make([]adminPhotoJSON, len(d.Photos))
	for i, p := range d.Photos {
		out.Photos[i] = s.adminPhoto(p)
	}
	out.PhotoCount = d.EntryPhotos()
	out.Handovers = make([]handoverJSON, len(d.Handovers))
	for i, h := range d.Handovers {
		out.Handovers[i] = handoverJSON{Phase: h.Phase, MileageKm: h.MileageKm, FuelPercent: h.FuelPercent, DamageNotes: h.DamageNotes,
			RecordedAt: localtime.JSON(h.RecordedAt, s.cfg.Location)}
	}
	out.Notifications = d.Notifications // docs/notifications.md#delivery: the outbox rows, as the notifications package words them
	cat := api.CatalogView(d.Catalog, true)
	out.VehicleTypes, out.MainServices, out.AdditionalServices = cat.VehicleTypes, cat.MainServices, cat.AdditionalServices
	return out
}

// adminListItemJSON is a reservation in the history and on the parking board: the
// record plus what the lists show of its customer and vehicle.
type adminListItemJSON struct {
	adminReservationJSON
	CustomerName string  `json:"customer_name"` // the reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings)
	Phone        *string `json:"phone"`
	AccountName  string  `json:"account_name,omitempty"` // the customer's stored name, when it differs
	LicensePlate string  `json:"license_plate"`
	Brand        string  `json:"brand"`
	Model        string  `json:"model"`
	Color        string  `json:"color"`
	VehicleType  string  `json:"vehicle_type"`
	ServiceName  string  `json:"service_name,omitempty"`
}

func (s *base) adminHistoryItem(h reservation.HistoryRow) adminListItemJSON {
	out := adminListItemJSON{adminReservationJSON: s.adminReservation(h.Reservation),
		CustomerName: h.CustomerName, Phone: h.Phone, LicensePlate: h.LicensePlate, Brand: h.Brand, Model: h.Model,
		Color: h.Color, VehicleType: h.VehicleType, ServiceName: h.MainServiceName}
	if h.AccountName != h.CustomerName {
		out.AccountName = h.AccountName
	}
	return out
}

func (s *base) adminParkingItem(p reservation.ParkingRow) adminListItemJSON {
	return adminListItemJSON{adminReservationJSON: s.adminReservation(p.Reservation),
		CustomerName: p.CustomerName, Phone: p.Phone, LicensePlate: p.LicensePlate, Brand: p.Brand, Model: p.Model,
		Color: p.Color, VehicleType: p.VehicleType}
}
