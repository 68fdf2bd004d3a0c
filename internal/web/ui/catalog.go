package ui

import (
	"net/http"
	"net/url"
	"strings"

	"parking/internal/catalog"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// Catalog administration (docs/pricing.md#catalog), JSON or form bodies. Creation answers 201,
// a change 200, both {success:true, message, <item>}; refusals {success:false,
// message} with 400 (invalid), 404 (unknown item) or 409 (name taken, overlapping
// rate band). Every change swaps the pricing snapshot: the next quote uses it.
// Stored reservations keep their price.

// catalogPages are the catalog's and the facility settings' pages and posts
// (docs/pricing.md#catalog, docs/settings.md), for administrators only.
type catalogPages struct{ *base }

func (s catalogPages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/catalog", s.adminCatalog)
	admin("POST /admin/catalog/main-services", s.adminCreateMainService)
	admin("POST /admin/catalog/main-services/{id}", s.adminUpdateMainService)
	admin("PATCH /admin/catalog/main-services/{id}", s.adminUpdateMainService)
	admin("POST /admin/catalog/rates", s.adminCreateRate)
	admin("POST /admin/catalog/rates/{id}", s.adminUpdateRate)
	admin("PATCH /admin/catalog/rates/{id}", s.adminUpdateRate)
	admin("DELETE /admin/catalog/rates/{id}", s.adminDeleteRate)
	admin("POST /admin/catalog/rates/{id}/delete", s.adminDeleteRate)
	admin("POST /admin/catalog/vehicle-types", s.adminCreateVehicleType)
	admin("POST /admin/catalog/vehicle-types/{type}", s.adminUpdateVehicleType)
	admin("PATCH /admin/catalog/vehicle-types/{type}", s.adminUpdateVehicleType)
	admin("POST /admin/catalog/additional-services", s.adminCreateExtra)
	admin("POST /admin/catalog/additional-services/{id}", s.adminUpdateExtra)
	admin("PATCH /admin/catalog/additional-services/{id}", s.adminUpdateExtra)
	// Facility settings (docs/settings.md): places, identity, VAT, photo retention.
	admin("GET /admin/settings", s.adminSettings)
	admin("POST /admin/settings", s.adminSaveSettings)
	admin("PATCH /admin/settings", s.adminSaveSettings)
}

// adminCatalog is GET /admin/catalog: everything, inactive entries included; the
// catalog page for browsers.
func (s catalogPages) adminCatalog(w http.ResponseWriter, r *http.Request) {
	snap := s.catalog.Load()
	if snap == nil {
		err := fault.New(fault.Internal, "catalog not loaded")
		if !httpx.WantsJSON(r) {
			s.renderError(w, r, err, "error.catalog_unavailable", "/admin/dashboard", "back.dashboard")
			return
		}
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"success": false, "message": s.Words(r, api.MsgCatalogNotLoaded)})
		return
	}
	if !httpx.WantsJSON(r) {
		s.renderCatalogPage(w, r, snap.Catalog())
		return
	}
	httpx.WriteJSON(w, http.StatusOK, api.CatalogView(snap.Catalog(), true))
}

// catalogBack answers a browser's form post on the catalog (no script): 303 back
// to the catalog page, at the section changed, with the outcome to show (message:
// its catalogue key) in the page's language.
func catalogBack(w http.ResponseWriter, r *http.Request, section, message string, err error) {
	lang := httpx.LangOf(r)
	q := "ok=" + url.QueryEscape(i18n.T(lang, message))
	if err != nil {
		q = "error=" + url.QueryEscape(humanize(lang, fault.MessageIn(err, lang, "error.internal")))
	}
	httpx.SeeOther(w, r, "/admin/catalog?"+q+"#"+section)
}

// catalogID reads a numeric {id} path value; anything else names nothing (404).
func catalogID(r *http.Request, what string) (int64, error) {
	return httpx.PathID(r, "id", what)
}

// catalogWrite decodes the body, runs do, and answers status with the item and
// message (a catalogue key) in the reader's language (a
// browser's form post: 303 back to the catalog page).
func (s catalogPages) catalogWrite(w http.ResponseWriter, r *http.Request, status int, key, message string,
	do func(in httpx.Input) (any, error)) {
	page := httpx.BrowserForm(r)
	in, err := httpx.ReadInput(w, r)
	var item any
	if err == nil {
		item, err = do(in)
	}
	switch {
	case page:
		if err != nil {
			s.FailureStatus(r, err)
		}
		catalogBack(w, r, catalogSections[key], message, err)
	case err != nil:
		s.WriteSuccessFalse(w, r, err)
	default:
		httpx.WriteJSON(w, status, map[string]any{"success": true, "message": s.Words(r, message), key: item})

	}
}

// catalogSections are the catalog page's section anchors by item key.
var catalogSections = map[string]string{
	"main_service": "servicios", "rate": "servicios", "vehicle_type": "tipos", "additional_service": "extras",
}

func mainServiceInput(in httpx.Input) (catalog.MainServiceInput, error) {
	active, err := in.OptBool("active")
	return catalog.MainServiceInput{Name: in.Opt("name"), Description: in.Opt("description"), Active: active}, err
}

func mainServiceView(m pricing.MainService) api.MainServiceJSON {
	return api.MainServiceJSON{ID: m.ID, Name: m.Name, Description: m.Description, Active: m.Active}
}

// adminCreateMainService is POST /admin/catalog/main-services {name, description, active}.
func (s catalogPages) adminCreateMainService(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusCreated, "main_service", "err.ui.main_service_created", func(in httpx.Input) (any, error) {
		mi, err := mainServiceInput(in)
		if err != nil {
			return nil, err
		}
		m, err := s.catalogOps.CreateMainService(r.Context(), mi)
		return mainServiceView(m), err
	})
}

// adminUpdateMainService is POST or PATCH /admin/catalog/main-services/{id}.
func (s catalogPages) adminUpdateMainService(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusOK, "main_service", "err.ui.main_service_updated", func(in httpx.Input) (any, error) {
		id, err := catalogID(r, httpx.PathService)
		if err != nil {
			return nil, err
		}
		mi, err := mainServiceInput(in)
		if err != nil {
			return nil, err
		}
		m, err := s.catalogOps.UpdateMainService(r.Context(), id, mi)
		return mainServiceView(m), err
	})
}

func rateInput(in httpx.Input) (catalog.RateInput, error) {
	var ri catalog.RateInput
	var err error
	if ri.MainService, err = in.OptInt("id_main_service"); err != nil {
		return ri, err
	}
	if ri.MinDays, err = in.OptInt("min_days"); err != nil {
		return ri, err
	}
	if ri.MaxDays, err = in.OptInt("max_days"); err != nil {
		return ri, err
	}
	ri.DailyPrice, err = in.OptCents("daily_price")
	return ri, err
}

func rateView(r pricing.Rate) api.RateJSON {
	return api.RateJSON{ID: r.ID, MainService: r.MainService, MinDays: r.MinDays, MaxDays: r.MaxDays, DailyPrice: r.DailyPrice}
}

// adminCreateRate is POST /admin/catalog/rates {id_main_service, min_days, max_days, daily_price}.
func (s catalogPages) adminCreateRate(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusCreated, "rate", "err.ui.rate_created", func(in httpx.Input) (any, error) {
		ri, err := rateInput(in)
		if err != nil {
			return nil, err
		}
		rate, err := s.catalogOps.CreateRate(r.Context(), ri)
		return rateView(rate), err
	})
}

// adminUpdateRate is POST or PATCH /admin/catalog/rates/{id}.
func (s catalogPages) adminUpdateRate(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusOK, "rate", "err.ui.rate_updated", func(in httpx.Input) (any, error) {
		id, err := catalogID(r, httpx.PathRate)
		if err != nil {
			return nil, err
		}
		ri, err := rateInput(in)
		if err != nil {
			return nil, err
		}
		rate, err := s.catalogOps.UpdateRate(r.Context(), id, ri)
		return rateView(rate), err
	})
}

// adminDeleteRate is DELETE /admin/catalog/rates/{id} (and POST …/{id}/delete for forms).
func (s catalogPages) adminDeleteRate(w http.ResponseWriter, r *http.Request) {
	id, err := catalogID(r, httpx.PathRate)
	if err == nil {
		err = s.catalogOps.DeleteRate(r.Context(), id)
	}
	if httpx.BrowserForm(r) {
		if err != nil {
			s.FailureStatus(r, err)
		}
		catalogBack(w, r, "servicios", "js.admin.rate_deleted", err)
		return
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.Words(r, "js.admin.rate_deleted")})
}

func coefficientInput(in httpx.Input) (money.Multiplier, error) {
	raw := strings.TrimSpace(in.Str("coefficient"))
	if raw == "" {
		return 0, fault.Coded(fault.Invalid, "err.ui.coefficient_required")
	}
	if strings.Count(raw, ",") == 1 && !strings.Contains(raw, ".") { // "1,25" from the catalog page
		raw = strings.Replace(raw, ",", ".", 1)
	}
	m, err := money.ParseMultiplier(raw)
	if err != nil {
		return 0, fault.Coded(fault.Invalid, "err.ui.coefficient_format", "Value", raw)
	}
	return m, nil
}

// adminCreateVehicleType is POST /admin/catalog/vehicle-types {vehicle_type, coefficient}.
func (s catalogPages) adminCreateVehicleType(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusCreated, "vehicle_type", "err.ui.vehicle_type_created", func(in httpx.Input) (any, error) {
		m, err := coefficientInput(in)
		if err != nil {
			return nil, err
		}
		k, err := s.catalogOps.CreateCoefficient(r.Context(), in.Str(in.First("vehicle_type", "type")), m)
		return api.VehicleTypeJSON{Type: k.VehicleType, Coefficient: k.Multiplier}, err
	})
}

// adminUpdateVehicleType is POST or PATCH /admin/catalog/vehicle-types/{type} {coefficient}.
func (s catalogPages) adminUpdateVehicleType(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusOK, "vehicle_type", "err.ui.coefficient_updated", func(in httpx.Input) (any, error) {
		m, err := coefficientInput(in)
		if err != nil {
			return nil, err
		}
		k, err := s.catalogOps.UpdateCoefficient(r.Context(), r.PathValue("type"), m)
		return api.VehicleTypeJSON{Type: k.VehicleType, Coefficient: k.Multiplier}, err
	})
}

func extraInput(in httpx.Input) (catalog.ExtraInput, error) {
	ei := catalog.ExtraInput{Name: in.Opt("name")}
	var err error
	if ei.Price, err = in.OptCents("price"); err != nil {
		return ei, err
	}
	ei.Active, err = in.OptBool("active")
	return ei, err
}

func extraView(e pricing.Extra) api.ExtraJSON {
	return api.ExtraJSON{ID: e.ID, Name: e.Name, Price: e.Price, Active: e.Active}
}

// adminCreateExtra is POST /admin/catalog/additional-services {name, price, active}.
func (s catalogPages) adminCreateExtra(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusCreated, "additional_service", "err.ui.extra_created", func(in httpx.Input) (any, error) {
		ei, err := extraInput(in)
		if err != nil {
			return nil, err
		}
		e, err := s.catalogOps.CreateExtra(r.Context(), ei)
		return extraView(e), err
	})
}

// adminUpdateExtra is POST or PATCH /admin/catalog/additional-services/{id}.
func (s catalogPages) adminUpdateExtra(w http.ResponseWriter, r *http.Request) {
	s.catalogWrite(w, r, http.StatusOK, "additional_service", "err.ui.extra_updated", func(in httpx.Input) (any, error) {
		id, err := catalogID(r, httpx.PathExtra)
		if err != nil {
			return nil, err
		}
		ei, err := extraInput(in)
		if err != nil {
			return nil, err
		}
		e, err := s.catalogOps.UpdateExtra(r.Context(), id, ei)
		return extraView(e), err
	})
}
