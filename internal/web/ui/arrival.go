package ui

import (
	"context"
	"html/template"
	"net/http"
	"strings"

	"parking/internal/arrival"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/settings"
)

// What a customer needs to arrive (docs/manage-booking.md#arrival): the facility's
// name, address, phone, a map link and the arrival instructions in the page's
// language, shown by the booking confirmation and the manage page, and the
// booking's QR code (GET /r/{reference}/qr.png).

type arrivalPages struct{ *base }

func (s arrivalPages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /r/{reference}/qr.png", s.qrCode)
}

// qrCode is GET /r/{reference}/qr.png: the PNG of the QR code that carries
// {PARKING_BASE_URL}/r/{reference}. It reads nothing stored, so it says nothing
// about whether the reference exists; a malformed reference is a 404.
func (s arrivalPages) qrCode(w http.ResponseWriter, r *http.Request) {
	ref, err := input.Reference("reference", r.PathValue("reference"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	png, err := arrival.QRPNG(s.cfg.BaseURL, ref)
	if err != nil {
		s.log.ErrorContext(r.Context(), "QR code", "err", err)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(png)
}

// arrivalView is the facility as a customer about to arrive reads it.
type arrivalView struct {
	Name, Address, Phone string
	PhoneHref            template.URL // tel: the phone's digits
	MapURL               string
	Instructions         string // in the page's language, else Spanish; "" when none is set
}

// arrivalOf is the facility from the settings' copy (at most a second old) in
// lang; a facility whose settings cannot be read is named by the service's own
// name only.
func (s *base) arrivalOf(ctx context.Context, lang string) arrivalView {
	f, err := s.catalogOps.CachedFacility(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "facility settings for the arrival", "err", err)
		return arrivalView{Name: settings.DefaultName}
	}
	return arrivalView{Name: f.DisplayName(), Address: f.Address, Phone: f.Phone, PhoneHref: telHref(f.Phone), MapURL: f.MapURL(), Instructions: f.Arrival.In(lang)}
}

// brand is the car park's name for the layout: the settings' name (from their
// copy, at most a second old), else the service's own in lang.
func (s *base) brand(ctx context.Context, lang string) string {
	if f, err := s.catalogOps.CachedFacility(ctx); err == nil {
		if n := strings.TrimSpace(f.Name); n != "" {
			return n
		}
	}
	return i18n.T(lang, "layout.parking_aeropuerto")
}
