package ui

import (
	"net/http"
	"strconv"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// Administrator reservation routes (docs/admin.md).
// They answer JSON to scripts and to clients that ask for it; browsers get the pages
// (reservations_detail_page.go, reservations_walkin_page.go) and, for their form posts, redirects
// back to a page (browserForm). Refusals to JSON clients use
// {success:false, message} with the status of the fault: 400 a broken rule,
// 404 an unknown reservation, 409 a clash with stored data (spot taken, phone used).

// reservationPages are the administrators' reservation routes: the walk-in, the
// detail page and its actions (edit, start, finalize, checkout, cancel) and the
// photo post, which answers with the hand-over's upload (handoverPages).
type reservationPages struct{ *base }

func (s reservationPages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/reservations/new", s.adminWalkInForm)
	admin("POST /admin/reservations/new", s.adminWalkIn)
	admin("GET /admin/customers/known", s.adminKnownCustomer) // the walk-in form's lookup (reservations_walkin_page.go)
	admin("GET /admin/reservations/details/{id}", s.adminDetails)
	admin("POST /admin/reservations/{id}/edit", s.adminEdit)
	admin("PATCH /admin/reservations/{id}/start", s.adminStart)
	admin("PATCH /admin/reservations/{id}/finalize", s.adminFinalize)
	admin("GET /admin/reservations/{id}/{view}", s.adminCheckout) // {view} = checkout (docs/exit.md#checkout-preview)
	admin("PATCH /admin/reservations/{id}/cancel", s.adminCancel)
}

// reservationID reads the {id} path value; anything but a positive integer names
// no reservation (404).
func reservationID(r *http.Request) (int64, error) {
	return httpx.PathID(r, "id", httpx.PathReservation)
}

// reservationInput reads the reservation id of the path and the body (JSON or
// form); false when either is bad, and the refusal has been answered.
func (s *base) reservationInput(w http.ResponseWriter, r *http.Request) (int64, httpx.Input, bool) {
	id, err := reservationID(r)
	if err == nil {
		var in httpx.Input
		if in, err = httpx.ReadInput(w, r); err == nil {
			return id, in, true
		}
	}
	s.WriteSuccessFalse(w, r, err)
	return 0, httpx.Input{}, false
}

// adminWalkInForm is GET /admin/reservations/new: the walk-in form for browsers;
// JSON clients get what the form needs — the whole catalog (inactive main services
// included: staff may use them) and the default entry date (now).
func (s reservationPages) adminWalkInForm(w http.ResponseWriter, r *http.Request) {
	if !httpx.WantsJSON(r) {
		s.renderWalkIn(w, r, http.StatusOK, httpx.Input{}, "")
		return
	}
	snap := s.catalog.Load()
	if snap == nil {
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"success": false, "message": s.Words(r, api.MsgCatalogNotLoaded)})
		return
	}
	cat := api.CatalogView(snap.Catalog(), true)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"main_services": cat.MainServices, "additional_services": cat.AdditionalServices,
		"vehicle_types": cat.VehicleTypes, "rates": cat.Rates,
		"entry_date": localtime.JSON(s.now(), s.cfg.Location),
	})
}

// adminWalkIn is POST /admin/reservations/new (form or JSON): the walk-in booking.
// 201 {success, message, data: {id_reservation, customer_name, license_plate,
// entry_date (es-ES text), total_price}} as the spec shows. A browser's form post
// (no script) gets 303 to the new reservation's page, or the form again with what
// was typed and the refusal.
//
// With an Idempotency-Key, the same key and body answer the first result again;
// the key with another body is 422 (docs/reliability.md; booking.Service.CreateOnce).
func (s reservationPages) adminWalkIn(w http.ResponseWriter, r *http.Request) {
	page := httpx.BrowserForm(r)
	key, hash, keyErr := httpx.ReadIdempotency(r)
	in, err := httpx.ReadInput(w, r)
	if err == nil {
		err = keyErr
	}
	if err != nil {
		s.walkInRefused(w, r, page, in, err)
		return
	}
	once := booking.Once{Route: "walk-in", Key: key, BodyHash: hash, Answer: func(c booking.Created) (booking.Answer, error) {
		if page {
			return booking.Answer{Status: http.StatusSeeOther, Location: walkInCreatedPage(c)}, nil
		}
		ct, body, err := httpx.JSONAnswer(s.walkInCreated(r, c))
		return booking.Answer{Status: http.StatusCreated, ContentType: ct, Body: body}, err
	}}
	created, stored, err := s.booking.CreateOnce(r.Context(), once, func(opts ...booking.CreateOption) (booking.Created, error) {
		nb, err := s.walkInBooking(in)
		if err != nil {
			return booking.Created{}, err
		}
		return s.booking.WalkIn(r.Context(), nb, opts...)
	})
	if err != nil {
		s.walkInRefused(w, r, page, in, err)
		return
	}
	if stored != nil {
		httpx.WriteStored(w, stored.Status, stored.ContentType, stored.Location, stored.Body)
		return
	}
	if page {
		httpx.SeeOther(w, r, walkInCreatedPage(created))
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, s.walkInCreated(r, created))
}

// walkInRefused answers a refused walk-in: the form again with what was typed and
// the refusal for a browser's form post, {success:false, message} otherwise (422 for
// an Idempotency-Key sent again with another body).
func (s reservationPages) walkInRefused(w http.ResponseWriter, r *http.Request, page bool, in httpx.Input, err error) {
	s.Fail(w, r, err, page, func(status int, msg string) { s.renderWalkIn(w, r, status, in, msg) })
}

// walkInBooking reads the walk-in form or body.
func (s reservationPages) walkInBooking(in httpx.Input) (booking.NewBooking, error) {
	nb := booking.NewBooking{
		FullName: in.Str("full_name"), Phone: in.Str("phone"), Email: in.Str("email"),
		LicensePlate: in.Str("license_plate"), Brand: in.Str("brand"), Model: in.Str("model"), Color: in.Str("color"),
		VehicleType: in.Str("vehicle_type"), Spot: in.Str("cod_parking_spot"), Notes: in.Str("notes"),
		Language: in.Str("language"), // the customer's, chosen by staff; "" is Spanish (docs/languages.md#the-bookings-language)
	}
	var err error
	if nb.Entry, err = httpx.ParseDateField("entry_date", in.Str("entry_date"), s.cfg.Location); err != nil {
		return nb, err
	}
	if nb.Exit, err = in.OptDate("exit_date", s.cfg.Location); err != nil {
		return nb, err
	}
	svc, err := in.OptInt("id_main_service")
	if err != nil {
		return nb, err
	}
	if svc != nil {
		nb.MainService = *svc
	}
	extras, err := in.IDs(in.First("additional_services", "extras"))
	if err != nil {
		return nb, err
	}
	if extras != nil {
		nb.Extras = *extras
	}
	nb.OverrideCapacity, err = overrideCapacity(in)
	return nb, err
}

// walkInCreatedPage is where a browser goes after a walk-in.
func walkInCreatedPage(c booking.Created) string {
	return "/admin/reservations/details/" + strconv.FormatInt(c.Reservation.ID, 10) + "?created=true"
}

// walkInCreated is the 201 body of a walk-in for JSON clients.
func (s reservationPages) walkInCreated(r *http.Request, created booking.Created) map[string]any {
	out := map[string]any{
		"success": true,
		"message": s.Words(r, "msg.created"),
		"data": map[string]any{
			"id_reservation": created.Reservation.ID,
			"reference":      reservation.ShowReference(created.Reservation.Reference), // docs/manage-booking.md#booking-reference
			"customer_name":  created.Contact.FullName,                                 // the reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings)
			"license_plate":  created.Vehicle.LicensePlate,
			"entry_date":     localtime.Spanish(created.Reservation.Entry, s.cfg.Location),
			"total_price":    created.Reservation.TotalPrice,
		},
	}
	// Accepted, but staff are told: the exit has already passed.
	if w := s.booking.PastExitWarning(created.Reservation); w != "" {
		out["warning"] = w
	}
	return out
}

// adminDetails is GET /admin/reservations/details/{id}: the detail page for
// browsers, the full record for JSON clients (docs/errors.md#json-on-web-routes).
func (s reservationPages) adminDetails(w http.ResponseWriter, r *http.Request) {
	page := !httpx.WantsJSON(r)
	id, err := reservationID(r)
	if err == nil {
		var d records.Detail
		if d, err = s.records.Detail(r.Context(), id); err == nil {
			if page {
				s.renderDetailPage(w, r, d)
			} else {
				httpx.WriteJSON(w, http.StatusOK, s.adminDetail(d))
			}
			return
		}
	}
	if page {
		s.renderError(w, r, err, "error.reservation_not_found", "/admin/history", "back.go_history")
		return
	}
	s.WriteSuccessFalse(w, r, err)
}

// adminEdit is POST /admin/reservations/{id}/edit, the update of the detail page
// (docs/errors.md#operation-responses). A browser form gets 303 to the detail page with ?updated=true, or
// with ?error=<message> when refused; a JSON client (JSON body, or Accept preferring
// JSON) gets 200 {success, message, reservation, customer, vehicle, repriced} or the
// refusal's status with {success:false, message}.
func (s reservationPages) adminEdit(w http.ResponseWriter, r *http.Request) {
	id, err := reservationID(r)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	in, err := httpx.ReadInput(w, r)
	jsonClient := httpx.WantsJSON(r) || httpx.IsJSONBody(r) || in.IsJSON()
	var up booking.Updated
	if err == nil {
		var c booking.AdminChange
		if c, err = s.adminChange(in); err == nil {
			up, err = s.booking.AdminUpdate(r.Context(), id, c)
		}
	}
	if err != nil {
		s.FailBack(w, r, err, !jsonClient, "/admin/reservations/details/"+strconv.FormatInt(id, 10), "")
		return
	}
	if !jsonClient {
		httpx.SeeOther(w, r, "/admin/reservations/details/"+strconv.FormatInt(id, 10)+"?updated=true")
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success":     true,
		"message":     s.Words(r, "msg.updated"),
		"reservation": s.adminReservation(up.Reservation),
		"customer":    adminCustomer(up.Customer),
		"vehicle":     vehicleView(up.Vehicle),
		"repriced":    up.Repriced,
	})
}

// adminChange maps the update's fields (spec: customer full name, phone, email;
// vehicle brand, model, color, type; reservation entry, exit, main service,
// additional services, cod_parking_spot) to a booking.AdminChange. Only the fields
// sent change. A form that lets staff untick every additional service must send the
// field anyway (a hidden empty additional_services input), or the selection is kept.
func (s reservationPages) adminChange(in httpx.Input) (booking.AdminChange, error) {
	c := booking.AdminChange{
		FullName: in.Opt("full_name"), Phone: in.Opt("phone"), Email: in.Opt("email"),
		LicensePlate: in.Opt("license_plate"),
		Brand:        in.Opt("brand"), Model: in.Opt("model"), Color: in.Opt("color"), VehicleType: in.Opt("vehicle_type"),
		Spot: in.Opt("cod_parking_spot"), Notes: in.Opt("notes"),
	}
	var err error
	if c.Entry, err = in.OptDate("entry_date", s.cfg.Location); err != nil {
		return c, err
	}
	if in.Has("exit_date") {
		c.ExitSet = true
		if c.Exit, err = in.OptDate("exit_date", s.cfg.Location); err != nil {
			return c, err
		}
	}
	if c.MainService, err = in.OptInt("id_main_service"); err != nil {
		return c, err
	}
	if c.Extras, err = in.IDs(in.First("additional_services", "extras")); err != nil {
		return c, err
	}
	if c.OverrideCapacity, err = overrideCapacity(in); err != nil {
		return c, err
	}
	return c, nil
}

// overrideCapacity reads override_capacity (docs/capacity.md#refusals: true, on or 1; the
// checkbox "Aceptar aunque esté completo" of the walk-in and update forms).
func overrideCapacity(in httpx.Input) (bool, error) {
	b, err := in.OptBool("override_capacity")
	return b != nil && *b, err
}

// adminTransition answers the three state changes alike (docs/errors.md#operation-responses): 200
// {success:true, message (done: its catalogue key), reservation}, or {success:false, message} with 400 (a
// rule broken) or 404 (unknown id).
func (s reservationPages) adminTransition(w http.ResponseWriter, r *http.Request, do func(id int64, in httpx.Input) (reservation.Reservation, error), done string) {
	id, in, ok := s.reservationInput(w, r)
	if !ok {
		return
	}
	res, err := do(id, in)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"success": true, "message": s.Words(r, done, "ID", id), "reservation": s.adminReservation(res),
	})
}

// adminStart is PATCH /admin/reservations/{id}/start (check-in).
func (s reservationPages) adminStart(w http.ResponseWriter, r *http.Request) {
	s.adminTransition(w, r, func(id int64, in httpx.Input) (reservation.Reservation, error) {
		h := handoverInput(in)
		var err error
		// Whether the keys were handed over: the entry document says so (docs/entry-document.md).
		if h.KeysHandedOver, err = in.Flag("keys_handed_over"); err != nil {
			return reservation.Reservation{}, err
		}
		// The check-in dialog sends the spot with the start (docs/reservations.md#check-in-on-a-phone).
		h.Spot = in.Str("cod_parking_spot")
		return s.booking.Start(r.Context(), id, h)
	}, "err.ui.reservation_started")
}

// adminFinalize is PATCH /admin/reservations/{id}/finalize (check-out) with
// paymentMethod EFECTIVO or TARJETA, in a JSON or form body; optionally
// checked_out_at (a check-out typed in after the fact) and expected_total (the
// amount staff were shown: another amount due is a 409 naming it,
// docs/exit.md#expected-total).
func (s reservationPages) adminFinalize(w http.ResponseWriter, r *http.Request) {
	s.adminTransition(w, r, func(id int64, in httpx.Input) (reservation.Reservation, error) {
		c := booking.CheckOutInput{Method: in.Str(in.First("paymentMethod", "payment_method")), Handover: handoverInput(in)}
		var err error
		if c.CheckedOutAt, err = in.OptDate("checked_out_at", s.cfg.Location); err != nil {
			return reservation.Reservation{}, err
		}
		if c.ExpectedTotal, err = in.OptCents("expected_total"); err != nil {
			return reservation.Reservation{}, err
		}
		return s.booking.CheckOut(r.Context(), id, c)
	}, "err.ui.reservation_finalized")
}

// adminCheckout is GET /admin/reservations/{id}/checkout (docs/exit.md#checkout-preview):
// what a finalize at this moment charges, by the finalize's own rule. The route is
// registered as /admin/reservations/{id}/{view} (the mux refuses a pattern that
// overlaps /admin/reservations/details/{id} without being more specific), so any
// other view is a 404.
func (s reservationPages) adminCheckout(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("view") != "checkout" {
		err := fault.Coded(fault.NotFound, "error.not_found_msg")

		if !httpx.WantsJSON(r) {
			s.renderError(w, r, err, "error.not_found", "/admin/dashboard", "back.dashboard")
			return
		}
		s.WriteSuccessFalse(w, r, err)
		return
	}
	id, err := reservationID(r)
	var c booking.ExitCharge
	if err == nil {
		c, err = s.booking.CheckoutPreview(r.Context(), id)
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, s.checkoutJSON(c))
}

// checkoutView is the wire form of an exit charge.
type checkoutView struct {
	Success        bool        `json:"success"`
	TotalPrice     money.Cents `json:"total_price"`
	BookedPrice    money.Cents `json:"booked_price"`
	Excess         money.Cents `json:"excess"`
	ExitDate       string      `json:"exit_date"`
	BookedExitDate *string     `json:"booked_exit_date"`
	Days           int64       `json:"days"`
	Overdue        bool        `json:"overdue"`
}

func (s reservationPages) checkoutJSON(c booking.ExitCharge) checkoutView {
	return checkoutView{Success: true, TotalPrice: c.Total, BookedPrice: c.BookedPrice, Excess: c.Excess(),
		ExitDate: localtime.JSON(c.Exit, s.cfg.Location), BookedExitDate: s.adminTime(c.BookedExit), Days: c.Days, Overdue: c.Overdue}
}

// adminCancel is PATCH /admin/reservations/{id}/cancel.
func (s reservationPages) adminCancel(w http.ResponseWriter, r *http.Request) {
	s.adminTransition(w, r, func(id int64, _ httpx.Input) (reservation.Reservation, error) {
		return s.booking.AdminCancel(r.Context(), id)
	}, "err.ui.reservation_cancelled")
}
