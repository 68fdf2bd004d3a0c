package booking

import (
	"context"
	"errors"
	"time"

	"parking/internal/fault"
	"parking/internal/reservation"
	"parking/internal/store"
)

// spots keeps a parking spot to one stay at a time: the checks before a spot is
// given or a holder's dates move, and their refusals in the facility's zone.
type spots struct {
	store *store.Store
	loc   *time.Location
}

// ensureSpotFree refuses, inside tx, to give spot to reservation id (0 for a new one)
// over the stay [entry, exit) when a reservation that is not terminal already holds
// it over an overlapping stay (issue 4: spots are physical; an open exit overlaps
// everything after its entry). The refusal is a Conflict naming the other
// reservation. Every operation that sets a spot or moves the dates of a reservation
// holding one calls it before writing: walk-in, administrator update, and the
// customer edit (which keeps the spot but may move the dates).
func (s *spots) ensureSpotFree(ctx context.Context, tx *store.Tx, id int64, spot string, entry time.Time, exit *time.Time) error {
	if spot == "" {
		return nil
	}
	if err := tx.Reservations().LockSpot(ctx, spot); err != nil {
		return err
	}
	h, err := tx.Reservations().SpotConflict(ctx, spot, entry, exit, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.spotTaken(spot, h, nil)
}

// spotTaken is the refusal naming the reservation that holds the spot.
func (s *spots) spotTaken(spot string, h store.SpotHolder, cause error) error {
	if h.Exit == nil {
		return coded(fault.Conflict, cause, "err.booking.spot_taken_open", "Spot", spot, "ID", h.ID, "Entry", h.Entry.In(s.loc))
	}
	return coded(fault.Conflict, cause, "err.booking.spot_taken", "Spot", spot, "ID", h.ID, "Entry", h.Entry.In(s.loc), "Exit", h.Exit.In(s.loc))
}

// spotViolation turns PostgreSQL's exclusion-constraint refusal (SQLSTATE 23P01,
// reservation_spot_no_overlap) into the same Conflict, for a writer that reached
// the database without ensureSpotFree; other errors pass through.
func (s *spots) spotViolation(ctx context.Context, err error, id int64, spot string, entry time.Time, exit *time.Time) error {
	if err == nil || !store.IsExclusionViolation(err) {
		return err
	}
	if h, qerr := s.store.Reservations().SpotConflict(ctx, spot, entry, exit, id); qerr == nil {
		return s.spotTaken(spot, h, err)
	}
	return coded(fault.Conflict, err, "err.booking.spot_taken_other", "Spot", spot)
}

// keepSpotFree is ensureSpotFree for an edit that keeps r's spot but may move its
// dates (the customer's edit): the refusal does not name the other reservation,
// which belongs to someone else.
func (s *spots) keepSpotFree(ctx context.Context, tx *store.Tx, r reservation.Reservation, entry time.Time, exit *time.Time) error {
	if r.Spot == nil {
		return nil
	}
	err := s.ensureSpotFree(ctx, tx, r.ID, *r.Spot, entry, exit)
	if fault.KindOf(err) == fault.Conflict {
		return coded(fault.Conflict, err, "err.booking.spot_clash")
	}
	return err
}
