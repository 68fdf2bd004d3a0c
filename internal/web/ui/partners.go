package ui

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"parking/internal/booking"
	"parking/internal/input"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// Partners (docs/partners.md#for-staff): GET /admin/partners lists them (page;
// JSON by Accept); the posts create and change one, make and revoke its keys; the
// statement is a page, JSON or CSV. Browsers' form posts answer 303 back to the
// page with ?ok= or ?error=; JSON clients get the contract's bodies.
type partnerPages struct{ *base }

func (s partnerPages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/partners", s.list)
	admin("POST /admin/partners", s.create)
	admin("PUT /admin/partners/{id}", s.update)
	admin("POST /admin/partners/{id}", s.update) // the page's form
	admin("POST /admin/partners/{id}/keys", s.newKey)
	admin("DELETE /admin/partners/{id}/keys/{key_id}", s.revokeKey)
	admin("POST /admin/partners/{id}/keys/{key_id}/revoke", s.revokeKey) // the page's form
	admin("GET /admin/partners/{id}/statement", s.statement)
}

func (s partnerPages) ops() *booking.Partners { return booking.NewPartners(s.booking) }

// partnerJSON is a partner on the wire.
type partnerJSON struct {
	ID                int64       `json:"id"`
	Name              string      `json:"name"`
	CommissionPercent json.Number `json:"commission_percent"`
	Allotment         *int        `json:"allotment"`
	Active            bool        `json:"active"`
	Channel           string      `json:"channel"`
}

func partnerView(p reservation.Partner) partnerJSON {
	return partnerJSON{ID: p.ID, Name: p.Name, CommissionPercent: json.Number(input.PercentText(p.CommissionBP)),
		Allotment: p.Allotment, Active: p.Active, Channel: reservation.PartnerChannel(p.ID)}
}

// partnerKeyJSON is a key as listed: never the key itself.
type partnerKeyJSON struct {
	ID         int64   `json:"id"`
	Prefix     string  `json:"prefix"`
	CreatedAt  string  `json:"created_at"`
	LastUsedAt *string `json:"last_used_at"`
	RevokedAt  *string `json:"revoked_at"`
}

// partnersPageView is the data of admin_partners.html.
type partnersPageView struct {
	Notice, Error string
	NewKey        string // a key just made, shown this once
	Partners      []booking.PartnerRecord
}

// list is GET /admin/partners.
func (s partnerPages) list(w http.ResponseWriter, r *http.Request) {
	list, err := s.ops().List(r.Context())
	var recs []booking.PartnerRecord
	for _, p := range list {
		if err != nil {
			break
		}
		var rec booking.PartnerRecord
		rec, err = s.ops().Get(r.Context(), p.ID)
		recs = append(recs, rec)
	}
	if err != nil {
		s.listUnavailable(w, r, err, "error.staff_unavailable")
		return
	}
	if httpx.WantsJSON(r) {
		items := make([]map[string]any, len(recs))
		for i, rec := range recs {
			keys := make([]partnerKeyJSON, len(rec.Keys))
			for j, k := range rec.Keys {
				keys[j] = partnerKeyJSON{ID: k.ID, Prefix: k.Prefix, CreatedAt: localtime.JSON(k.CreatedAt, s.cfg.Location),
					LastUsedAt: s.optJSON(k.LastUsedAt), RevokedAt: s.optJSON(k.RevokedAt)}
			}
			items[i] = map[string]any{"partner": partnerView(rec.Partner), "keys": keys}
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"partners": items})
		return
	}
	q := r.URL.Query()
	s.render(w, r, http.StatusOK, "admin_partners.html", "title.partners",
		partnersPageView{Notice: q.Get("ok"), Error: q.Get("error"), NewKey: q.Get("key"), Partners: recs})
}

func (s partnerPages) optJSON(t *time.Time) *string {
	if t == nil {
		return nil
	}
	v := localtime.JSON(*t, s.cfg.Location)
	return &v
}

// readPartner reads a partner's fields (JSON or form): commission_percent as a
// number or text, allotment a whole number or null/blank, active (default true).
func readPartner(w http.ResponseWriter, r *http.Request) (booking.PartnerInput, error) {
	in, err := httpx.ReadInput(w, r)
	if err != nil {
		return booking.PartnerInput{}, err
	}
	out := booking.PartnerInput{Name: in.Str("name"), Commission: in.Str("commission_percent"), Allotment: in.Str("allotment"), Active: true}
	if in.Has("active") {
		a, err := in.OptBool("active")
		if err != nil {
			return out, err
		}
		if a != nil {
			out.Active = *a
		}
	} else if !in.IsJSON() {
		out.Active = false // an unticked box is not sent
	}
	return out, nil
}

// create is POST /admin/partners → 201 {success, partner}.
func (s partnerPages) create(w http.ResponseWriter, r *http.Request) {
	in, err := readPartner(w, r)
	var p reservation.Partner
	if err == nil {
		p, err = s.ops().Create(r.Context(), in)
	}
	s.answer(w, r, http.StatusCreated, "ok.partner_saved", err, map[string]any{"success": true, "partner": partnerView(p)})
}

// update is PUT /admin/partners/{id} → 200 {success, partner}.
func (s partnerPages) update(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathPartner)
	var in booking.PartnerInput
	if err == nil {
		in, err = readPartner(w, r)
	}
	var p reservation.Partner
	if err == nil {
		p, err = s.ops().Update(r.Context(), id, in)
	}
	s.answer(w, r, http.StatusOK, "ok.partner_saved", err, map[string]any{"success": true, "partner": partnerView(p)})
}

// newKey is POST /admin/partners/{id}/keys → 201 {success, id, key}: the key is
// shown this once.
func (s partnerPages) newKey(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathPartner)
	var keyID int64
	var key string
	if err == nil {
		keyID, key, err = s.ops().NewKey(r.Context(), id)
	}
	if err == nil && httpx.BrowserForm(r) {
		http.Redirect(w, r, "/admin/partners?key="+key, http.StatusSeeOther)
		return
	}
	s.answer(w, r, http.StatusCreated, "", err, map[string]any{"success": true, "id": keyID, "key": key})
}

// revokeKey is DELETE /admin/partners/{id}/keys/{key_id} → 204.
func (s partnerPages) revokeKey(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathPartner)
	var keyID int64
	if err == nil {
		keyID, err = httpx.PathID(r, "key_id", httpx.PathPartner)
	}
	if err == nil {
		err = s.ops().RevokeKey(r.Context(), id, keyID)
	}
	if err == nil && !httpx.BrowserForm(r) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.answer(w, r, http.StatusNoContent, "ok.partner_key_revoked", err, nil)
}

// answer ends a write: a browser's form post goes back to the page; a JSON client
// gets body with status, or the refusal.
func (s partnerPages) answer(w http.ResponseWriter, r *http.Request, status int, message string, err error, body map[string]any) {
	switch {
	case httpx.BrowserForm(r):
		s.backToPage(w, r, "/admin/partners", s.T(r, message), err)
	case err != nil:
		s.WriteSuccessFalse(w, r, err)
	default:
		httpx.WriteJSON(w, status, body)
	}
}

// statementLineJSON is one booking of a statement.
type statementLineJSON struct {
	ID               int64       `json:"id_reservation"`
	PartnerReference string      `json:"partner_reference"`
	EntryDate        string      `json:"entry_date"`
	ExitDate         *string     `json:"exit_date"`
	Status           string      `json:"status"`
	TotalPrice       money.Cents `json:"total_price"`
	Commission       money.Cents `json:"commission"`
}

// statement is GET /admin/partners/{id}/statement?month=YYYY-MM (page; JSON;
// format=csv: a header and one line per booking).
func (s partnerPages) statement(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathPartner)
	var st booking.Statement
	if err == nil {
		st, err = s.ops().Statement(r.Context(), id, r.URL.Query().Get("month"))
	}
	if err != nil {
		if httpx.WantsJSON(r) || r.URL.Query().Get("format") == "csv" {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		s.renderError(w, r, err, "error.staff_unavailable", "/admin/partners", "back.dashboard")
		return
	}
	lines := make([]statementLineJSON, len(st.Lines))
	for i, l := range st.Lines {
		res := l.Reservation
		lines[i] = statementLineJSON{ID: res.ID, EntryDate: localtime.JSON(res.Entry, s.cfg.Location), Status: string(res.Status),
			TotalPrice: res.TotalPrice, Commission: l.Commission}
		if res.Sale != nil {
			lines[i].PartnerReference = res.Sale.Reference
		}
		lines[i].ExitDate = s.optJSON(res.Exit)
	}
	switch {
	case r.URL.Query().Get("format") == "csv":
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="statement-`+strconv.FormatInt(id, 10)+"-"+st.Month+`.csv"`)
		c := csv.NewWriter(w)
		_ = c.Write([]string{"id_reservation", "partner_reference", "entry_date", "exit_date", "status", "total_price", "commission"})
		for _, l := range lines {
			exit := ""
			if l.ExitDate != nil {
				exit = *l.ExitDate
			}
			_ = c.Write([]string{strconv.FormatInt(l.ID, 10), l.PartnerReference, l.EntryDate, exit, l.Status, l.TotalPrice.String(), l.Commission.String()})
		}
		c.Flush()
	case httpx.WantsJSON(r):
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"partner": partnerView(st.Partner), "month": st.Month,
			"bookings": lines, "total_price": st.TotalPrice, "commission": st.Commission})
	default:
		s.render(w, r, http.StatusOK, "admin_partner_statement.html", "title.partner_statement", map[string]any{"Statement": st, "Lines": lines})
	}
}
