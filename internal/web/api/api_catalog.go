package api

import (
	"net/http"

	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/web/httpx"
)

type CatalogJSON struct {
	MainServices       []MainServiceJSON `json:"main_services"`
	AdditionalServices []ExtraJSON       `json:"additional_services"`
	VehicleTypes       []VehicleTypeJSON `json:"vehicle_types"`
	Rates              []RateJSON        `json:"rates"`
}

type MainServiceJSON struct {
	ID          int64  `json:"id_main_service"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Active      bool   `json:"active"`
}

type ExtraJSON struct {
	ID     int64       `json:"id"`
	Name   string      `json:"name"`
	Price  money.Cents `json:"price"`
	Active bool        `json:"active"`
}

type VehicleTypeJSON struct {
	Type        string           `json:"type"`
	Coefficient money.Multiplier `json:"coefficient"`
}

type RateJSON struct {
	ID          int64       `json:"id_rate"`
	MainService int64       `json:"id_main_service"`
	MinDays     int64       `json:"min_days"`
	MaxDays     int64       `json:"max_days"`
	DailyPrice  money.Cents `json:"daily_price"`
}

// CatalogView renders a catalog for the wire; all=false keeps only what customers
// are offered: active main services and their rates, active extras (docs/pricing.md#catalog).
func CatalogView(c pricing.Catalog, all bool) CatalogJSON {
	out := CatalogJSON{
		MainServices: []MainServiceJSON{}, AdditionalServices: []ExtraJSON{},
		VehicleTypes: []VehicleTypeJSON{}, Rates: []RateJSON{},
	}
	offered := map[int64]bool{}
	for _, m := range c.MainServices {
		if all || m.Active {
			offered[m.ID] = true
			out.MainServices = append(out.MainServices, MainServiceJSON{ID: m.ID, Name: m.Name, Description: m.Description, Active: m.Active})
		}
	}
	for _, r := range c.Rates {
		if offered[r.MainService] {
			out.Rates = append(out.Rates, RateJSON{ID: r.ID, MainService: r.MainService, MinDays: r.MinDays, MaxDays: r.MaxDays, DailyPrice: r.DailyPrice})
		}
	}
	for _, e := range c.Extras {
		if all || e.Active {
			out.AdditionalServices = append(out.AdditionalServices, ExtraJSON{ID: e.ID, Name: e.Name, Price: e.Price, Active: e.Active})
		}
	}
	for _, k := range c.Coefficients {
		out.VehicleTypes = append(out.VehicleTypes, VehicleTypeJSON{Type: k.VehicleType, Coefficient: k.Multiplier})
	}
	return out
}

// apiCatalog is GET /api/catalog (docs/pricing.md#catalog): the public sees what is offered;
// an administrator (session or token) sees everything.
func (s *Server) apiCatalog(w http.ResponseWriter, r *http.Request) {
	snap := s.catalog.Load()
	if snap == nil {
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"success": false, "message": s.Words(r, MsgCatalogNotLoaded)})

		return
	}
	httpx.WriteJSON(w, http.StatusOK, CatalogView(snap.Catalog(), s.ViewerIsAdmin(r)))
}

// MsgCatalogNotLoaded is the catalogue key of the 503 of a route that needs the
// catalog before it is loaded.
const MsgCatalogNotLoaded = "err.api.catalog_not_loaded"
