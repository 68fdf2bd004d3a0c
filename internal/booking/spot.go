package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/fault"
	"parking/internal/localtime"
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
	until := "sin fecha de salida"
	if h.Exit != nil {
		until = "hasta el " + localtime.Spanish(*h.Exit, s.loc)
	}
	return &fault.Error{Kind: fault.Conflict, Err: cause, Message: fmt.Sprintf(
		"La plaza %s ya está asignada a la reserva %d (desde el %s, %s) en fechas que se solapan.",
		spot, h.ID, localtime.Spanish(h.Entry, s.loc), until)}
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
	return &fault.Error{Kind: fault.Conflict, Err: err,
		Message: "La plaza " + spot + " ya está asignada a otra reserva en fechas que se solapan."}
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
		return &fault.Error{Kind: fault.Conflict, Err: err,
			Message: "Las nuevas fechas coinciden con otra reserva en la misma plaza de aparcamiento; elija otras fechas o contacte con el aparcamiento."}
	}
	return err
}
