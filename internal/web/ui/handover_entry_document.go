package ui

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"parking/internal/localtime"
	"parking/internal/receipt"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// The vehicle's entry document (docs/entry-document.md): GET
// /admin/reservations/details/{id}/justificante for staff, GET
// /users/profile/reservation/{id}/justificante for the owner (the receipt's
// ownership check: 403 otherwise) and GET /reserva/{reference}/justificante?t=…
// with the manage link's token. Each answers as a printable page, as JSON (Accept:
// application/json) and as a PDF (?format=pdf); handover.EntryDocument builds it
// for all three. Before the start: 400 naming the state.

// entryDocumentJSON is the entry document as JSON.
type entryDocumentJSON struct {
	Facility       entryFacilityJSON `json:"facility"`
	Reference      string            `json:"reference"`
	LicensePlate   string            `json:"license_plate"`
	Brand          string            `json:"brand"`
	Model          string            `json:"model"`
	Color          string            `json:"color"`
	EntryAt        string            `json:"entry_at"`
	KeysHandedOver bool              `json:"keys_handed_over"`
	Spot           *string           `json:"spot"`
	ExitDate       *string           `json:"exit_date"`
	ConditionsURL  string            `json:"conditions_url"`
}

type entryFacilityJSON struct {
	partyJSON
	Phone string `json:"phone"`
}

// entryDocumentView is the data of entry_document.html.
type entryDocumentView struct {
	Doc       receipt.Entry
	Facts     []receipt.Fact
	BackHref  string
	BackLabel string
	PDFHref   string
}

// serveEntryDocument answers with d's entry document in the format asked; base
// is the route (with the manage link's query, if any), back where the page leads.
func (s handoverPages) serveEntryDocument(w http.ResponseWriter, r *http.Request, d records.Detail, base, back, backLabel string) {
	doc, err := s.handover.EntryDocument(r.Context(), d)
	if err != nil {
		s.entryDocumentRefused(w, r, err, back, backLabel)
		return
	}
	doc.ConditionsURL = strings.TrimRight(s.cfg.BaseURL, "/") + "/condiciones"
	w.Header().Set("Cache-Control", "no-store")
	switch {
	case r.URL.Query().Get("format") == "pdf":
		pdf, err := receipt.EntryPDF(doc, s.cfg.Location)
		if err != nil {
			s.entryDocumentRefused(w, r, err, back, backLabel)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/pdf")
		h.Set("Content-Disposition", `inline; filename="justificante-`+strings.ReplaceAll(doc.Reference, "-", "")+`.pdf"`)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(pdf)
	case httpx.WantsJSON(r):
		out := entryDocumentJSON{
			Facility:  entryFacilityJSON{partyJSON{Name: doc.Facility.Name, TaxID: doc.Facility.TaxID, Address: doc.Facility.Address}, doc.Phone},
			Reference: doc.Reference, LicensePlate: doc.Plate, Brand: doc.Brand, Model: doc.Model, Color: doc.Color,
			EntryAt: localtime.JSON(doc.EntryAt, s.cfg.Location), KeysHandedOver: doc.KeysHandedOver, ExitDate: s.adminTime(doc.Exit),
			ConditionsURL: doc.ConditionsURL,
		}
		if doc.Spot != "" {
			out.Spot = &doc.Spot
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	default:
		q := url.Values{"format": {"pdf"}}
		path, query, _ := strings.Cut(base, "?")
		if query != "" {
			q, _ = url.ParseQuery(query)
			q.Set("format", "pdf")
		}
		v := entryDocumentView{Doc: doc, Facts: doc.Facts(s.cfg.Location), BackHref: back, BackLabel: backLabel, PDFHref: path + "?" + q.Encode()}
		s.render(w, r, http.StatusOK, "entry_document.html", s.T(r, "title.entry_document", "Reference", doc.Reference), v)
	}
}

// entryDocumentRefused answers a refusal as JSON or as the error page.
func (s handoverPages) entryDocumentRefused(w http.ResponseWriter, r *http.Request, err error, back, backLabel string) {
	if httpx.WantsJSON(r) {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	s.renderError(w, r, err, "error.entry_document_unavailable", back, backLabel)
}

// adminEntryDocument is GET /admin/reservations/details/{id}/justificante.
func (s handoverPages) adminEntryDocument(w http.ResponseWriter, r *http.Request) {
	s.withAdminDetail(w, r, "error.entry_document_unavailable", func(d records.Detail, back string) {
		s.serveEntryDocument(w, r, d, back+"/justificante", back, "back.reservation")
	})
}

// customerEntryDocument is GET /users/profile/reservation/{id}/justificante: the
// owner's entry document; another customer's reservation, or a missing one, is
// 403 without saying which (as the receipt).
func (s handoverPages) customerEntryDocument(w http.ResponseWriter, r *http.Request) {
	d, err := s.ownReservation(r)
	if err != nil {
		s.entryDocumentRefused(w, r, err, "/users/profile", "back.account")
		return
	}
	s.serveEntryDocument(w, r, d, "/users/profile/reservation/"+strconv.FormatInt(d.Reservation.ID, 10)+"/justificante", "/users/profile", "back.account")
}

// manageEntryDocument is GET /reserva/{reference}/justificante?t=…: the entry
// document through the manage link (a bad or expired token: 404, as the other
// /reserva routes).
func (s handoverPages) manageEntryDocument(w http.ResponseWriter, r *http.Request) {
	token := api.ManageToken(r)
	m, err := s.booking.ManagedBooking(r.Context(), r.PathValue("reference"), token)
	if err != nil {
		s.entryDocumentRefused(w, r, err, "/reserva", "back.find")
		return
	}
	res := m.Detail.Reservation
	base := "/reserva/" + reservation.ShowReference(res.Reference) + "/justificante?" + url.Values{"t": {token}}.Encode()
	s.serveEntryDocument(w, r, m.Detail, base, managePath(res, token, ""), "back.reservation")
}
