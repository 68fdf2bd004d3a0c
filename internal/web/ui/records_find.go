package ui

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// adminFind is GET /admin/find?q= (docs/admin.md#find): the search box of every
// staff page. A reference, a plate or a phone in any form, or an id, that names one
// active reservation (or else exactly one) opens it (303 to its detail page);
// anything else is the history search for q (303).
func (s recordsPages) adminFind(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	id, ok, err := s.records.Find(r.Context(), q)
	if err != nil {
		s.renderError(w, r, err, "error.unavailable", "/admin/dashboard", "back.dashboard")
		return
	}
	if ok {
		httpx.SeeOther(w, r, "/admin/reservations/details/"+strconv.FormatInt(id, 10))
		return
	}
	target := "/admin/history"
	if q != "" {
		target += "?search=" + url.QueryEscape(q)
	}
	httpx.SeeOther(w, r, target)
}

// shortLink is GET /r/{reference}, the address a booking's QR code holds
// (docs/gate.md#the-qr-code): staff are sent to the reservation, everyone else to
// the manage-my-booking form with the reference filled in — the same answer
// whether or not the reference exists.
func (s recordsPages) shortLink(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("reference")
	ref, valid := input.ReferenceLookup(raw)
	if u, ok := s.CurrentUser(r); ok && u.IsAdmin() {
		if valid {
			id, found, err := s.records.ByReference(r.Context(), ref)
			if err != nil {
				s.renderError(w, r, err, "error.unavailable", "/admin/dashboard", "back.dashboard")
				return
			}
			if found {
				httpx.SeeOther(w, r, "/admin/reservations/details/"+strconv.FormatInt(id, 10))
				return
			}
		}
		httpx.SeeOther(w, r, "/admin/find?q="+url.QueryEscape(raw))
		return
	}
	if !valid { // not a reference's form: nothing to fill in
		httpx.SeeOther(w, r, "/reserva")
		return
	}
	httpx.SeeOther(w, r, "/reserva?reference="+url.QueryEscape(reservation.ShowReference(ref)))
}
