package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/web/httpx"
)

type pricingRequest struct {
	EntryDate          string        `json:"entry_date"`
	ExitDate           string        `json:"exit_date"`
	VehicleType        string        `json:"vehicle_type"`
	IDMainService      httpx.FlexInt `json:"id_main_service"`
	AdditionalServices httpx.FlexIDs `json:"additional_services"`
	// IDReservation (an addition to the spec's body) prices the data as an edit of
	// that reservation, for the edit forms: staff for any, a customer for their own.
	IDReservation httpx.FlexInt `json:"id_reservation"`
	// Reference (with the manage token, docs/manage-booking.md#the-token) prices the data as the
	// manage-my-booking edit of that booking would charge it.
	Reference string `json:"reference"`
}

type pricingResponse struct {
	Success    bool              `json:"success"`
	TotalPrice money.Cents       `json:"total_price"`
	Breakdown  *pricingBreakdown `json:"breakdown,omitempty"`
	// Availability (an addition, docs/capacity.md#seeing-it) is how full the stay's days are, for a
	// new booking's quote when the facility has a limit.
	Availability *pricingAvailability `json:"availability,omitempty"`
}

// pricingAvailability: status is the worst day's (available, few or full);
// full_days lists the full ones.
type pricingAvailability struct {
	Status   string   `json:"status"`
	FullDays []string `json:"full_days"`
}

// pricingBreakdown is an addition to the spec's body, for the booking summary. An
// edit quote that keeps the stored total (no pricing input changed) has none.
type pricingBreakdown struct {
	Days        int64            `json:"days"`
	DailyPrice  money.Cents      `json:"daily_price"`
	Coefficient money.Multiplier `json:"coefficient"`
	BasePrice   money.Cents      `json:"base_price"`
	ExtrasPrice money.Cents      `json:"extras_price"`
}

// apiPricing is POST /api/pricing/dynamic (spec): 200 {success, total_price}; 400 when
// a date is missing, or (as the booking answers) the main service is inactive and the
// caller is not staff; 500 when no rate or coefficient matches or prices are not
// loaded. Skipped extras are logged by the price path, as in a booking. With
// id_reservation: 403 unless staff or the owner, 404 (staff) for no such reservation.
func (s *Server) apiPricing(w http.ResponseWriter, r *http.Request) {
	var req pricingRequest
	body, err := httpx.ReadBody(w, r)
	if err == nil && !req.decodeQuick(body) {
		req, err = unmarshalPricing(body)
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	if strings.TrimSpace(req.EntryDate) == "" || strings.TrimSpace(req.ExitDate) == "" {
		s.WriteSuccessFalse(w, r, fault.Coded(fault.Invalid, "err.api.dates_required"))
		return
	}
	entry, err := httpx.ParseDateField("entry_date", req.EntryDate, s.cfg.Location)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	exit, err := httpx.ParseDateField("exit_date", req.ExitDate, s.cfg.Location)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	if strings.TrimSpace(req.VehicleType) == "" {
		s.WriteSuccessFalse(w, r, fault.Coded(fault.Invalid, "err.catalog.vehicle_type_required"))
		return
	}
	if !req.IDMainService.Set {
		s.WriteSuccessFalse(w, r, fault.Coded(fault.Invalid, "err.api.main_service_required"))

		return
	}
	// The quote is the price (docs/pricing.md#one-price-path): the booking package's one price path,
	// as the public booking (or, for a staff session or token, the walk-in) runs it;
	// with id_reservation, as the edit of that reservation would.
	u, signedIn := s.Viewer(r)
	staff := signedIn && u.IsAdmin()
	preq := pricing.Request{
		Entry: entry, Exit: exit, VehicleType: req.VehicleType,
		MainService: req.IDMainService.Value, Extras: req.AdditionalServices,
	}
	var q pricing.Quote
	switch {
	case strings.TrimSpace(req.Reference) != "":
		q, err = s.booking.ManageQuote(r.Context(), req.Reference, ManageToken(r), preq)
	case req.IDReservation.Set && staff:
		q, err = s.booking.QuoteEdit(r.Context(), 0, req.IDReservation.Value, preq)
	case req.IDReservation.Set && signedIn:
		q, err = s.booking.QuoteEdit(r.Context(), u.ID, req.IDReservation.Value, preq)
	case req.IDReservation.Set:
		err = booking.ErrNotYours
	case staff:
		q, err = s.booking.Quote(r.Context(), booking.WalkIn, preq)
	default:
		q, err = s.booking.Quote(r.Context(), booking.Public, preq)
	}
	if err != nil {
		// docs/errors.md#refusals-by-operation: no rate, no coefficient or no pricing data are 500s here, with
		// the message naming the service and days, or the type.
		var noRate *pricing.NoRateError
		var noCoef *pricing.NoCoefficientError
		msg := ""
		switch {
		case errors.As(err, &noRate):
			msg = noRate.Error()
		case errors.As(err, &noCoef):
			msg = noCoef.Error()
		case errors.Is(err, pricing.ErrNotLoaded):
			msg = pricing.ErrNotLoaded.Error()
		}
		if msg != "" {
			httpx.WriteJSON(w, http.StatusInternalServerError, map[string]any{"success": false, "message": msg})
			return
		}
		s.WriteSuccessFalse(w, r, err)
		return
	}
	// The answer's parts live on this stack; only WriteJSON's rare answer is copied out (detached).
	out := pricingResponse{Success: true, TotalPrice: q.Total}
	var breakdown pricingBreakdown
	if q.Days > 0 {
		breakdown = pricingBreakdown{Days: q.Days, DailyPrice: q.DailyPrice, Coefficient: q.Multiplier, BasePrice: q.Base, ExtrasPrice: q.ExtrasTotal}
		out.Breakdown = &breakdown
	}
	var avail pricingAvailability
	if !req.IDReservation.Set && strings.TrimSpace(req.Reference) == "" { // a new booking's quote only
		if s.quoteAvailability(r, entry, exit, &avail) {
			out.Availability = &avail
		}
	}
	buf := answerBuffers.Get().(*[]byte)
	defer answerBuffers.Put(buf)
	if body, ok := out.appendJSON((*buf)[:0]); ok {
		*buf = body[:0]
		httpx.WriteJSONBody(w, http.StatusOK, body)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, out.detached())
}

// answerBuffers hold the quote's answers while they are written (the server copies
// them into its own buffer).
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// unmarshalPricing decodes a body decodeQuick does not read.
func unmarshalPricing(body []byte) (pricingRequest, error) {
	var req pricingRequest
	err := httpx.UnmarshalBody(body, &req)
	return req, err
}

// detached is the answer with its parts copied, for WriteJSON (which keeps nothing,
// but takes any value).
func (p *pricingResponse) detached() pricingResponse {
	out := pricingResponse{Success: p.Success, TotalPrice: p.TotalPrice}
	if p.Breakdown != nil {
		b := *p.Breakdown
		out.Breakdown = &b
	}
	if p.Availability != nil {
		a := *p.Availability
		out.Availability = &a
	}
	return out
}

// appendJSON appends the answer as WriteJSON encodes it (the same bytes, tested by
// TestPricingAnswerBytes), without reflection; false when a text would need escaping
// (then WriteJSON encodes it).
func (p *pricingResponse) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"success":`...)
	b = strconv.AppendBool(b, p.Success)
	b = append(b, `,"total_price":`...)
	b = p.TotalPrice.AppendJSON(b)
	if d := p.Breakdown; d != nil {
		b = append(b, `,"breakdown":{"days":`...)
		b = strconv.AppendInt(b, d.Days, 10)
		b = append(b, `,"daily_price":`...)
		b = d.DailyPrice.AppendJSON(b)
		b = append(b, `,"coefficient":`...)
		b = d.Coefficient.AppendJSON(b)
		b = append(b, `,"base_price":`...)
		b = d.BasePrice.AppendJSON(b)
		b = append(b, `,"extras_price":`...)
		b = d.ExtrasPrice.AppendJSON(b)
		b = append(b, '}')
	}
	if a := p.Availability; a != nil {
		var ok bool
		b = append(b, `,"availability":{"status":`...)
		if b, ok = appendPlainString(b, a.Status); !ok {
			return nil, false
		}
		b = append(b, `,"full_days":[`...)
		for i, d := range a.FullDays {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendPlainString(b, d); !ok {
				return nil, false
			}
		}
		b = append(b, "]}"...)
	}
	return append(b, "}\n"...), true
}

// appendPlainString appends s as a JSON string when it needs no escaping (printable
// ASCII without quotes or backslashes); false otherwise.
func appendPlainString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

// quoteAvailability sets out to the quote's availability field; false (no field)
// when the facility sells without a limit, or when it cannot be read (the price still
// answers).
func (s *Server) quoteAvailability(r *http.Request, entry, exit time.Time, out *pricingAvailability) bool {
	var days [16]booking.DayAvailability // a stay of up to 15 nights, on the stack
	a, err := s.booking.StayAvailability(r.Context(), entry, exit, days[:])
	if err != nil {
		if fault.KindOf(err) != fault.Invalid {
			s.FailureStatus(r, err)
		}
		return false
	}
	if a.Facility.SellableLimit() == 0 {
		return false
	}
	status, full := a.Summary()
	*out = pricingAvailability{Status: string(status), FullDays: make([]string, len(full))}
	for i, d := range full {
		out.FullDays[i] = d.String()
	}
	return true
}
