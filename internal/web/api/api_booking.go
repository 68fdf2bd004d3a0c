package api

import (
	"net/http"

	"parking/internal/booking"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/web/httpx"
)

// bookingRequest is the public booking body (spec, POST /api/reservations/public-new).
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
}

type bookingCreatedData struct {
	IDReservation int64       `json:"id_reservation"`
	CustomerName  string      `json:"customer_name"`
	Phone         string      `json:"phone"`
	LicensePlate  string      `json:"license_plate"`
	Brand         string      `json:"brand"`
	Model         string      `json:"model"`
	TotalPrice    money.Cents `json:"total_price"`
	EntryDate     string      `json:"entry_date"`
}

// apiPublicBooking is POST /api/reservations/public-new and /api/reservations/public.
func (s *Server) apiPublicBooking(w http.ResponseWriter, r *http.Request) {
	var req bookingRequest
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	in := booking.NewBooking{
		FullName: req.FullName, Phone: req.Phone, Email: req.Email,
		LicensePlate: req.LicensePlate, Brand: req.Brand, Model: req.Model, VehicleType: req.VehicleType,
		MainService: req.IDMainService.Value, Extras: req.AdditionalServices,
	}
	var err error
	if in.Entry, in.Exit, err = httpx.ParseStayDates(req.EntryDate, req.ExitDate, s.cfg.Location); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	// The booking page sends the session cookie: a booking that lands on the signed-in
	// customer is theirs, any other is marked as made without signing in (CONTRACT §8).
	if u, ok := s.CurrentUser(r); ok && !u.IsAdmin() {
		in.SignedIn = u.ID
	}
	created, err := s.booking.Create(r.Context(), booking.Public, in)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	phone := ""
	if created.Contact.Phone != nil {
		phone = *created.Contact.Phone
	}
	// CONTRACT §8: the response shows what the caller sent (with the spec's
	// defaults), never the stored customer or vehicle the booking landed on.
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{
		"success": true,
		"message": "Reserva creada correctamente.",
		"data": bookingCreatedData{
			IDReservation: created.Reservation.ID,
			CustomerName:  created.Contact.FullName,
			Phone:         phone,
			LicensePlate:  created.Typed.LicensePlate,
			Brand:         created.Typed.Brand,
			Model:         created.Typed.Model,
			TotalPrice:    created.Reservation.TotalPrice,
			EntryDate:     localtime.Spanish(created.Reservation.Entry, s.cfg.Location),
		},
	})
}
