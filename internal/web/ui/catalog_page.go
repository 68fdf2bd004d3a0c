package ui

import (
	"net/http"
	"strings"

	"parking/internal/catalog"
	"parking/internal/money"
	"parking/internal/pricing"
)

// The catalog page, GET /admin/catalog for browsers (docs/pricing.md#catalog: "pages under
// /admin/catalog"): main services with their rate bands, vehicle-type
// coefficients and additional services, each row a small form. static/admin.js
// sends each form to the catalog's JSON routes and shows the outcome, or the
// refusal, next to the row; without JavaScript the forms post themselves and the
// page comes back with the message (catalogBack).

// catalogPageView is the data of admin_catalog.html.
type catalogPageView struct {
	Notice, Error string
	Services      []catalogServiceView
	Types         []catalogTypeView
	Extras        []catalogExtraView
}

type catalogServiceView struct {
	ID          int64
	Name        string
	Description string
	Active      bool
	Rates       []catalogRateView
	NextMin     int64 // the first day after the last band, for the new band's form
}

type catalogRateView struct {
	ID               int64
	MinDays, MaxDays int64
	DailyPrice       string // "12,50"
	Days             string // "1–3 días"
}

type catalogTypeView struct {
	Type, Label, Coefficient string
}

type catalogExtraView struct {
	ID     int64
	Name   string
	Price  string
	Active bool
}

// amountInput writes cents for an input the Spanish way: 1250 → "12,50".
func amountInput(c money.Cents) string { return strings.Replace(c.String(), ".", ",", 1) }

func (s catalogPages) renderCatalogPage(w http.ResponseWriter, r *http.Request, c pricing.Catalog) {
	wd := s.words(r)
	q := r.URL.Query()
	v := catalogPageView{Notice: q.Get("ok"), Error: q.Get("error")}
	byService := map[int64]int{}
	for _, m := range c.MainServices {
		byService[m.ID] = len(v.Services)
		v.Services = append(v.Services, catalogServiceView{ID: m.ID, Name: m.Name, Description: m.Description, Active: m.Active, NextMin: 1})
	}
	for _, rt := range c.Rates {
		i, ok := byService[rt.MainService]
		if !ok {
			continue
		}
		sv := &v.Services[i]
		sv.Rates = append(sv.Rates, catalogRateView{ID: rt.ID, MinDays: rt.MinDays, MaxDays: rt.MaxDays,
			DailyPrice: amountInput(rt.DailyPrice), Days: wd.band(rt)})
		sv.NextMin = max(sv.NextMin, rt.MaxDays+1)
	}
	for i := range v.Services {
		if v.Services[i].NextMin > catalog.MaxBandDays {
			v.Services[i].NextMin = 0 // the bands reach the limit: nothing to suggest
		}
	}
	for _, k := range c.Coefficients {
		v.Types = append(v.Types, catalogTypeView{Type: k.VehicleType, Label: wd.vehicleType(k.VehicleType),
			Coefficient: strings.Replace(k.Multiplier.String(), ".", ",", 1)})
	}
	for _, e := range c.Extras {
		v.Extras = append(v.Extras, catalogExtraView{ID: e.ID, Name: e.Name, Price: amountInput(e.Price), Active: e.Active})
	}
	s.render(w, r, http.StatusOK, "admin_catalog.html", "title.catalog", v)
}
