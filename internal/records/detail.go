package records

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/fault"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Detail is a reservation's full record (docs/reservations.md#reservation; administrator
// detail page): the reservation, its customer and vehicle, main service name,
// selected additional services with their booked prices, photos, notification
// history, and the whole catalog for the edit form's lists.
type Detail struct {
	Reservation     reservation.Reservation
	Customer        reservation.Customer
	Vehicle         reservation.Vehicle
	MainServiceName string
	Extras          []reservation.BookedExtraDetail
	Photos          []reservation.Photo
	Handovers       []reservation.Handover // at the start and at finalize (docs/photos.md)
	Notifications   []notify.HistoryItem
	Catalog         pricing.Catalog
	// CapacityOverrideAt: when staff accepted it over the capacity (docs/capacity.md#refusals).
	CapacityOverrideAt *time.Time
}

// EntryPhotos counts the entry photos: the ones the spec's five-photo rule counts
// (docs/receipts.md).
func (d Detail) EntryPhotos() int {
	n := 0
	for _, p := range d.Photos {
		if p.Phase != reservation.PhaseExit {
			n++
		}
	}
	return n
}

// Handover returns the hand-over record of phase, if one was made.
func (d Detail) Handover(phase string) (reservation.Handover, bool) {
	for _, h := range d.Handovers {
		if h.Phase == phase {
			return h, true
		}
	}
	return reservation.Handover{}, false
}

// Detail reads reservation id's full record; NotFound when there is none.
func (s *Service) Detail(ctx context.Context, id int64) (Detail, error) {
	var d Detail
	var err error
	d.Reservation, err = s.store.Reservations().Reservation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return d, fault.Coded(fault.NotFound, "err.records.not_found", "ID", id)
	}
	if err != nil {
		return d, err
	}
	r := d.Reservation
	if d.Customer, err = s.store.Customers().Customer(ctx, r.CustomerID); err != nil {
		return d, fmt.Errorf("detail of %d: %w", id, err)
	}
	if d.Vehicle, err = s.store.Customers().Vehicle(ctx, r.VehicleID); err != nil {
		return d, fmt.Errorf("detail of %d: %w", id, err)
	}
	if d.MainServiceName, err = s.store.Records().MainServiceName(ctx, r.MainServiceID); err != nil {
		return d, fmt.Errorf("detail of %d: %w", id, err)
	}
	if d.Extras, err = s.store.Reservations().ReservationExtras(ctx, id); err != nil {
		return d, err
	}
	if d.Photos, err = s.store.Handover().Photos(ctx, id); err != nil {
		return d, err
	}
	if d.Handovers, err = s.store.Handover().Handovers(ctx, id); err != nil {
		return d, err
	}
	if d.Notifications, err = s.NotificationHistory(ctx, id); err != nil {
		return d, err
	}
	if d.CapacityOverrideAt, err = s.store.Occupancy().CapacityOverrideAt(ctx, id); err != nil {
		return d, err
	}
	if snap := s.catalog.Load(); snap != nil {
		d.Catalog = snap.Catalog()
	}
	return d, nil
}

// NotificationHistory lists a reservation's notifications, oldest first, in the
// detail record's form (docs/notifications.md#history); an unknown reservation has an empty history.
func (s *Service) NotificationHistory(ctx context.Context, reservationID int64) ([]notify.HistoryItem, error) {
	rows, err := s.store.Outbox().NotificationHistory(ctx, reservationID)
	if err != nil {
		return nil, err
	}
	return notify.History(rows, s.loc), nil
}
