package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// The partner API (docs/partners.md): a partner books, reads, edits and cancels its
// own bookings with its key (Authorization: Bearer pk_…). A missing, unknown,
// revoked or inactive key is 401 {"error":"Unauthorized"}; each key may make
// PartnerRate requests a minute (429 with Retry-After beyond); the anonymous limit
// does not apply.

// PartnerRate is how many requests a minute each partner key may make.
const PartnerRate = 600

type partnerCallerKey struct{}

// partnerCaller is the partner of a request that went through requirePartner.
func partnerCaller(ctx context.Context) booking.Caller {
	c, _ := ctx.Value(partnerCallerKey{}).(booking.Caller)
	return c
}

// requirePartner guards a partner route: the key, then its own limit.
func (s *Server) requirePartner(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := s.partners.Authenticate(r.Context(), httpx.BearerToken(r))
		if errors.Is(err, booking.ErrPartnerUnauthorized) {
			httpx.DenyToken(w)
			return
		}
		if err != nil {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		if ok, wait := s.partnerLimit.Allow("partner-key " + strconv.FormatInt(c.KeyID, 10)); !ok {
			secs := max(int((wait+time.Second-1)/time.Second), 1)
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			s.WriteSuccessFalse(w, r, fault.Coded(fault.TooMany, httpx.MsgTooManyRequests, "Count", secs))
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), partnerCallerKey{}, c)))
	}
}

// partnerDay is one day of the partner's availability.
type partnerDay struct {
	Date   string `json:"date"`
	Status string `json:"status"`
	Free   *int   `json:"free"`
}

// apiPartnerAvailability is GET /api/partner/availability?from=&to=.
func (s *Server) apiPartnerAvailability(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	span, err := booking.ParseAvailabilityRange(q.Get("from"), q.Get("to"))
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	days, err := s.partners.Availability(r.Context(), partnerCaller(r.Context()), span)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	out := make([]partnerDay, len(days))
	for i, d := range days {
		out[i] = partnerDay{Date: d.Day.String(), Status: string(d.Status), Free: d.Free}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"from": span.First.String(), "to": span.Last.String(), "days": out})
}

// partnerBookingRequest is the public booking body with the partner's reference.
type partnerBookingRequest struct {
	bookingRequest
	PartnerReference string `json:"partner_reference"`
}

// apiPartnerBook is POST /api/partner/bookings: 201 as the public booking, plus
// data.partner_reference and data.channel. The reference is the partner's
// idempotency key (booking.Partners.Book).
func (s *Server) apiPartnerBook(w http.ResponseWriter, r *http.Request) {
	hash, err := httpx.BodyHash(r)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	var req partnerBookingRequest
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	in, err := s.newBooking(r, req.bookingRequest)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	once := booking.Once{BodyHash: hash, Answer: func(c booking.Created) (booking.Answer, error) {
		ct, body, err := httpx.JSONAnswer(s.partnerBooked(c))
		return booking.Answer{Status: http.StatusCreated, ContentType: ct, Body: body}, err
	}}
	created, stored, err := s.partners.Book(r.Context(), partnerCaller(r.Context()), req.PartnerReference, in, once)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	if stored != nil {
		httpx.WriteStored(w, stored.Status, stored.ContentType, stored.Location, stored.Body)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, s.partnerBooked(created))
}

// partnerBookedData is the public booking's data with the partner's fields.
type partnerBookedData struct {
	bookingCreatedData
	PartnerReference string `json:"partner_reference"`
	Channel          string `json:"channel"`
}

func (s *Server) partnerBooked(c booking.Created) map[string]any {
	body := s.bookingCreated(c)
	data := partnerBookedData{bookingCreatedData: body["data"].(bookingCreatedData), Channel: c.Reservation.Channel}
	if c.Reservation.Sale != nil {
		data.PartnerReference = c.Reservation.Sale.Reference
	}
	body["data"] = data
	return body
}

// PartnerReservationJSON is a partner's booking as the partner reads it: the
// manage link's view (what was sent and computed, nothing stored of a customer or
// vehicle) with the partner's reference, the channel and the commission.
type PartnerReservationJSON struct {
	ManagedReservationJSON
	PartnerReference string      `json:"partner_reference"`
	Channel          string      `json:"channel"`
	Commission       money.Cents `json:"commission"`
}

// apiPartnerBooking is GET /api/partner/bookings/{partner_reference}.
func (s *Server) apiPartnerBooking(w http.ResponseWriter, r *http.Request) {
	m, err := s.partners.Booking(r.Context(), partnerCaller(r.Context()), r.PathValue("partner_reference"))
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	res := m.Detail.Reservation
	view := PartnerReservationJSON{ManagedReservationJSON: s.managedView(m.Detail), Channel: res.Channel, Commission: res.Commission()}
	if res.Sale != nil {
		view.PartnerReference = res.Sale.Reference
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "reservation": view})
}

// apiPartnerEdit is PUT /api/partner/bookings/{partner_reference}: the manage edit.
func (s *Server) apiPartnerEdit(w http.ResponseWriter, r *http.Request) {
	in, err := ReadCustomerEdit(w, r, s.cfg.Location)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	edited, err := s.partners.Edit(r.Context(), partnerCaller(r.Context()), r.PathValue("partner_reference"), in)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": "Reserva modificada correctamente.", "total_price": edited.Reservation.TotalPrice,
	})
}

// apiPartnerCancel is POST /api/partner/bookings/{partner_reference}/cancel.
func (s *Server) apiPartnerCancel(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("partner_reference")
	res, err := s.partners.Cancel(r.Context(), partnerCaller(r.Context()), ref)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": "Reserva cancelada correctamente.",
		"reference": reservation.ShowReference(res.Reference), "partner_reference": ref, "status": string(res.Status),
	})
}
