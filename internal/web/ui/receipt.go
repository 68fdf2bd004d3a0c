package ui

import (
	"net/http"
	"strconv"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// The printable receipt of a finalized reservation: GET
// /admin/reservations/details/{id}/receipt for staff, and GET
// /users/profile/reservation/{id}/receipt for the customer who owns it (spec,
// Authentication 6: the owner check, 403 otherwise). The amounts are the stored
// ones: each additional service at the price it was booked with, and the stay as
// the rest of the stored total (the price rule's base amount, already rounded), so
// the lines always add up to the total charged, whatever the catalog says today.
// A reservation that is not FINALIZADA has no receipt: 409 with the reason.

// facilityName heads the receipt.
const facilityName = "Parking Aeropuerto"

// receiptView is the data of receipt.html.
type receiptView struct {
	Facility      string
	ID            int64
	Reference     string // K7Q2-M9XD (CONTRACT §11)
	Issued        string
	CustomerName  string
	Phone         string
	Email         string
	Plate         string
	Vehicle       string
	Color         string
	TypeLabel     string
	Entry         string
	Exit          string
	Days          int64
	Spot          string
	ServiceName   string
	ServiceAmount string
	Extras        []receiptLine
	Total         string
	Payment       string
	Paid          bool
	BackHref      string
	BackLabel     string
}

// receiptOf builds the receipt of d, or refuses when d is not finalized.
func (s *Server) receiptOf(d booking.Detail) (receiptView, error) {
	res := d.Reservation
	if res.Status != reservation.Finalized {
		return receiptView{}, fault.New(fault.Conflict,
			"La reserva %d está %s: el recibo solo se emite cuando la reserva está FINALIZADA (vehículo recogido y pagado).", res.ID, res.Status)
	}
	ct := reservation.ContactOf(res, d.Customer) // as the invoice notification (CONTRACT §9)
	v := receiptView{
		Facility: facilityName, ID: res.ID, Reference: reservation.ShowReference(res.Reference), Issued: s.shortTime(s.now()),
		CustomerName: ct.FullName, Phone: deref(ct.Phone), Email: deref(ct.Email),
		Plate: d.Vehicle.LicensePlate, Vehicle: vehicleDescription(d.Vehicle.Brand, d.Vehicle.Model),
		TypeLabel: vehicleTypeLabel(d.Vehicle.Type), Entry: s.shortTime(res.Entry), Exit: s.optTime(res.Exit),
		Spot: deref(res.Spot), ServiceName: d.MainServiceName, Total: euros(res.TotalPrice), Paid: res.IsPaid,
	}
	if d.Vehicle.Color != reservation.DefaultColor {
		v.Color = d.Vehicle.Color
	}
	if res.Exit != nil {
		v.Days = pricing.ChargedDays(res.Entry, *res.Exit)
	}
	if res.PaymentMethod != nil {
		v.Payment = string(*res.PaymentMethod)
	}
	var extras money.Cents
	for _, e := range d.Extras {
		extras += e.Price
		v.Extras = append(v.Extras, receiptLine{Name: e.Name, Price: euros(e.Price)})
	}
	v.ServiceAmount = euros(res.TotalPrice - extras)
	return v, nil
}

// adminReceipt is GET /admin/reservations/details/{id}/receipt.
func (s *Server) adminReceipt(w http.ResponseWriter, r *http.Request) {
	id, err := reservationID(r)
	back := "/admin/history"
	if err == nil {
		back = "/admin/reservations/details/" + strconv.FormatInt(id, 10)
		var d booking.Detail
		if d, err = s.booking.Detail(r.Context(), id); err == nil {
			var v receiptView
			if v, err = s.receiptOf(d); err == nil {
				v.BackHref, v.BackLabel = back, "Volver a la reserva"
				s.render(w, r, http.StatusOK, "receipt.html", "Recibo de la reserva nº "+strconv.FormatInt(id, 10), v)
				return
			}
		}
	}
	s.renderError(w, r, err, "Recibo no disponible", back, "Volver a la reserva")
}

// customerReceipt is GET /users/profile/reservation/{id}/receipt: the owner's
// receipt. Another customer's reservation, or a missing one, is 403 (spec,
// Authentication 6), without saying which.
func (s *Server) customerReceipt(w http.ResponseWriter, r *http.Request) {
	u := httpx.MustUser(r)
	notYours := fault.New(fault.Forbidden, "Esta reserva no existe o no es suya.")
	id, ok := customerReservationID(r)
	if !ok {
		s.renderError(w, r, notYours, "Recibo no disponible", "/users/profile", "Volver a mi cuenta")
		return
	}
	d, err := s.booking.Detail(r.Context(), id)
	if fault.KindOf(err) == fault.NotFound || (err == nil && d.Reservation.CustomerID != u.ID) {
		err = notYours
	}
	var v receiptView
	if err == nil {
		v, err = s.receiptOf(d)
	}
	if err != nil {
		s.renderError(w, r, err, "Recibo no disponible", "/users/profile", "Volver a mi cuenta")
		return
	}
	v.BackHref, v.BackLabel = "/users/profile", "Volver a mi cuenta"
	s.render(w, r, http.StatusOK, "receipt.html", "Recibo de la reserva nº "+strconv.FormatInt(id, 10), v)
}
