package ui

import (
	"net/http"
	"strings"

	"parking/internal/account"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// The customer's page, GET /users/profile for browsers (docs/customer-area.md:
// "Page with the customer's vehicles, reservations and active catalog"). JSON
// clients get customerProfileJSON from the same handler (docs/errors.md#json-on-web-routes). The page is
// server-rendered; static/customer.js sends its forms to the customer routes
// (PUT /users/profile/update, /password, …/edit, DELETE …/cancel) and updates the
// page in place.

// profilePageView is the data of profile.html.
type profilePageView struct {
	User     customerUserJSON
	Vehicles []profileVehicle
	Active   []profileReservation
	Past     []profileReservation
	// MarketingSince is when the customer consented to offers (nil: not given);
	// the "Sus datos" card lets them give or withdraw it (accounts_privacy.go).
	MarketingSince string
	// Notice is the outcome of a form that came back here (accounts_verify.go).
	Notice string
	// Languages are the options of the account's language (the profile's
	// language field; docs/languages.md#how-the-language-is-chosen), the chosen
	// one selected; Language is that choice, "" when none.
	Languages []languageChoice
	Language  string
}

// profileNotice is the page's notice after a verification, a resend or a claim.
func profileNotice(r *http.Request, lang string) string {
	q := r.URL.Query()
	switch {
	case q.Get("verified") != "":
		return i18n.T(lang, "msg.verified")
	case q.Get("verify") == "sent":
		return i18n.T(lang, account.MsgVerificationSent)

	case q.Get("claimed") != "":
		if ref, ok := input.ReferenceLookup(q.Get("claimed")); ok {
			return i18n.T(lang, msgClaimed, "Reference", reservation.ShowReference(ref))
		}
	}
	return ""
}

// profileVehicle is one of the customer's vehicles, for people.
type profileVehicle struct {
	Plate       string
	Description string // "Seat Ibiza"; empty when only the booking defaults are known
	TypeLabel   string
}

// vehicleDescription is brand and model, leaving out the public booking's
// placeholders (Desconocida, Desconocido).
func vehicleDescription(brand, model string) string {
	var parts []string
	for _, part := range []string{brand, model} {
		if part != "" && part != reservation.DefaultBrand && part != reservation.DefaultModel {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, " ")
}

// profileReservation is one reservation as the page shows and edits it.
type profileReservation struct {
	ID          int64
	Reference   string // K7Q2-M9XD (docs/manage-booking.md#pages): what the customer quotes at the counter
	Status      string
	StatusClass string // "EN-CURSO": the pill's class
	InCourse    bool
	EntryLocked bool   // editable, but the entry date is kept (per-state rules)
	EntryText   string // "01/12/2026 10:00" in the facility's zone
	ExitText    string // "" when there is no exit date
	EntryInput  string // datetime-local values for the edit form
	ExitInput   string
	Plate       string
	Vehicle     string // "Seat Ibiza"
	VehicleType string // the catalog type, used for the live price of an edit
	TypeLabel   string
	ServiceID   int64
	ServiceName string
	Extras      []api.BookedExtraJSON
	ExtraIDs    map[int64]bool
	Total       string // "51,00 €"
	Spot        string
	Paid        bool
	Payment     string
	Booked      string // reservation date, for people
	CanCancel   bool
	CanEdit     bool
	// WithoutLogin: booked online without signing in to this account (docs/public-booking.md#privacy-of-anonymous-bookings);
	// ContactName is the name its booker typed.
	WithoutLogin bool
	ContactName  string
	Photos       []customerPhotoJSON // the car's uploaded photos (docs/photos.md)
	Services     []serviceChoice     // what the edit form offers
	AllExtras    []extraOption       // the active additional services, for the edit form
}

// serviceChoice is a main service an edit may choose: the active ones, plus the
// reservation's own even if it has since been retired (booking.CustomerEdit keeps
// it allowed).
type serviceChoice struct {
	ID       int64
	Name     string
	Selected bool
	Retired  bool
}

// renderProfile renders profile.html for the customer's area.
func (s customerPages) renderProfile(w http.ResponseWriter, r *http.Request, area reservation.CustomerArea) {
	j := s.profileView(area)
	wd := s.words(r)
	o := s.publicOffer(wd)
	v := profilePageView{User: j.User, Notice: profileNotice(r, wd.lang)}
	if lang := httpx.GuardedUser(r).Language; i18n.Supported(lang) {
		v.Language = lang
	}
	v.Languages = languageChoices(v.Language)
	for _, vh := range j.Vehicles {
		v.Vehicles = append(v.Vehicles, profileVehicle{Plate: vh.LicensePlate, Description: vehicleDescription(vh.Brand, vh.Model), TypeLabel: wd.vehicleType(vh.Type)})
	}
	byID := make(map[int64]reservation.CustomerReservation, len(area.Reservations))
	for _, cr := range area.Reservations {
		byID[cr.ID] = cr
	}
	page := func(list []customerReservationJSON) []profileReservation {
		out := make([]profileReservation, 0, len(list))
		for _, it := range list {
			out = append(out, s.profileReservation(it, byID[it.ID], o, wd))
		}
		return out
	}
	v.Active, v.Past = page(j.ActiveReservations), page(j.PastReservations)
	if at, err := s.accounts.MarketingConsent(r.Context(), area.Customer.ID); err == nil && at != nil {
		v.MarketingSince = wd.date(*at)
	}
	s.render(w, r, http.StatusOK, "profile.html", "title.account", v)
}

func (s customerPages) profileReservation(it customerReservationJSON, cr reservation.CustomerReservation, o offer, wd words) profileReservation {
	p := profileReservation{
		ID: it.ID, Reference: it.Reference, Status: it.Status, StatusClass: strings.ReplaceAll(it.Status, " ", "-"),
		InCourse:  cr.Status == reservation.InCourse,
		EntryText: wd.dateTime(cr.Entry), EntryInput: s.inputTime(cr.Entry),
		Plate: it.LicensePlate, VehicleType: it.VehicleType, TypeLabel: wd.vehicleType(it.VehicleType),
		ServiceID: it.MainServiceID, ServiceName: it.ServiceName,
		Extras: it.AdditionalServices, ExtraIDs: map[int64]bool{},
		Total: wd.money(it.TotalPrice), Paid: it.IsPaid,
		Booked:    wd.date(cr.ReservationDate),
		CanCancel: it.CanCancel, CanEdit: it.CanEdit,
		EntryLocked:  it.CanEdit && !reservation.For(cr.Status).EditEntry,
		WithoutLogin: it.MadeWithoutLogin, ContactName: it.ContactName, Photos: it.Photos,
	}
	p.Vehicle = vehicleDescription(it.Brand, it.Model)
	if cr.Exit != nil {
		p.ExitText = wd.dateTime(*cr.Exit)
		p.ExitInput = s.inputTime(*cr.Exit)
	}
	if it.ParkingSpot != nil {
		p.Spot = *it.ParkingSpot
	}
	if it.PaymentMethod != nil {
		p.Payment = *it.PaymentMethod
	}
	for _, e := range it.AdditionalServices {
		p.ExtraIDs[e.ID] = true
	}
	if p.CanEdit {
		// The active extras, the booked ones at their booked price, and a booked extra
		// since retired, which the edit keeps while it stays ticked (docs/pricing.md#repricing-an-edit).
		bookedPrice := map[int64]money.Cents{}
		for _, e := range it.AdditionalServices {
			bookedPrice[e.ID] = e.Price
		}
		for _, e := range o.Extras {
			if price, ok := bookedPrice[e.ID]; ok {
				e.Price = wd.money(price)
				delete(bookedPrice, e.ID)
			}
			p.AllExtras = append(p.AllExtras, e)
		}
		for _, e := range it.AdditionalServices {
			if _, retired := bookedPrice[e.ID]; retired {
				p.AllExtras = append(p.AllExtras, extraOption{ID: e.ID, Name: e.Name, Price: wd.money(e.Price)})
			}
		}
		found := false
		for _, svc := range o.Services {
			sel := svc.ID == it.MainServiceID
			found = found || sel
			p.Services = append(p.Services, serviceChoice{ID: svc.ID, Name: svc.Name, Selected: sel})
		}
		if !found {
			p.Services = append(p.Services, serviceChoice{ID: it.MainServiceID, Name: it.ServiceName, Selected: true, Retired: true})
		}
	}
	return p
}

// profileUnavailable answers a browser whose profile could not be read.
func (s customerPages) profileUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	status := s.FailureStatus(r, err)
	http.Error(w, s.failText(r, err), status)
}
