package ui

import (
	"net/http"
	"strconv"

	"parking/internal/i18n"
	"parking/internal/pricing"
	"parking/internal/web/httpx"
)

// The walk-in form, GET /admin/reservations/new for browsers (spec: "Walk-in
// form"): customer, vehicle, dates (entry defaults to now), main service (all of
// them: staff may use inactive ones), additional services and an optional spot,
// with the live price of static/admin.js (ParkingUI.makeQuoter). The script posts
// JSON and opens the new reservation's detail page; without JavaScript the form
// posts itself, and a refusal re-renders it with what was typed and the message.

// walkInView is the data of admin_new.html.
type walkInView struct {
	Services     []serviceChoice
	Extras       []detailExtraChoice
	VehicleTypes []detailTypeChoice
	Languages    []languageChoice  // the customer's language (docs/languages.md#the-bookings-language), Spanish unless chosen
	Values       map[string]string // what was typed, after a refusal
	Now          string
	Error        string
	Unavailable  bool // the catalog is not loaded
}

// walkInDefaultType is the vehicle type the form starts with.
const walkInDefaultType = defaultQuoteType

// renderWalkIn renders the walk-in form with status; in holds what was typed
// (after a refusal) or is empty.
func (s reservationPages) renderWalkIn(w http.ResponseWriter, r *http.Request, status int, in httpx.Input, errMsg string) {
	wd := s.words(r)
	v := walkInView{Values: map[string]string{}, Now: s.nowInput(), Error: errMsg}
	for _, k := range in.Names() {
		if vals := in.Values(k); len(vals) > 0 {
			v.Values[k] = vals[0]
		}
	}
	if v.Values["entry_date"] == "" {
		v.Values["entry_date"] = v.Now
	}
	lang := v.Values["language"]
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	v.Languages = languageChoices(lang)
	chosen := map[string]bool{}
	for _, id := range in.Values("additional_services") {
		chosen[id] = true
	}
	snap := s.catalog.Load()
	if snap == nil {
		v.Unavailable = true
		if status == http.StatusOK {
			status = http.StatusServiceUnavailable
		}
		s.render(w, r, status, "admin_new.html", "title.walkin", v)
		return
	}
	c := snap.Catalog()
	svc := v.Values["id_main_service"]
	for i, m := range c.MainServices {
		sel := strconv.FormatInt(m.ID, 10) == svc || (svc == "" && i == 0)
		v.Services = append(v.Services, serviceChoice{ID: m.ID, Name: m.Name, Selected: sel, Retired: !m.Active})
	}
	for _, e := range c.Extras {
		if !e.Active {
			continue // a retired extra cannot be newly added (docs/pricing.md#repricing-an-edit)
		}
		v.Extras = append(v.Extras, detailExtraChoice{ID: e.ID, Name: e.Name, Price: wd.money(e.Price),
			Checked: chosen[strconv.FormatInt(e.ID, 10)], Inactive: !e.Active})
	}
	typ := v.Values["vehicle_type"]
	if typ == "" {
		typ = walkInDefaultType
	}
	for _, k := range pricing.OfferedTypes(c.Coefficients, typ) { // each kind once
		v.VehicleTypes = append(v.VehicleTypes, detailTypeChoice{Type: k.VehicleType, Label: wd.vehicleType(k.VehicleType), Selected: k.VehicleType == typ})
	}
	s.render(w, r, status, "admin_new.html", "title.walkin", v)
}

// knownCustomerJSON is the answer of the walk-in form's lookup.
type knownCustomerJSON struct {
	FullName string `json:"full_name"`
	Phone    string `json:"phone"`
	Email    string `json:"email"`
}

type knownVehicleJSON struct {
	LicensePlate string `json:"license_plate"`
	Brand        string `json:"brand"`
	Model        string `json:"model"`
	Color        string `json:"color"`
	VehicleType  string `json:"vehicle_type"`
}

// adminKnownCustomer is GET /admin/customers/known?phone=… or ?plate=… (staff only,
// docs/reservations.md#walk-in-lookup): the customer and vehicle of the latest
// booking with that phone or plate, which the walk-in form fills in;
// {"success":true,"found":false,"customer":null,"vehicle":null} when nobody.
func (s reservationPages) adminKnownCustomer(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	k, found, err := s.records.KnownCustomer(r.Context(), q.Get("phone"), q.Get("plate"))
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	out := map[string]any{"success": true, "found": found, "customer": nil, "vehicle": nil}
	if found {
		out["customer"] = knownCustomerJSON{FullName: k.FullName, Phone: k.Phone, Email: k.Email}
		v := k.Vehicle
		out["vehicle"] = knownVehicleJSON{LicensePlate: v.LicensePlate, Brand: v.Brand, Model: v.Model, Color: v.Color, VehicleType: v.Type}
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, out)
}
