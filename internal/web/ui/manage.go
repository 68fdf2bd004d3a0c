package ui

import (
	"net/http"
	"net/url"
	"strconv"

	"parking/internal/arrival"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// Manage my booking without an account (docs/manage-booking.md#pages), for browsers: /reserva asks
// for the reference and the phone or email and opens the booking's signed link;
// /reserva/{reference}?t=… shows the booking, cancels it, changes its dates,
// service and extras (with a live quote through POST /api/pricing/dynamic and the
// same token), prints the confirmation and, once paid, the receipt. Every form
// works without JavaScript: posts answer with 303s back to the page.

// managePages are the manage-link pages (/reserva/...); the receipt they print is
// the receipts' (receiptPages).
type managePages struct{ receiptPages }

func (s managePages) routes(mux *http.ServeMux) {
	// The lookup form is limited with the JSON lookup (docs/public-booking.md#limits-on-anonymous-traffic)
	// and throttled per reference (docs/manage-booking.md#the-lookup-and-guessing).
	mux.HandleFunc("GET /reserva", s.manageLookupPage)
	mux.Handle("POST /reserva", s.SameOrigin(s.limit.Limit("booking-lookup", s.manageLookup, func(w http.ResponseWriter, r *http.Request, err error) {
		s.manageLookupRefused(w, r, manageLookupView{}, err)
	})))
	mux.HandleFunc("GET /reserva/{reference}", s.managePage)
	mux.HandleFunc("GET /reserva/{reference}/recibo", s.manageReceipt)
	mux.HandleFunc("GET /reserva/{reference}/recibo.pdf", s.manageReceiptPDF)
	mux.Handle("POST /reserva/{reference}/cancelar", s.SameOrigin(http.HandlerFunc(s.manageCancel)))
	mux.Handle("POST /reserva/{reference}/modificar", s.SameOrigin(http.HandlerFunc(s.manageEdit)))
}

type manageLookupView struct {
	Reference, Contact string
	Error              string
}

type manageOption struct {
	ID       int64
	Name     string
	Price    string
	Selected bool
}

type manageView struct {
	Res                    api.ManagedReservationJSON
	Token                  string
	Reference              string // as shown, K7Q2-M9XD
	Entry, Exit            string // people's form
	EntryInput, ExitInput  string // datetime-local values
	Total                  string
	Extras                 []manageOption
	Services               []manageOption
	AllExtras              []manageOption
	VehicleLabel           string
	Flash, Error           string
	StatusClass            string
	PaymentLabel           string
	ManagePath, ReceiptURL string
	EntryDocumentURL       string // the justificante de entrada, once the car is in (docs/entry-document.md)
	StatusLabel            string // the state in the customer's words (docs/manage-booking.md#pages)
	Cancelled              bool   // nothing to pay, nothing to print
	Arrival                arrivalView
	QRPath                 string // the booking's QR code (arrival.go)
}

// manageLookupPage is GET /reserva.
func (s managePages) manageLookupPage(w http.ResponseWriter, r *http.Request) {
	// ?reference= fills the form in (the QR code's /r/{reference}, docs/gate.md#the-qr-code).
	ref, _ := input.ReferenceLookup(r.URL.Query().Get("reference"))
	if ref != "" {
		ref = reservation.ShowReference(ref)
	}
	s.render(w, r, http.StatusOK, "manage_lookup.html", "title.manage_lookup", manageLookupView{Reference: ref})
}

// manageLookup is POST /reserva (reference, contact: a phone or an email): 303 to
// the booking's signed link, or the form again with the one answer (404) or the
// throttle's (429).
func (s managePages) manageLookup(w http.ResponseWriter, r *http.Request) {
	f, err := readForm(w, r, "reference", "contact")
	v := manageLookupView{Reference: f["reference"], Contact: f["contact"]}
	var m booking.Managed
	if err == nil {
		req := booking.LookupRequest{Reference: v.Reference, Addr: httpx.ClientAddr(r)}
		if isEmail(v.Contact) {
			req.Email = v.Contact
		} else {
			req.Phone = v.Contact
		}
		m, err = s.booking.Lookup(r.Context(), req)
	}
	if err != nil {
		s.manageLookupRefused(w, r, v, err)
		return
	}
	httpx.SeeOther(w, r, managePath(m.Detail.Reservation, m.Token, ""))
}

func (s managePages) manageLookupRefused(w http.ResponseWriter, r *http.Request, v manageLookupView, err error) {
	httpx.SetRetryAfter(w, err) // throttled: when to try again
	status := s.FailureStatus(r, err)
	v.Error = s.failText(r, err)
	s.render(w, r, status, "manage_lookup.html", "title.manage_lookup", v)
}

func isEmail(v string) bool {
	for _, c := range v {
		if c == '@' {
			return true
		}
	}
	return false
}

// managePath is the page of a managed booking (a path, so that the page works
// whatever PARKING_BASE_URL says), with a flash key.
func managePath(res reservation.Reservation, token, flash string) string {
	q := url.Values{"t": {token}}
	if flash != "" {
		q.Set("hecho", flash)
	}
	return "/reserva/" + reservation.ShowReference(res.Reference) + "?" + q.Encode()
}

var manageFlashes = map[string]string{
	"modificada": "msg.edited",
	"cancelada":  "msg.cancelled",
}

// managePage is GET /reserva/{reference}?t=…; a bad or expired link shows the
// lookup form with the reason (404).
func (s managePages) managePage(w http.ResponseWriter, r *http.Request) {
	token := api.ManageToken(r)
	m, err := s.booking.ManagedBooking(r.Context(), r.PathValue("reference"), token)
	if err != nil {
		s.manageLookupRefused(w, r, manageLookupView{Reference: r.PathValue("reference")}, err)
		return
	}
	v := s.manageViewOf(m.Detail, token, s.words(r))
	if f, ok := manageFlashes[r.URL.Query().Get("hecho")]; ok {
		v.Flash = s.T(r, f)
	}
	if code := r.URL.Query().Get("error"); code != "" {
		v.Error = s.T(r, manageErrorKey(code)) // a code of the catalogue, never the query's words
	}
	if !v.Cancelled {
		v.Arrival = s.arrivalOf(r.Context(), s.Lang(r))
	}
	s.render(w, r, http.StatusOK, "manage.html", s.T(r, "title.manage", "Reference", v.Reference), v)
}

func (s managePages) manageViewOf(d records.Detail, token string, wd words) manageView {
	loc := s.cfg.Location
	res := d.Reservation
	v := manageView{
		Res: api.ManagedView(d, loc), Token: token, Reference: reservation.ShowReference(res.Reference),
		Entry: wd.dateTime(res.Entry), Exit: wd.optDateTime(res.Exit), Total: wd.money(res.TotalPrice),
		EntryInput: res.Entry.In(loc).Format("2006-01-02T15:04"), VehicleLabel: wd.vehicleType(d.Vehicle.Type),
		ManagePath: managePath(res, token, ""), StatusClass: statusClass(string(res.Status)),
		StatusLabel: wd.t(customerStatusKey + string(res.Status)), Cancelled: res.Status == reservation.Cancelled,
		QRPath: arrival.QRPath(res.Reference),
	}
	if res.Exit != nil {
		v.ExitInput = res.Exit.In(loc).Format("2006-01-02T15:04")
	}
	if res.PaymentMethod != nil {
		v.PaymentLabel = string(*res.PaymentMethod)
	}
	if res.Status == reservation.InCourse || res.Status == reservation.Finalized {
		v.EntryDocumentURL = "/reserva/" + v.Reference + "/justificante?" + url.Values{"t": {token}}.Encode()
	}
	if v.Res.HasReceipt {
		v.ReceiptURL = "/reserva/" + v.Reference + "/recibo?" + url.Values{"t": {token}}.Encode()
	}
	booked := map[int64]bool{}
	for _, e := range d.Extras {
		booked[e.ID] = true
		v.Extras = append(v.Extras, manageOption{ID: e.ID, Name: e.Name, Price: wd.money(e.Price), Selected: true})
	}
	// The choices a customer has (CustomerEdit's rules): active main services (and
	// the current one, even if since retired), active extras (and the booked ones).
	for _, m := range d.Catalog.MainServices {
		if m.Active || m.ID == res.MainServiceID {
			v.Services = append(v.Services, manageOption{ID: m.ID, Name: m.Name, Selected: m.ID == res.MainServiceID})
		}
	}
	for _, e := range d.Catalog.Extras {
		if e.Active || booked[e.ID] {
			v.AllExtras = append(v.AllExtras, manageOption{ID: e.ID, Name: e.Name, Price: wd.money(e.Price), Selected: booked[e.ID]})
		}
	}
	return v
}

// manageCancel is POST /reserva/{reference}/cancelar (t): 303 back with a flash.
func (s managePages) manageCancel(w http.ResponseWriter, r *http.Request) {
	f, err := readForm(w, r, "t")
	var res reservation.Reservation
	if err == nil {
		res, err = s.booking.ManageCancel(r.Context(), r.PathValue("reference"), f["t"])
	}
	s.manageDone(w, r, f["t"], res, "cancelada", err)
}

// manageEdit is POST /reserva/{reference}/modificar (t, id_main_service,
// entry_date, exit_date, additional_services…): the manage edit; 303 back.
func (s managePages) manageEdit(w http.ResponseWriter, r *http.Request) {
	in, err := httpx.ReadInput(w, r)
	var token string
	var edited booking.Edited
	if err == nil {
		var texts map[string]*string
		texts, err = in.Texts("t", "id_main_service", "entry_date", "exit_date")
		if err == nil {
			token = deref(texts["t"])
			var ce booking.CustomerEdit
			if ms := deref(texts["id_main_service"]); ms != "" {
				if ce.MainService, err = strconv.ParseInt(ms, 10, 64); err != nil {
					err = fault.Coded(fault.Invalid, "msg.bad_service")
				}
			}
			if err == nil {
				var ids *[]int64
				ids, err = in.IDs("additional_services")
				ce.Extras = []int64{} // a form without any box ticked removes them all
				if ids != nil {
					ce.Extras = *ids
				}
			}
			if err == nil {
				ce.Entry, ce.Exit, err = httpx.ParseStayDates(deref(texts["entry_date"]), deref(texts["exit_date"]), s.cfg.Location)
			}
			if err == nil {
				edited, err = s.booking.ManageEdit(r.Context(), r.PathValue("reference"), token, ce)
			}
		}
	}
	s.manageDone(w, r, token, edited.Reservation, "modificada", err)
}

// manageDone sends the browser back to the booking's page: with a flash, or with
// the refusal's message; a bad link gets the lookup form.
func (s managePages) manageDone(w http.ResponseWriter, r *http.Request, token string, res reservation.Reservation, flash string, err error) {
	if err != nil {
		if fault.KindOf(err) == fault.NotFound || fault.KindOf(err) == fault.Internal || fault.KindOf(err) == fault.Unavailable {
			s.manageLookupRefused(w, r, manageLookupView{Reference: r.PathValue("reference")}, err)
			return
		}
		s.FailureStatus(r, err) // logged as any refusal
		q := url.Values{"t": {token}, "error": {manageErrorCode(err)}}
		httpx.SeeOther(w, r, "/reserva/"+url.PathEscape(r.PathValue("reference"))+"?"+q.Encode())
		return
	}
	httpx.SeeOther(w, r, managePath(res, token, flash))
}

// manageReceipt is GET /reserva/{reference}/recibo?t=…: the printable receipt once
// the booking is paid (FINALIZADA); manageReceiptPDF is its PDF.
func (s managePages) manageReceipt(w http.ResponseWriter, r *http.Request) {
	s.manageReceiptAs(w, r, receiptPage)
}

func (s managePages) manageReceiptPDF(w http.ResponseWriter, r *http.Request) {
	s.manageReceiptAs(w, r, receiptPDF)
}

func (s managePages) manageReceiptAs(w http.ResponseWriter, r *http.Request, format receiptFormat) {
	token := api.ManageToken(r)
	m, err := s.booking.ManagedBooking(r.Context(), r.PathValue("reference"), token)
	if err != nil {
		s.renderError(w, r, err, "error.receipt_unavailable", "/reserva", "back.find")
		return
	}
	res := m.Detail.Reservation
	base := "/reserva/" + reservation.ShowReference(res.Reference) + "/recibo?" + url.Values{"t": {token}}.Encode()
	s.serveReceipt(w, r, m.Detail, format, base, managePath(res, token, ""), "back.reservation")
}
