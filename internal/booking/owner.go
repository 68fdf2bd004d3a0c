package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/ops"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/store"
)

// What every staff change of a reservation does, the same in the hand-over
// (internal/ops): lock the reservation, record its audit entry, and let a customer
// see only what its account sees.
type (
	customerReader = ops.CustomerReader
	access         = ops.Access
)

var (
	lockForAdmin     = ops.LockForAdmin
	auditReservation = ops.AuditReservation
	accountSees      = ops.AccountSees
)

// anyone is the access of a caller who proved it holds the booking (its manage token).
func anyone(context.Context, customerReader, reservation.Reservation) (bool, error) { return true, nil }

// CustomerDetail is the full record of a reservation the signed-in account sees
// (its receipt); any other, or a missing one, is ErrNotYours.
func (s *Service) CustomerDetail(ctx context.Context, customerID, id int64) (records.Detail, error) {
	d, err := s.records.Detail(ctx, id)
	if fault.KindOf(err) == fault.NotFound {
		return records.Detail{}, ErrNotYours
	}
	if err != nil {
		return records.Detail{}, err
	}
	if ok, err := accountSees(customerID)(ctx, s.store.Customers(), d.Reservation); err != nil {
		return records.Detail{}, err
	} else if !ok {
		return records.Detail{}, ErrNotYours
	}
	return d, nil
}

// CustomerArea is everything the customer's profile shows: the customer, and the
// reservations its account sees with their additional services and photos, and
// the vehicles of those (reservation.SeenArea; docs/customer-area.md). Reading
// it writes nothing: a booking is claimed by the operation that makes it qualify.
func (s *Service) CustomerArea(ctx context.Context, customerID int64) (reservation.CustomerArea, error) {
	area, err := s.store.Customers().CustomerArea(ctx, customerID)
	if err != nil {
		return area, err
	}
	return reservation.SeenArea(area), nil
}

// CustomerVehicles lists the vehicles the signed-in account sees (the booking page
// offers them): not the plate of a booking it does not see.
func (s *Service) CustomerVehicles(ctx context.Context, customerID int64) ([]reservation.Vehicle, error) {
	area, err := s.CustomerArea(ctx, customerID)
	return area.Vehicles, err
}

// ClaimBooking makes the booking of a reference the signed-in account's own, when the
// account proves it holds it with the booking's manage token (docs/customer-area.md#claim):
// the reservation moves to the account's record and is claimed, and its vehicle is
// linked to the account. Any mismatch is ErrNoBooking, counted and throttled as a
// failed lookup (per reference and per client address addr).
func (s *Service) ClaimBooking(ctx context.Context, customerID int64, rawRef, token, addr string) (reservation.Reservation, error) {
	ref, ok := input.ReferenceLookup(rawRef)
	if !ok { // malformed: refused by manageID, still counted against what was typed
		ref = strings.ToUpper(strings.TrimSpace(rawRef))
	}
	var out reservation.Reservation
	err := s.throttledLookup(ctx, ref, addr, func() error {
		id, err := s.manageID(ctx, rawRef, token)
		if err != nil {
			return err
		}
		return s.store.InTx(ctx, func(tx *store.Tx) error {
			if ok, err := tx.Customers().ClaimReservation(ctx, id, customerID); err != nil {
				return err
			} else if !ok {
				return ErrNoBooking
			}
			r, err := tx.Reservations().Reservation(ctx, id)
			if err != nil {
				return err
			}
			if err := tx.Customers().LinkCustomerVehicle(ctx, customerID, r.VehicleID); err != nil {
				return err
			}
			out = r
			return nil
		})
	})
	if err != nil {
		if errors.Is(err, ErrNoBooking) || fault.KindOf(err) != fault.Internal {
			return reservation.Reservation{}, err
		}
		return reservation.Reservation{}, fmt.Errorf("claim %s: %w", rawRef, err)
	}
	return out, nil
}
