package api

import (
	"net/http"
	"time"

	"parking/internal/booking"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// Managing a booking without an account (docs/manage-booking.md#the-lookup-and-guessing): the lookup by reference
// and phone or email gives a signed token; with it (header X-Manage-Token or query
// t) the booking is read, cancelled and edited. A bad or expired token, and any
// lookup that does not match, is the same 404.

// ManageTokenHeader carries the manage token on the /api/bookings routes.
const ManageTokenHeader = "X-Manage-Token"

// ManageToken is the token of a manage request: the header, or the query's t.
func ManageToken(r *http.Request) string {
	if t := r.Header.Get(ManageTokenHeader); t != "" {
		return t
	}
	return r.URL.Query().Get("t")
}

type lookupRequest struct {
	Reference string `json:"reference"`
	Phone     string `json:"phone"`
	Email     string `json:"email"`
}

// ManagedReservationJSON is a booking as its customer sees it through the manage
// routes: what they booked, its state and the actions the state rules allow. It
// shows the plate and type but not a stored vehicle's brand, model or colour, nor
// the photos or notification history (staff data; docs/public-booking.md#privacy-of-anonymous-bookings).
type ManagedReservationJSON struct {
	Reference          string            `json:"reference"`
	ID                 int64             `json:"id_reservation"`
	Status             string            `json:"status"`
	ReservationDate    string            `json:"reservation_date"`
	EntryDate          string            `json:"entry_date"`
	ExitDate           *string           `json:"exit_date"`
	TotalPrice         money.Cents       `json:"total_price"`
	IsPaid             bool              `json:"is_paid"`
	PaymentMethod      *string           `json:"payment_method"`
	CustomerName       string            `json:"customer_name"`
	LicensePlate       string            `json:"license_plate"`
	VehicleType        string            `json:"vehicle_type"`
	MainServiceID      int64             `json:"id_main_service"`
	ServiceName        string            `json:"service_name"`
	AdditionalServices []BookedExtraJSON `json:"additional_services"`
	CanCancel          bool              `json:"can_cancel"`
	CanEdit            bool              `json:"can_edit"`
	CanEditEntry       bool              `json:"can_edit_entry"`
	HasReceipt         bool              `json:"has_receipt"`
}

func (s *Server) managedView(d records.Detail) ManagedReservationJSON {
	return ManagedView(d, s.cfg.Location)
}

// ManagedView is the wire form of a managed booking (the pages show the same).
func ManagedView(d records.Detail, loc *time.Location) ManagedReservationJSON {
	r := d.Reservation
	rules := reservation.For(r.Status)
	out := ManagedReservationJSON{
		Reference: reservation.ShowReference(r.Reference), ID: r.ID, Status: string(r.Status),
		ReservationDate: localtime.JSON(r.ReservationDate, loc), EntryDate: localtime.JSON(r.Entry, loc),
		TotalPrice: r.TotalPrice, IsPaid: r.IsPaid,
		CustomerName: reservation.ContactOf(r, d.Customer).FullName,
		LicensePlate: d.Vehicle.LicensePlate, VehicleType: d.Vehicle.Type,
		MainServiceID: r.MainServiceID, ServiceName: d.MainServiceName,
		AdditionalServices: BookedExtras(d.Extras),
		CanCancel:          rules.Cancel, CanEdit: rules.CustomerEdit, CanEditEntry: rules.CustomerEdit && rules.EditEntry,
		HasReceipt: r.Status == reservation.Finalized,
	}
	if r.Exit != nil {
		e := localtime.JSON(*r.Exit, loc)
		out.ExitDate = &e
	}
	if r.PaymentMethod != nil {
		m := string(*r.PaymentMethod)
		out.PaymentMethod = &m
	}
	return out
}

// apiBookingLookup is POST /api/bookings/lookup {reference, phone|email} → 200
// {success, reservation, manage_url, manage_token}; 404 for any mismatch; 429 when
// throttled (per reference and per address, and PARKING_PUBLIC_RATE).
func (s *Server) apiBookingLookup(w http.ResponseWriter, r *http.Request) {
	var req lookupRequest
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	m, err := s.booking.Lookup(r.Context(), booking.LookupRequest{
		Reference: req.Reference, Phone: req.Phone, Email: req.Email, Addr: httpx.ClientAddr(r),
	})
	if err != nil {
		httpx.SetRetryAfter(w, err)
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "reservation": s.managedView(m.Detail), "manage_url": m.URL, "manage_token": m.Token,
	})
}

// apiManagedBooking is GET /api/bookings/{reference} with the token.
func (s *Server) apiManagedBooking(w http.ResponseWriter, r *http.Request) {
	m, err := s.booking.ManagedBooking(r.Context(), r.PathValue("reference"), ManageToken(r))
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "reservation": s.managedView(m.Detail)})
}

// apiManagedCancel is POST /api/bookings/{reference}/cancel with the token: 200, or
// 400 when the state does not allow it.
func (s *Server) apiManagedCancel(w http.ResponseWriter, r *http.Request) {
	res, err := s.booking.ManageCancel(r.Context(), r.PathValue("reference"), ManageToken(r))
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": "Reserva cancelada correctamente.",
		"reference": reservation.ShowReference(res.Reference), "status": string(res.Status),
	})
}

// apiManagedEdit is PUT /api/bookings/{reference} with the token: the customer
// edit's rules and answer (200 {success, message, total_price}; 400; 409).
func (s *Server) apiManagedEdit(w http.ResponseWriter, r *http.Request) {
	in, err := ReadCustomerEdit(w, r, s.cfg.Location)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	edited, err := s.booking.ManageEdit(r.Context(), r.PathValue("reference"), ManageToken(r), in)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": "Reserva modificada correctamente.", "total_price": edited.Reservation.TotalPrice,
	})
}
