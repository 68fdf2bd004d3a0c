package ui

import (
	"net/http"
	"strconv"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/settings"
	"parking/internal/web/httpx"
)

// The facility settings (docs/settings.md): GET /admin/settings shows them (a page, or
// {"success":true,"settings":{…}} to a JSON client); POST or PATCH changes the
// fields sent, the rest keep their value. A browser's form post comes back to the
// page (303) with the outcome; a JSON client gets 200 with the stored settings or
// 400 {"success":false,"message"}.

// settingsView is the wire form of settings.Facility.
type settingsView struct {
	Capacity           int     `json:"capacity"`
	Sellable           int     `json:"sellable"`
	SellableLimit      int     `json:"sellable_limit"`
	Name               string  `json:"name"`
	TaxID              string  `json:"tax_id"`
	Address            string  `json:"address"`
	Phone              string  `json:"phone"`
	Email              string  `json:"email"`
	VATRate            float64 `json:"vat_rate"`
	PhotoRetentionDays int     `json:"photo_retention_days"`
	ChargeOverstay     bool    `json:"charge_overstay"`
	ExitGraceMinutes   int     `json:"exit_grace_minutes"`
	// The arrival instructions in each language (docs/settings.md#arrival-instructions).
	ArrivalES string `json:"arrival_es"`
	ArrivalEN string `json:"arrival_en"`
	ArrivalDE string `json:"arrival_de"`
	ArrivalFR string `json:"arrival_fr"`
}

func newSettingsView(f settings.Facility) settingsView {
	return settingsView{Capacity: f.Capacity, Sellable: f.Sellable, SellableLimit: f.SellableLimit(), Name: f.Name,
		TaxID: f.TaxID, Address: f.Address, Phone: f.Phone, Email: f.Email, VATRate: f.VATPercent(),
		PhotoRetentionDays: f.PhotoRetentionDays, ChargeOverstay: f.ChargeOverstay, ExitGraceMinutes: f.ExitGraceMinutes,
		ArrivalES: f.Arrival.ES, ArrivalEN: f.Arrival.EN, ArrivalDE: f.Arrival.DE, ArrivalFR: f.Arrival.FR}
}

// settingsPageView is the data of admin_settings.html.
type settingsPageView struct {
	Notice, Error string
	S             settingsView
	VAT           string // "21" or "10,5", as typed on the page
}

func (s catalogPages) adminSettings(w http.ResponseWriter, r *http.Request) {
	f, err := s.catalogOps.Facility(r.Context())
	if !httpx.WantsJSON(r) {
		if err != nil {
			s.renderError(w, r, err, "error.settings_unavailable", "/admin/dashboard", "back.dashboard")
			return
		}
		q := r.URL.Query()
		v := settingsPageView{Notice: q.Get("ok"), Error: q.Get("error"), S: newSettingsView(f),
			VAT: spanishPercent(f.VATBasisPoints)}
		s.render(w, r, http.StatusOK, "admin_settings.html", "title.settings", v)
		return
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "settings": newSettingsView(f)})
}

func (s catalogPages) adminSaveSettings(w http.ResponseWriter, r *http.Request) {
	page := httpx.BrowserForm(r)
	saved, err := s.saveSettings(w, r)
	switch {
	case page:
		s.backToPage(w, r, "/admin/settings", s.T(r, "msg.settings_saved"), err)
	case err != nil:
		s.WriteSuccessFalse(w, r, err)
	default:
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, "msg.settings_saved"), "settings": newSettingsView(saved)})
	}
}

// saveSettings reads the fields sent over the current settings and saves them.
func (s catalogPages) saveSettings(w http.ResponseWriter, r *http.Request) (settings.Facility, error) {
	in, err := httpx.ReadInput(w, r)
	if err == nil {
		err = in.RequireBody()
	}
	if err != nil {
		return settings.Facility{}, err
	}
	f, err := s.catalogOps.Facility(r.Context())
	if err != nil {
		return f, err
	}
	for name, dst := range map[string]*int{"capacity": &f.Capacity, "sellable": &f.Sellable, "photo_retention_days": &f.PhotoRetentionDays,
		"exit_grace_minutes": &f.ExitGraceMinutes} {
		v, err := in.OptInt(name)
		if err != nil {
			return f, err
		}
		if v != nil {
			if *v < 0 || *v > settings.MaxPlaces*10 {
				return f, fault.Coded(fault.Invalid, "err.ui.out_of_range", "Field", i18n.FieldName(name))

			}
			*dst = int(*v)
		}
	}
	for name, dst := range map[string]*string{"name": &f.Name, "tax_id": &f.TaxID, "address": &f.Address, "phone": &f.Phone, "email": &f.Email} {
		if in.Has(name) {
			*dst = in.Str(name)
		}
	}
	for _, name := range settings.ArrivalFields {
		if in.Has(name) {
			*f.Arrival.Field(name) = in.Str(name)
		}
	}
	// docs/exit.md#overstay; the page sends a hidden "false" before its checkbox.
	if b, err := in.OptBool("charge_overstay"); err != nil {
		return f, err
	} else if b != nil {
		f.ChargeOverstay = *b
	}
	if in.Has("vat_rate") {
		if f.VATBasisPoints, err = settings.ParsePercent("vat_rate", in.Str("vat_rate")); err != nil {
			return f, err
		}
	}
	return s.catalogOps.SaveFacility(r.Context(), f)
}

// spanishPercent writes basis points as a percentage the Spanish way: 2100 → "21",
// 1050 → "10,5".
func spanishPercent(bp int) string {
	s := strconv.Itoa(bp / 100)
	if frac := bp % 100; frac != 0 {
		f := strconv.Itoa(100 + frac)[1:]
		if f[1] == '0' {
			f = f[:1]
		}
		s += "," + f
	}
	return s
}
