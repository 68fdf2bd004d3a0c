package booking

import (
	"context"
	"strings"

	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/i18n"
	"parking/internal/localtime"
	"parking/internal/reservation"
)

// WalkIn creates a booking for a customer at the counter (spec, POST
// /admin/reservations/new): the same atomic creation as the public booking, with
// entry defaulting to now, an optional exit (priced for one day until set), and an
// optional spot, which must be free over the stay. Blank phone or plate and a plate
// registered with another vehicle type are refused (docs/errors.md#refusals-by-operation: administrator
// walk-in), each with its own message.
func (s *Service) WalkIn(ctx context.Context, in NewBooking, opts ...CreateOption) (Created, error) {
	if strings.TrimSpace(in.Phone) == "" {
		return Created{}, fault.Coded(fault.Invalid, "err.booking.walkin_phone", "Field", i18n.FieldName("phone"))
	}
	if strings.TrimSpace(in.LicensePlate) == "" {
		return Created{}, fault.Coded(fault.Invalid, "err.booking.walkin_plate", "Field", i18n.FieldName("license_plate"))
	}
	c, err := s.Create(ctx, WalkIn, in, opts...)
	if err != nil {
		return c, err
	}
	if c.Reservation.Spot != nil {
		s.report.publishParking(feed.SpotChanged, c.Reservation, nil)
	}
	return c, nil
}

// PastExitWarning is what staff are told about a walk-in whose exit has already
// passed: it is accepted (a stay typed in after the fact), but said aloud,
// since a wrong date typed at the counter looks the same. "" when there is nothing
// to say (no exit, or still ahead, or the car is already in or gone).
func (s *Service) PastExitWarning(r reservation.Reservation) string {
	if r.Status != reservation.Pending || r.Exit == nil || !r.Exit.Before(s.now()) {
		return ""
	}
	return "Atención: la fecha de salida (" + localtime.Spanish(*r.Exit, s.loc) + ") ya ha pasado. Revise las fechas si no es una estancia registrada a posteriori."
}
