package api

import (
	"net/http"

	"parking/internal/audit"
	"parking/internal/booking"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// bookingRequest is the public booking body (docs/public-booking.md).
// A total_price sent by the client is not even decoded: the server prices.
type bookingRequest struct {
	FullName           string        `json:"full_name"`
	Phone              string        `json:"phone"`
	Email              string        `json:"email"`
	LicensePlate       string        `json:"license_plate"`
	Brand              string        `json:"brand"`
	Model              string        `json:"model"`
	VehicleType        string        `json:"vehicle_type"`
	EntryDate          string        `json:"entry_date"`
	ExitDate           string        `json:"exit_date"`
	IDMainService      httpx.FlexInt `json:"id_main_service"`
	AdditionalServices httpx.FlexIDs `json:"additional_services"`
	// Optional (docs/manage-booking.md): spec clients that do not send them keep working.
	PrivacyAck       *bool `json:"privacy_ack"`
	MarketingConsent *bool `json:"marketing_consent"`
	// Language is the customer's language (es, en, de, fr); without it, the request's
	// (docs/languages.md#the-bookings-language).
	Language string `json:"language"`
}

type bookingCreatedData struct {
	IDReservation int64       `json:"id_reservation"`
	Reference     string      `json:"reference"` // K7Q2-M9XD (docs/manage-booking.md#booking-reference)
	CustomerName  string      `json:"customer_name"`
	Phone         string      `json:"phone"`
	LicensePlate  string      `json:"license_plate"`
	Brand         string      `json:"brand"`
	Model         string      `json:"model"`
	TotalPrice    money.Cents `json:"total_price"`
	EntryDate     string      `json:"entry_date"`
	// ManageURL opens the booking without an account (docs/manage-booking.md#the-token); the booker
	// who just made it may manage it.
	ManageURL string `json:"manage_url,omitempty"`
}

// publicBookingRoute is the scope of public booking's Idempotency-Keys (both paths).
const publicBookingRoute = "public-booking"

// apiPublicBooking is POST /api/reservations/public-new and /api/reservations/public.
// With an Idempotency-Key, the same key and body answer the first result again
// (docs/reliability.md; booking.Service.CreateOnce).
func (s *Server) apiPublicBooking(w http.ResponseWriter, r *http.Request) {
	key, hash, err := httpx.ReadIdempotency(r)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	once := booking.Once{Route: publicBookingRoute, Key: key, BodyHash: hash,
		Answer: func(c booking.Created) (booking.Answer, error) {
			ct, body, err := httpx.JSONAnswer(s.bookingCreated(c))
			return booking.Answer{Status: http.StatusCreated, ContentType: ct, Body: body}, err
		}}
	created, stored, err := s.booking.CreateOnce(r.Context(), once, func(opts ...booking.CreateOption) (booking.Created, error) {
		return s.createPublic(w, r, opts)
	})
	if err != nil {
		s.WriteSuccessFalse(w, r, err) // 422 for an Idempotency-Key sent again with another body
		return
	}
	if stored != nil {
		httpx.WriteStored(w, stored.Status, stored.ContentType, stored.Location, stored.Body)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, s.bookingCreated(created))
}

// createPublic reads the booking body and makes the booking.
func (s *Server) createPublic(w http.ResponseWriter, r *http.Request, opts []booking.CreateOption) (booking.Created, error) {
	var req bookingRequest
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		return booking.Created{}, err
	}
	in, err := s.newBooking(r, req)
	if err != nil {
		return booking.Created{}, err
	}
	// The booking page sends the session cookie: a booking that lands on the signed-in
	// customer is theirs, any other is marked as made without signing in (docs/public-booking.md#privacy-of-anonymous-bookings).
	// The audit trail records a signed-in booker by name; booking.Create records
	// anyone else as "público".
	ctx := r.Context()
	if u, ok := s.CurrentUser(r); ok {
		ctx = audit.WithActor(ctx, u.Actor())
		if !u.IsAdmin() {
			in.SignedIn = u.ID
		}
	}
	return s.booking.Create(ctx, booking.Public, in, opts...)
}

// newBooking is the public booking body as the operations take it.
func (s *Server) newBooking(r *http.Request, req bookingRequest) (booking.NewBooking, error) {
	in := booking.NewBooking{
		FullName: req.FullName, Phone: req.Phone, Email: req.Email,
		LicensePlate: req.LicensePlate, Brand: req.Brand, Model: req.Model, VehicleType: req.VehicleType,
		MainService: req.IDMainService.Value, Extras: req.AdditionalServices,
		PrivacyAck: req.PrivacyAck != nil && *req.PrivacyAck, MarketingConsent: req.MarketingConsent != nil && *req.MarketingConsent,
		Language: req.Language,
	}
	if req.Language == "" {
		in.Language = s.RequestLanguage(r)
	}
	var err error
	in.Entry, in.Exit, err = httpx.ParseStayDates(req.EntryDate, req.ExitDate, s.cfg.Location)
	return in, err
}

// bookingCreated is the 201 body of a public booking.
func (s *Server) bookingCreated(created booking.Created) map[string]any {
	phone := ""
	if created.Contact.Phone != nil {
		phone = *created.Contact.Phone
	}
	_, manageURL := s.booking.ManageLink(created.Reservation)
	// docs/public-booking.md#privacy-of-anonymous-bookings: the response shows what the caller sent (with the spec's
	// defaults), never the stored customer or vehicle the booking landed on.
	return map[string]any{
		"success": true,
		"message": "Reserva creada correctamente.",
		"data": bookingCreatedData{
			IDReservation: created.Reservation.ID,
			Reference:     reservation.ShowReference(created.Reservation.Reference),
			CustomerName:  created.Contact.FullName,
			Phone:         phone,
			LicensePlate:  created.Typed.LicensePlate,
			Brand:         created.Typed.Brand,
			Model:         created.Typed.Model,
			TotalPrice:    created.Reservation.TotalPrice,
			EntryDate:     localtime.Spanish(created.Reservation.Entry, s.cfg.Location),
			ManageURL:     manageURL,
		},
	}
}
