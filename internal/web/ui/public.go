package ui

import (
	"net/http"
	"strings"
	"time"

	"parking/internal/localtime"
	"parking/internal/pricing"
	"parking/internal/reservation"
)

// The public pages: the home page (GET /) and the booking flow (GET /booking, spec:
// Public pages). Both are server-rendered from the in-memory catalog snapshot; the
// booking flow's behaviour (steps, live price, submission) is static/customer.js,
// which talks to the public JSON API like any other client. The pages' own
// stylesheet and script are customer.css and customer.js, loaded through the
// layout's "head" block.

// publicPages are the pages anyone may read: home, the booking flow and the
// privacy policy and terms (public_legal.go).
type publicPages struct{ *base }

func (s publicPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.homePage)
	mux.HandleFunc("GET /booking", s.bookingPage)
	mux.HandleFunc("GET /privacidad", s.privacyPage)
	mux.HandleFunc("GET /condiciones", s.termsPage)
	mux.HandleFunc("GET /accesibilidad", s.accessibilityPage)
	// The booking page's phone check before its last step (public_phone.go),
	// limited per client address like the other anonymous JSON routes
	// (docs/public-booking.md#limits-on-anonymous-traffic).
	mux.Handle("POST /booking/check-phone", s.SameOrigin(s.limit.Limit("check-phone", s.checkPhone, s.checkPhoneRefused)))
}

// inputLayout is the value format of <input type="datetime-local">.
const inputLayout = "2006-01-02T15:04"

// defaultQuoteType is the vehicle type the booking flow quotes with until the
// customer picks one in step 2: the commonest car, coefficient 1 in the seed.
const defaultQuoteType = "TURISMO"

// serviceCard is a main service offered to customers, with its price bands.
type serviceCard struct {
	ID          int64
	Name        string
	Description string
	// From is the lowest daily price, "5,00 €", and FromDays the fewest days that
	// get it when a shorter stay cannot (0 otherwise): "desde 5,00 € al día a
	// partir de 16 días", never a bare price a typical stay does not get.
	From     string
	FromDays int64
	// ShortStay is the first band's price when it is not the lowest: "Estancias
	// de 1–3 días: 12,00 € al día".
	ShortStay string
	Bands     []priceBand
}

type priceBand struct {
	Days  string // "1–3 días", "16 días o más"
	Price string // "12,00 €"
}

// extraOption is an additional service with its fixed price.
type extraOption struct {
	ID    int64
	Name  string
	Price string
}

// vehicleTypeOption is a vehicle type with a price coefficient.
type vehicleTypeOption struct {
	Type        string // the catalog value sent to the API
	Label       string // for people: "Turismo"
	Coefficient string // "1,25"
}

// offer is what the public pages show of the catalog: only what customers may book
// (active services and extras, docs/pricing.md#one-price-path).
type offer struct {
	Services     []serviceCard
	Extras       []extraOption
	VehicleTypes []vehicleTypeOption
	QuoteType    string // the type quoted with before one is chosen
	QuoteLabel   string
}

// publicOffer builds the offer from the current catalog snapshot; an unloaded
// catalog gives an empty offer, which the pages explain instead of failing.
func (s *base) publicOffer(w words) offer {
	var o offer
	snap := s.catalog.Load()
	if snap == nil {
		return o
	}
	c := snap.Catalog()
	active := map[int64]int{}
	for _, m := range c.MainServices {
		if m.Active {
			active[m.ID] = len(o.Services)
			o.Services = append(o.Services, serviceCard{ID: m.ID, Name: m.Name, Description: m.Description})
		}
	}
	// Per service: the first band (fewest days) and the cheapest (ties: fewer days).
	first, cheapest := map[int64]pricing.Rate{}, map[int64]pricing.Rate{}
	for _, r := range c.Rates {
		i, ok := active[r.MainService]
		if !ok {
			continue
		}
		o.Services[i].Bands = append(o.Services[i].Bands, priceBand{Days: w.band(r), Price: w.money(r.DailyPrice)})
		if f, seen := first[r.MainService]; !seen || r.MinDays < f.MinDays {
			first[r.MainService] = r
		}
		if l, seen := cheapest[r.MainService]; !seen || r.DailyPrice < l.DailyPrice || r.DailyPrice == l.DailyPrice && r.MinDays < l.MinDays {
			cheapest[r.MainService] = r
		}
	}
	for i, svc := range o.Services {
		low, ok := cheapest[svc.ID]
		if !ok {
			continue
		}
		o.Services[i].From = w.money(low.DailyPrice)
		if low.MinDays > 1 {
			o.Services[i].FromDays = low.MinDays
		}
		if f := first[svc.ID]; f.DailyPrice != low.DailyPrice {
			o.Services[i].ShortStay = w.t("offer.short_stay", "Days", w.band(f), "Price", w.money(f.DailyPrice))
		}
	}
	for _, e := range c.Extras {
		if e.Active {
			o.Extras = append(o.Extras, extraOption{ID: e.ID, Name: e.Name, Price: w.money(e.Price)})
		}
	}
	for _, k := range pricing.OfferedTypes(c.Coefficients, "") { // each kind once
		o.VehicleTypes = append(o.VehicleTypes, vehicleTypeOption{
			Type: k.VehicleType, Label: w.vehicleType(k.VehicleType), Coefficient: w.multiplier(k.Multiplier),
		})
	}
	o.QuoteType = defaultQuoteType
	if _, ok := snap.Multiplier(defaultQuoteType); !ok && len(o.VehicleTypes) > 0 {
		o.QuoteType = o.VehicleTypes[0].Type
	}
	o.QuoteLabel = w.vehicleType(o.QuoteType)
	return o
}

// vehicleTypeLabels name the seed's vehicle types in Spanish (the catalogues'
// "vehicle.<TYPE>" keys name them in each language: words.vehicleType); a type
// added by an administrator shows as stored.
var vehicleTypeLabels = map[string]string{
	"TURISMO": "Turismo", "COCHE": "Coche", "SUV": "SUV / todoterreno", "FURGONETA": "Furgoneta",
	"MOTOCICLETA": "Motocicleta", "MOTO": "Moto", "CARAVANA": "Caravana / autocaravana",
	"CAMION": "Camión", "ESPECIAL": "Vehículo especial",
}

// inputTime formats an instant for a datetime-local input, in the facility's zone.
func (s *base) inputTime(t time.Time) string { return t.In(s.cfg.Location).Format(inputLayout) }

// queryTime reads a date query parameter (entrada, salida) as a datetime-local
// value; ok is false when it is present but unreadable.
func (s publicPages) queryTime(r *http.Request, name string) (value string, ok bool) {
	raw := strings.TrimSpace(r.URL.Query().Get(name))
	if raw == "" {
		return "", true
	}
	t, err := localtime.Parse(raw, s.cfg.Location)
	if err != nil {
		return "", false
	}
	return s.inputTime(t), true
}

// homeView is the data of home.html.
type homeView struct {
	Offer offer
	Now   string // the facility's current time, the inputs' minimum
}

// homePage is GET / (exactly): a welcome, the services with their lowest daily
// price, and a quick quote form that opens /booking with the dates filled in.
func (s publicPages) homePage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "home.html", "title.home", homeView{
		Offer: s.publicOffer(s.words(r)), Now: s.inputTime(s.now()),
	})
}

// bookingView is the data of booking.html.
type bookingView struct {
	Offer      offer
	Now        string
	Entry      string // prefilled from ?entrada (datetime-local), "" if absent or unreadable
	Exit       string // from ?salida
	DateNotice string // why a query date was ignored
	// A logged-in customer's details, to prefill step 2, and their vehicles.
	FullName, Phone, Email string
	Vehicles               []reservation.Vehicle
	Customer               bool
	Arrival                arrivalView // the confirmation's "how to arrive" (arrival.go)
}

// bookingPage is GET /booking (docs/web-pages.md): the 3-step flow. The optional
// query parameters entrada and salida prefill the dates; a logged-in customer's
// name, phone and email prefill step 2, and their vehicles can be picked.
func (s publicPages) bookingPage(w http.ResponseWriter, r *http.Request) {
	v := bookingView{Offer: s.publicOffer(s.words(r)), Now: s.inputTime(s.now()), Arrival: s.arrivalOf(r.Context(), s.Lang(r))}
	var okEntry, okExit bool
	v.Entry, okEntry = s.queryTime(r, "entrada")
	v.Exit, okExit = s.queryTime(r, "salida")
	if !okEntry || !okExit {
		v.DateNotice = s.T(r, "msg.bad_date_link")
	}
	if u, ok := s.CurrentUser(r); ok && !u.IsAdmin() {
		v.Customer = true
		v.FullName, v.Phone, v.Email = u.Nombre, u.Numero, u.Email
		// The vehicles are a convenience: if they cannot be read the page still works.
		if vehicles, err := s.booking.CustomerVehicles(r.Context(), u.ID); err == nil {
			v.Vehicles = vehicles
		} else {
			s.log.WarnContext(r.Context(), "booking page: customer vehicles not read", "err", err)
		}
	}
	s.render(w, r, http.StatusOK, "booking.html", "title.booking", v)
}
