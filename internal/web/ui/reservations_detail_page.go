package ui

import (
	"html/template"
	"net/http"
	"strings"

	"parking/internal/handover"
	"parking/internal/i18n"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/receipt"
	"parking/internal/records"
	"parking/internal/reservation"
)

// The reservation's detail page, GET /admin/reservations/details/{id} for browsers
// (docs/admin.md#detail). Everything in the detail record, the update
// form with the per-state rules shown (fields disabled where the state forbids
// editing), the photo gallery with its form and the count toward the 5 needed, the
// state changes (start, finalize with the payment method, cancel: each confirmed in
// a dialog), the notification history and the manual invoice. static/admin.js sends
// the actions to the JSON routes and refreshes the page's regions from the server.

// detailPageView is the data of admin_detail.html.
type detailPageView struct {
	Reference   string // K7Q2-M9XD (docs/manage-booking.md#pages)
	ID          int64
	Status      string
	StatusClass string
	Pending     bool
	InCourse    bool
	Finalized   bool
	Cancelled   bool
	// From the per-state rules (internal/reservation/rules.go): the entry date is
	// kept, and the spot must stay assigned.
	EntryLocked  bool
	SpotRequired bool

	// Outcome of the previous request, from the query string (?updated=true,
	// ?created=true, ?photo=added, ?error=…).
	Notice string
	Error  string

	Booked      string
	EntryText   string
	ExitText    string
	EntryInput  string
	ExitInput   string
	Days        int64 // charged days; 0 while there is no exit date
	ServiceName string
	Extras      []receiptLine
	Total       string
	Paid        bool
	Payment     string
	Spot        string
	Notes       string

	Customer detailCustomer
	Vehicle  detailVehicle

	Photos        []detailPhoto
	Handovers     []detailHandover // docs/photos.md: at the start and at finalize
	PhotoCount    int
	PhotosNeeded  int
	PhotosMissing int
	PhotoProgress int // the count, at most PhotosNeeded (the progress bar's value)

	CanEdit      bool
	CanAddPhoto  bool
	CanStart     bool
	StartWhyNot  string   // what the start still needs (photos, spot), for people: the dialog asks for it
	FreeSpots    []string // the check-in dialog's suggestions (docs/reservations.md#check-in-on-a-phone)
	CanFinalize  bool
	CanCancel    bool
	CanInvoice   bool
	HasReceipt   bool
	Services     []serviceChoice
	AllExtras    []detailExtraChoice
	VehicleTypes []detailTypeChoice

	Notifications []detailNotification
	Trail         []auditRowView // the reservation's audit trail, newest first (records_audit.go)
	TrailError    string

	// Contact is the reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings): who staff deal with and
	// where its notifications go. AccountDiffers: the customer record it belongs to
	// has another name, phone or email, shown beside it. BookedBy says how it was made.
	Contact        detailCustomer
	AccountDiffers bool
	BookedBy       string
	// Channel is where it was sold, as words (docs/partners.md#channels); PartnerRef
	// the partner's own reference of a partner booking.
	Channel, PartnerRef string
	// Language is the booking's language (docs/languages.md#the-bookings-language),
	// LanguageName its name in itself ("English"); "" for a language we do not speak.
	Language, LanguageName string
	// CapacityOverride: when staff accepted it on a full day (docs/capacity.md#refusals), as text.
	CapacityOverride string

	// CheckedIn: the moment of the start as text ("" before it); Keys says whether
	// the keys were handed over; HasEntryDocument: the justificante can be opened
	// (docs/entry-document.md).
	CheckedIn        string
	Keys             string
	HasEntryDocument bool
	// Warning: something staff should look at now (a walk-in whose exit has passed).
	Warning string
	// Due is what a finalize now would charge (EN CURSO only; docs/exit.md), shown
	// on the page and in the finalize dialog before any script runs.
	Due *detailDue
}

// detailDue is an exit charge as the detail page shows it.
type detailDue struct {
	Total, Booked, Excess, Exit string
	Amount                      string // the total as expected_total is sent: "65.00"
	Overdue, Differs            bool   // the booked exit has passed; the amount is not the stored total
}

// bookedByLabels say for people how a reservation was made (catalogue keys).
var bookedByLabels = map[reservation.BookedBy]string{
	reservation.BookedPublic:  "words.booked_public",
	reservation.BookedAccount: "words.booked_account",
	reservation.BookedStaff:   "words.booked_staff",
}

type detailCustomer struct {
	ID        int64
	FullName  string
	Phone     string
	PhoneHref template.URL // "tel:+34600000000"
	Email     string
	TypeLabel string
}

type detailVehicle struct {
	Plate, Brand, Model, Color, Type, TypeLabel string
	// As shown: a dash for the public booking's placeholders (Desconocida,
	// Desconocido, No color); the edit form keeps the stored values.
	BrandText, ModelText, ColorText string
}

// shownOr is v, or a dash when v is empty or the placeholder unknown.
func shownOr(v, unknown string) string {
	if v == "" || v == unknown {
		return "—"
	}
	return v
}

type detailPhoto struct {
	URL         string
	Thumb       string // the thumbnail of an uploaded photo; the URL itself for one given by URL
	Description string
	TakenText   string
	Phase       string // Entrada or Salida
	N           int
}

// detailHandover is a hand-over record as the detail page and the receipt (page
// and PDF) show it.
type detailHandover = receipt.HandoverRow

type detailExtraChoice struct {
	ID       int64
	Name     string
	Price    string
	Checked  bool
	Inactive bool
}

type detailTypeChoice struct {
	Type, Label string
	Selected    bool
}

type detailNotification struct {
	Type, Status, StatusLabel string
	Attempts                  int
	Created, Sent, LastError  string
}

// receiptLine is a priced line: an additional service, or the stay itself.
type receiptLine struct {
	Name  string
	Price string
}

// customerTypeLabels name the account types for people in Spanish (the
// catalogues' "customer_type.<TYPE>" in each language).
var customerTypeLabels = map[reservation.CustomerType]string{
	reservation.Admin: "Personal", reservation.Registered: "Cliente registrado", reservation.Unregistered: "Cliente sin cuenta",
}

// notificationLabels name the notification types (docs/notifications.md) and their
// states in Spanish (the catalogues' "notification.type|status.<code>" in each
// language).
var (
	notificationLabels = map[string]string{
		"booking_confirmation": "Confirmación de reserva", "vehicle_entry": "Entrada del vehículo",
		"reservation_modified": "Reserva modificada", "invoice": "Factura",
		"booking_reminder": "Recordatorio del día anterior",
	}
	notificationStatusLabels = map[string]string{
		"pending": "Pendiente", "sent": "Enviada", "failed": "Fallida", "skipped": "No enviada",
		"cancelled": "Anulada",
	}
)

// detailNotice is the message of a successful previous request, from the query.
func detailNotice(r *http.Request, wd words) string {
	q := r.URL.Query()
	switch {
	case q.Get("created") == "true":
		return wd.t("msg.created")
	case q.Get("updated") == "true":
		return wd.t("msg.updated")
	case q.Get("photo") == "added":
		return wd.t("msg.photo_added")
	}
	return ""
}

// renderDetailPage renders the detail record d as the detail page.
func (s reservationPages) renderDetailPage(w http.ResponseWriter, r *http.Request, d records.Detail) {
	wd := s.words(r)
	res := d.Reservation
	v := detailPageView{
		ID: res.ID, Reference: reservation.ShowReference(res.Reference), Status: string(res.Status), StatusClass: statusClass(string(res.Status)),
		Pending: res.Status == reservation.Pending, InCourse: res.Status == reservation.InCourse,
		Finalized: res.Status == reservation.Finalized, Cancelled: res.Status == reservation.Cancelled,
		Notice: detailNotice(r, wd), Error: r.URL.Query().Get("error"),
		Booked:    s.shortTime(res.ReservationDate),
		EntryText: s.shortTime(res.Entry), ExitText: s.optTime(res.Exit),
		EntryInput: s.inputTime(res.Entry), ServiceName: d.MainServiceName,
		Total: wd.money(res.TotalPrice), Paid: res.IsPaid, Spot: deref(res.Spot), Notes: deref(res.Notes),
		Customer: detailCustomer{ID: d.Customer.ID, FullName: d.Customer.FullName, Phone: deref(d.Customer.Phone),
			Email: deref(d.Customer.Email), TypeLabel: string(d.Customer.Type)},
		Vehicle: detailVehicle{Plate: d.Vehicle.LicensePlate, Brand: d.Vehicle.Brand, Model: d.Vehicle.Model,
			Color: d.Vehicle.Color, Type: d.Vehicle.Type, TypeLabel: wd.vehicleType(d.Vehicle.Type)},
		PhotoCount: d.EntryPhotos(), PhotosNeeded: reservation.MinPhotosToStart,
	}
	v.Vehicle.BrandText = shownOr(d.Vehicle.Brand, reservation.DefaultBrand)
	v.Vehicle.ModelText = shownOr(d.Vehicle.Model, reservation.DefaultModel)
	v.Vehicle.ColorText = shownOr(d.Vehicle.Color, reservation.DefaultColor)
	if _, ok := customerTypeLabels[d.Customer.Type]; ok {
		v.Customer.TypeLabel = wd.t("customer_type." + string(d.Customer.Type))
	}
	ct := reservation.ContactOf(res, d.Customer)
	v.Contact = detailCustomer{FullName: ct.FullName, Phone: deref(ct.Phone), Email: deref(ct.Email)}
	v.Contact.PhoneHref = telHref(v.Contact.Phone)
	v.AccountDiffers = v.Contact.FullName != v.Customer.FullName || v.Contact.Phone != v.Customer.Phone || v.Contact.Email != v.Customer.Email
	v.BookedBy = wd.t(bookedByLabels[res.BookedBy])
	v.Channel = channelLabel(wd, res.Channel)
	if res.Sale != nil {
		v.PartnerRef = res.Sale.Reference
	}
	if i18n.Supported(res.Language) {
		v.Language, v.LanguageName = res.Language, i18n.Name(res.Language)
	}
	if d.CapacityOverrideAt != nil {
		v.CapacityOverride = wd.t("words.capacity_override", "When", wd.dateTime(*d.CapacityOverrideAt))
	}
	if res.CheckedInAt != nil {
		v.CheckedIn, v.HasEntryDocument = s.shortTime(*res.CheckedInAt), true
		v.Keys = keysText(wd, res.KeysHandedOver)
	}
	if r.URL.Query().Get("created") == "true" {
		v.Warning = s.booking.PastExitWarning(res)
	}
	if res.Exit != nil {
		v.ExitInput = s.inputTime(*res.Exit)
		v.Days = pricing.ChargedDays(res.Entry, *res.Exit)
	}
	if res.PaymentMethod != nil {
		v.Payment = string(*res.PaymentMethod)
	}
	booked := map[int64]bool{}
	bookedPrice := map[int64]money.Cents{}
	for _, e := range d.Extras {
		v.Extras = append(v.Extras, receiptLine{Name: e.Name, Price: wd.money(e.Price)})
		booked[e.ID], bookedPrice[e.ID] = true, e.Price
	}
	for i, p := range d.Photos {
		ph := detailPhoto{URL: p.FilePath, Thumb: p.FilePath, Description: deref(p.Description), TakenText: s.shortTime(p.TakenAt), Phase: photoPhase(wd, p), N: i + 1}
		if p.StorageKey != "" { // served by this service, whatever host the page came from
			ph.URL, ph.Thumb = handover.PhotoPath(p.ID, handover.PhotoLarge), handover.PhotoPath(p.ID, handover.PhotoThumb)
		}
		v.Photos = append(v.Photos, ph)
	}
	v.Handovers = s.handovers(d, wd, func(key string) string { return wd.t(key) })
	v.PhotosMissing = max(v.PhotosNeeded-v.PhotoCount, 0)
	v.PhotoProgress = min(v.PhotoCount, v.PhotosNeeded)
	v.Customer.PhoneHref = telHref(v.Customer.Phone)

	// docs/reservations.md#per-state-rules: the one table
	// (internal/reservation/rules.go) the operations enforce.
	rules := reservation.For(res.Status)
	v.CanEdit = rules.Editable()
	v.EntryLocked = rules.Editable() && !rules.EditEntry
	v.SpotRequired = rules.Spot == reservation.SpotRequired
	v.CanAddPhoto = rules.AddPhotos
	v.CanFinalize = rules.Finalize
	if rules.Finalize {
		if c, err := s.booking.CheckoutPreview(r.Context(), res.ID); err == nil {
			v.Due = &detailDue{Total: wd.money(c.Total), Booked: wd.money(c.BookedPrice), Exit: s.shortTime(c.Exit),
				Amount: c.Total.String(), Overdue: c.Overdue, Differs: c.Total != res.TotalPrice}
			if x := c.Excess(); x > 0 {
				v.Due.Excess = wd.money(x)
			}
		} else {
			s.FailureStatus(r, err) // an open stay whose entry is still ahead: the dialog shows the stored total
		}
	}
	v.CanCancel = rules.Cancel
	v.CanInvoice = rules.RequestBill
	v.HasReceipt = v.Finalized
	if rules.Start {
		// The check-in dialog asks for the spot and takes the photos
		// (docs/reservations.md#check-in-on-a-phone): start opens it whatever is missing.
		v.CanStart = true
		switch {
		case v.PhotosMissing > 0:
			v.StartWhyNot = wd.t("detail.photos_missing", "Count", v.PhotosMissing)
		case v.Spot == "":
			v.StartWhyNot = wd.t("detail.assign_spot")
		}
		if spots, err := s.records.FreeSpots(r.Context(), res); err == nil {
			v.FreeSpots = spots
		} else {
			s.log.WarnContext(r.Context(), "free spots for the check-in dialog", "err", err)
		}
	}

	// The edit form's lists: every main service and vehicle type (staff may use
	// inactive services), the active additional services and the ones already booked
	// (a retired extra cannot be newly added, docs/pricing.md#repricing-an-edit), the reservation's own
	// choices selected.
	for _, m := range d.Catalog.MainServices {
		v.Services = append(v.Services, serviceChoice{ID: m.ID, Name: m.Name, Selected: m.ID == res.MainServiceID, Retired: !m.Active})
	}
	for _, e := range d.Catalog.Extras {
		if !e.Active && !booked[e.ID] {
			continue
		}
		price := e.Price
		if booked[e.ID] {
			price = bookedPrice[e.ID] // kept at its booked price (docs/pricing.md#repricing-an-edit)
		}
		v.AllExtras = append(v.AllExtras, detailExtraChoice{ID: e.ID, Name: e.Name, Price: wd.money(price), Checked: booked[e.ID], Inactive: !e.Active})
	}
	found := false
	for _, k := range pricing.OfferedTypes(d.Catalog.Coefficients, d.Vehicle.Type) { // each kind once, the stored one kept
		sel := pricing.NormalizeVehicleType(k.VehicleType) == pricing.NormalizeVehicleType(d.Vehicle.Type)
		found = found || sel
		v.VehicleTypes = append(v.VehicleTypes, detailTypeChoice{Type: k.VehicleType, Label: wd.vehicleType(k.VehicleType), Selected: sel})
	}
	if !found {
		v.VehicleTypes = append(v.VehicleTypes, detailTypeChoice{Type: d.Vehicle.Type, Label: wd.vehicleType(d.Vehicle.Type), Selected: true})
	}

	for _, n := range d.Notifications {
		v.Notifications = append(v.Notifications, detailNotification{
			Type: auditLabel(wd, "notification.type", notificationLabels, n.Type), Status: n.Status, StatusLabel: auditLabel(wd, "notification.status", notificationStatusLabels, n.Status),
			Attempts: n.Attempts, Created: s.isoText(&n.CreatedAt), Sent: s.isoText(n.SentAt), LastError: deref(n.LastError),
		})
	}
	if trail, err := s.records.ReservationTrail(r.Context(), res.ID); err != nil {
		s.FailureStatus(r, err)
		v.TrailError = s.failText(r, err)
	} else {
		v.Trail = auditRows(trail, wd)
	}
	s.render(w, r, http.StatusOK, "admin_detail.html", wd.t("title.detail", "ID", res.ID), v)
}

// telHref is a tel: link for a phone: its digits and a leading +, nothing else, so
// the address can be trusted as a URL (html/template refuses the tel: scheme).
func telHref(phone string) template.URL {
	var b strings.Builder
	for i, c := range strings.TrimSpace(phone) {
		if (c >= '0' && c <= '9') || (c == '+' && i == 0) {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return template.URL("tel:" + b.String())
}
