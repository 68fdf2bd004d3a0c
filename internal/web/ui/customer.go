package ui

import (
	"net/http"

	"parking/internal/account"
	"parking/internal/booking"
	"parking/internal/handover"
	"parking/internal/localtime"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// The customer area (docs/customer-area.md): profile, personal data, password,
// and the customer's own reservations. Every route is behind RequireUser (session
// and cross-origin protection); refusals are {"success":false,"message"}.

// customerPages are the customer area's profile pages and posts.
type customerPages struct{ *base }

func (s customerPages) routes(mux *http.ServeMux) {
	mux.Handle("GET /users/profile", s.RequireUser(s.customerProfile))
	mux.Handle("PUT /users/profile/update", s.RequireUser(s.customerUpdateProfile))
	mux.Handle("PUT /users/profile/password", s.RequireUser(s.customerChangePassword))
	mux.Handle("DELETE /users/profile/reservation/{id}/cancel", s.RequireUser(s.customerCancel))
	mux.Handle("PUT /users/profile/reservation/{id}/edit", s.RequireUser(s.customerEdit))
}

// customerUserJSON is the session user (docs/accounts.md#customer-types: id, nombre, email,
// numero, role), plus whether the password form applies to this account.
type customerUserJSON struct {
	ID                int64  `json:"id"`
	Nombre            string `json:"nombre"`
	Email             string `json:"email"`
	Numero            string `json:"numero"`
	Role              string `json:"role"`
	CanChangePassword bool   `json:"can_change_password"`
	// EmailVerified: the account has followed a link sent to its email
	// (docs/accounts.md#email-verification); the page shows a banner until then.
	EmailVerified bool `json:"email_verified"`
}

// customerReservationJSON is one reservation of the profile lists. can_cancel and
// can_edit tell the page which actions the state rules allow.
type customerReservationJSON struct {
	reservationHeadJSON
	reservationPaymentJSON
	ParkingSpot        *string               `json:"cod_parking_spot"`
	VehicleID          int64                 `json:"id_vehicle"`
	LicensePlate       string                `json:"license_plate"`
	Brand              string                `json:"brand"`
	Model              string                `json:"model"`
	Color              string                `json:"color"`
	VehicleType        string                `json:"vehicle_type"`
	MainServiceID      int64                 `json:"id_main_service"`
	ServiceName        string                `json:"service_name"`
	AdditionalServices []api.BookedExtraJSON `json:"additional_services"`
	CanCancel          bool                  `json:"can_cancel"`
	CanEdit            bool                  `json:"can_edit"`
	// docs/public-booking.md#privacy-of-anonymous-bookings: a booking made online by someone not signed in to this account
	// (it landed here by the phone) is marked, with the name its booker typed, so
	// that the account holder can tell it apart and cancel one they did not make.
	MadeWithoutLogin bool   `json:"made_without_login"`
	ContactName      string `json:"contact_name,omitempty"`
	// Photos are the car's uploaded photos (docs/photos.md): the owner sees them.
	Photos []customerPhotoJSON `json:"photos"`
}

// customerPhotoJSON is one uploaded photo of a customer's car; the addresses
// answer only to the owner and staff.
type customerPhotoJSON struct {
	ID          int64   `json:"id_photo"`
	Phase       string  `json:"phase"`
	Description *string `json:"description"`
	TakenAt     string  `json:"taken_at"`
	URL         string  `json:"url"`
	ThumbURL    string  `json:"thumb_url"`
}

// customerProfileJSON is the GET /users/profile body (docs/errors.md#json-on-web-routes).
type customerProfileJSON struct {
	User               customerUserJSON          `json:"user"`
	Vehicles           []vehicleJSON             `json:"vehicles"`
	ActiveReservations []customerReservationJSON `json:"active_reservations"`
	PastReservations   []customerReservationJSON `json:"past_reservations"`
	Catalog            api.CatalogJSON           `json:"catalog"`
}

// customerProfile is GET /users/profile: the customer's page for browsers
// (customer_page.go), the docs/errors.md#json-on-web-routes JSON for clients that prefer JSON.
func (s customerPages) customerProfile(w http.ResponseWriter, r *http.Request) {
	u := httpx.GuardedUser(r)
	area, err := s.booking.CustomerArea(r.Context(), u.ID)
	if !httpx.WantsJSON(r) {
		if err != nil {
			s.profileUnavailable(w, r, err)
			return
		}
		s.renderProfile(w, r, area)
		return
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, s.profileView(area))
}

func (s customerPages) profileView(area reservation.CustomerArea) customerProfileJSON {
	u := account.UserOf(area.Customer)
	out := customerProfileJSON{
		User: customerUserJSON{ID: u.ID, Nombre: u.Nombre, Email: u.Email, Numero: u.Numero, Role: string(u.Role),
			CanChangePassword: account.HasOwnPassword(area.Customer.PasswordHash), EmailVerified: area.Customer.EmailVerified()},
		Vehicles:           make([]vehicleJSON, 0, len(area.Vehicles)),
		ActiveReservations: []customerReservationJSON{},
		PastReservations:   []customerReservationJSON{},
	}
	for _, v := range area.Vehicles {
		out.Vehicles = append(out.Vehicles, vehicleView(v))
	}
	// Spec: active list = PENDIENTE and EN CURSO; history = FINALIZADA and CANCELADA.
	for _, cr := range area.Reservations {
		item := s.customerReservationView(cr)
		if cr.Status.Terminal() {
			out.PastReservations = append(out.PastReservations, item)
		} else {
			out.ActiveReservations = append(out.ActiveReservations, item)
		}
	}
	if snap := s.catalog.Load(); snap != nil {
		out.Catalog = api.CatalogView(snap.Catalog(), false)
	} else {
		out.Catalog = api.CatalogView(pricing.Catalog{}, false)
	}
	return out
}

func (s customerPages) customerReservationView(cr reservation.CustomerReservation) customerReservationJSON {
	loc := s.cfg.Location
	item := customerReservationJSON{
		reservationHeadJSON:    s.reservationHead(cr.Reservation),
		reservationPaymentJSON: reservationPayment(cr.Reservation),
		ParkingSpot:            cr.Spot,
		VehicleID:              cr.Vehicle.ID, LicensePlate: cr.Vehicle.LicensePlate, Brand: cr.Vehicle.Brand,
		Model: cr.Vehicle.Model, Color: cr.Vehicle.Color, VehicleType: cr.Vehicle.Type,
		MainServiceID: cr.MainServiceID, ServiceName: cr.MainServiceName,
		AdditionalServices: api.BookedExtras(cr.Extras),
		CanCancel:          reservation.For(cr.Status).Cancel, // docs/reservations.md#per-state-rules
		CanEdit:            reservation.For(cr.Status).CustomerEdit,
		MadeWithoutLogin:   cr.MadeWithoutLogin(),
	}
	if item.MadeWithoutLogin && cr.Contact != nil {
		item.ContactName = cr.Contact.FullName
	}
	item.Photos = make([]customerPhotoJSON, 0, len(cr.Photos))
	for _, p := range cr.Photos {
		item.Photos = append(item.Photos, customerPhotoJSON{ID: p.ID, Phase: p.Phase, Description: p.Description,
			TakenAt: localtime.JSON(p.TakenAt, loc), URL: handover.PhotoPath(p.ID, handover.PhotoLarge),
			ThumbURL: handover.PhotoPath(p.ID, handover.PhotoThumb)})
	}
	return item
}

// customerUpdateProfile is PUT /users/profile/update (nombre, email, telefono,
// language; JSON or form). A field not sent keeps its stored value; language is the
// account's (docs/languages.md#how-the-language-is-chosen), which ?lang= never changes.
func (s customerPages) customerUpdateProfile(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ReadTexts(w, r, "nombre", "email", "telefono", "language")
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	u := httpx.GuardedUser(r)
	if _, err := s.accounts.UpdateProfile(r.Context(), u.ID, account.ProfileChange{
		Nombre: f["nombre"], Email: f["email"], Telefono: f["telefono"], Language: f["language"],
	}); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, "msg.profile_updated")})
}

// customerChangePassword is PUT /users/profile/password (currentPassword,
// newPassword, confirmPassword; JSON or form). The caller's session survives; every
// other session of the account is ended.
func (s customerPages) customerChangePassword(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ReadTexts(w, r, "currentPassword", "newPassword", "confirmPassword")
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	u := httpx.GuardedUser(r)
	err = s.accounts.ChangePassword(r.Context(), u.ID, httpx.SessionToken(r), account.PasswordChange{
		Current: deref(f["currentPassword"]), New: deref(f["newPassword"]), Confirm: deref(f["confirmPassword"]),
	})
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, "msg.password_updated")})
}

// customerCancel is DELETE /users/profile/reservation/{id}/cancel.
func (s customerPages) customerCancel(w http.ResponseWriter, r *http.Request) {
	id, ok := customerReservationID(r)
	if !ok {
		s.WriteSuccessFalse(w, r, booking.ErrNotYours)
		return
	}
	res, err := s.booking.CustomerCancel(r.Context(), httpx.GuardedUser(r).ID, id)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": s.T(r, "msg.cancelled"),
		"id_reservation": res.ID, "status": string(res.Status),
	})
}

// customerEdit is PUT /users/profile/reservation/{id}/edit.
func (s customerPages) customerEdit(w http.ResponseWriter, r *http.Request) {
	id, ok := customerReservationID(r)
	if !ok {
		s.WriteSuccessFalse(w, r, booking.ErrNotYours)
		return
	}
	in, err := api.ReadCustomerEdit(w, r, s.cfg.Location)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	edited, err := s.booking.CustomerEdit(r.Context(), httpx.GuardedUser(r).ID, id, in)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": s.T(r, "msg.edited"), "total_price": edited.Reservation.TotalPrice,
	})
}

// customerReservationID reads {id}; a malformed id gets the same 403 as a missing one.
func customerReservationID(r *http.Request) (int64, bool) {
	return httpx.ParseID(r, "id")
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
