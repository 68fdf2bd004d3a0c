// Package gate is the arrival and exit of cars seen by plate-recognition cameras
// (docs/gate.md): staff register the cameras, each camera sends the plates it reads
// with its own token, and the answer says whether the barrier opens. An arrival
// marks the reservation (arrived_at) without starting the stay. Every event is kept
// 90 days. Each operation is one transaction.
package gate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"parking/internal/account"
	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Limits and windows of docs/gate.md.
const (
	// EventsPerMinute is how many events one camera may send in a minute.
	EventsPerMinute = 120
	// ArrivalWindow: an arrival matches a booking whose entry is this close to it.
	ArrivalWindow = 24 * time.Hour
	// Retention is how long events are kept.
	Retention = 90 * 24 * time.Hour
	// clockSkew: a check-out up to this long after the event still counts (the
	// camera's clock and the service's are not one).
	clockSkew = 5 * time.Minute
	// MaxDeviceName bounds a camera's name.
	MaxDeviceName = 100
	// ListLimit is how many events the list shows.
	ListLimit = 200
)

// Service is the gate's operations.
type Service struct {
	store   *store.Store
	log     *slog.Logger
	now     func() time.Time
	loc     *time.Location
	arrived func(reservation.Reservation) // tells the boards, after commit
}

// New builds the gate's operations. loc reads an event's time without an offset;
// arrived (may be nil) is told of each arrival after its transaction commits.
func New(st *store.Store, log *slog.Logger, loc *time.Location, arrived func(reservation.Reservation)) *Service {
	if arrived == nil {
		arrived = func(reservation.Reservation) {}
	}
	return &Service{store: st, log: log, now: st.Clock(), loc: loc, arrived: arrived}
}

// Device is a registered camera; Token is set only in the answer to its
// registration (it is stored only as a hash).
type Device struct {
	ID        int64
	Name      string
	CreatedAt time.Time
	Token     string
}

// RegisterDevice registers a camera named name and returns it with its token.
func (s *Service) RegisterDevice(ctx context.Context, name string) (Device, error) {
	name, err := input.Name("name", name)
	if err == nil {
		err = input.Length("name", name, MaxDeviceName)
	}
	if err != nil {
		return Device{}, err
	}
	token, hash := account.NewToken()
	var d store.GateDevice
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if d, err = tx.Gate().InsertDevice(ctx, name, hash); err != nil {
			return err
		}
		return tx.Audit(ctx, audit.Entry{Action: audit.ActionCreate, Entity: audit.EntityGateDevice, EntityID: audit.ID(d.ID),
			Changes: audit.Compare(nil, audit.F("name", name))})
	})
	if err != nil {
		return Device{}, err
	}
	return Device{ID: d.ID, Name: d.Name, CreatedAt: d.CreatedAt, Token: token}, nil
}

// DeleteDevice removes a camera: its token stops working at once; its events stay.
func (s *Service) DeleteDevice(ctx context.Context, id int64) error {
	return s.store.InTx(ctx, func(tx *store.Tx) error {
		d, err := tx.Gate().DeleteDevice(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fault.Coded(fault.NotFound, "err.gate.device_not_found", "ID", id)
		}
		if err != nil {
			return err
		}
		return tx.Audit(ctx, audit.Entry{Action: audit.ActionDelete, Entity: audit.EntityGateDevice, EntityID: audit.ID(id),
			Changes: audit.Compare(audit.F("name", d.Name), nil)})
	})
}

// Devices lists the cameras, oldest first.
func (s *Service) Devices(ctx context.Context) ([]Device, error) {
	list, err := s.store.Gate().Devices(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Device, len(list))
	for i, d := range list {
		out[i] = Device{ID: d.ID, Name: d.Name, CreatedAt: d.CreatedAt}
	}
	return out, nil
}

// Events lists the newest events (at most ListLimit).
func (s *Service) Events(ctx context.Context) ([]store.GateEvent, error) {
	return s.store.Gate().Events(ctx, ListLimit)
}

// SweepEvents deletes the events older than Retention (the hourly sweep).
func (s *Service) SweepEvents(ctx context.Context) (int64, error) {
	return s.store.Gate().PruneEvents(ctx, s.now().Add(-Retention))
}

// Authenticate returns the camera a bearer token belongs to; fault.Unauthorized
// when none does.
func (s *Service) Authenticate(ctx context.Context, token string) (Device, error) {
	if token == "" {
		return Device{}, fault.Coded(fault.Unauthorized, "err.gate.token")
	}
	d, err := s.store.Gate().DeviceByToken(ctx, account.HashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return Device{}, fault.Coded(fault.Unauthorized, "err.gate.token")
	}
	if err != nil {
		return Device{}, err
	}
	return Device{ID: d.ID, Name: d.Name, CreatedAt: d.CreatedAt}, nil
}

// Read is an event as a camera sent it.
type Read struct {
	Plate, Direction string
	At               *string // nil: now
}

// Outcome names the answer's message (docs/gate.md#answers).
type Outcome string

const (
	Arrived   Outcome = "arrived"    // in: the booking is marked arrived
	NoBooking Outcome = "no_booking" // in: no booking of the plate near that time
	Paid      Outcome = "paid"       // out: checked out within the grace
	NotPaid   Outcome = "not_paid"   // out: the stay is still open (not paid)
	NoExit    Outcome = "no_exit"    // out: nothing lets the car out
)

// Answer is the gate's answer to one event.
type Answer struct {
	Event       store.GateEvent
	Outcome     Outcome
	Reservation *reservation.Reservation
	Plate       string // the reservation's plate (canonical), when there is one
}

// Event handles one plate read by camera d: it checks the read, applies the
// direction's rule, keeps the event and answers, in one transaction.
func (s *Service) Event(ctx context.Context, d Device, in Read) (Answer, error) {
	plate, err := input.Plate("plate", in.Plate)
	if err != nil {
		return Answer{}, err
	}
	if in.Direction != "in" && in.Direction != "out" {
		return Answer{}, fault.Coded(fault.Invalid, "err.gate.direction", "Field", i18n.FieldName("direction"), "Value", in.Direction)
	}
	at := s.now()
	if in.At != nil {
		if at, err = parseAt(*in.At, s.loc); err != nil {
			return Answer{}, err
		}
	}
	ctx = audit.WithActor(ctx, audit.Actor{Kind: audit.KindSystem, Name: "cámara " + d.Name})
	var a Answer
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		a = Answer{}
		n, oldest, err := tx.Gate().RecentEvents(ctx, d.ID, tx.Now.Add(-time.Minute))
		if err != nil {
			return err
		}
		if n >= EventsPerMinute {
			wait := oldest.Add(time.Minute).Sub(tx.Now)
			refusal := fault.Coded(fault.TooMany, "err.gate.too_many", "Max", EventsPerMinute)
			refusal.Err = &account.ThrottledError{RetryAfter: max(wait, time.Second)} // Retry-After
			return refusal
		}
		if in.Direction == "in" {
			err = s.arrive(ctx, tx, plate, at, &a)
		} else {
			err = s.leave(ctx, tx, plate, at, &a)
		}
		if err != nil {
			return err
		}
		e := store.GateEvent{DeviceID: d.ID, Plate: plate, Direction: in.Direction, At: at,
			Open: a.Outcome == Arrived || a.Outcome == Paid}
		if a.Reservation != nil {
			e.ReservationID = &a.Reservation.ID
			a.Plate = plate
		}
		a.Event, err = tx.Gate().InsertEvent(ctx, e)
		return err
	})
	if err != nil {
		return Answer{}, err
	}
	if a.Outcome == Arrived {
		s.arrived(*a.Reservation)
	}
	return a, nil
}

// arrive applies the "in" rule: the PENDIENTE booking of the plate whose entry is
// nearest to at, within ArrivalWindow, is marked arrived (the first arrival is kept).
func (s *Service) arrive(ctx context.Context, tx *store.Tx, plate string, at time.Time, a *Answer) error {
	list, err := tx.Gate().Arriving(ctx, plate, at.Add(-ArrivalWindow), at.Add(ArrivalWindow))
	if err != nil || len(list) == 0 {
		a.Outcome = NoBooking
		return err
	}
	best := list[0]
	for _, r := range list[1:] {
		if r.Entry.Sub(at).Abs() < best.Entry.Sub(at).Abs() {
			best = r
		}
	}
	a.Outcome, a.Reservation = Arrived, &best
	if best.ArrivedAt != nil {
		return nil
	}
	if _, err := tx.Gate().MarkArrived(ctx, best.ID, at); err != nil {
		return err
	}
	stamp := at.UTC()
	best.ArrivedAt = &stamp
	return tx.Audit(ctx, audit.Entry{Action: audit.ActionArrived, Entity: audit.EntityReservation, EntityID: audit.ID(best.ID),
		ReservationID: best.ID, Changes: audit.Compare(nil, audit.F("arrived_at", stamp.Format(time.RFC3339)))})
}

// leave applies the "out" rule: a stay checked out within the exit grace opens; an
// open (EN CURSO) stay does not, as it is not paid; nothing else opens.
func (s *Service) leave(ctx context.Context, tx *store.Tx, plate string, at time.Time, a *Answer) error {
	f, err := tx.Catalog().Facility(ctx)
	if err != nil {
		return err
	}
	grace := time.Duration(f.ExitGraceMinutes) * time.Minute
	list, err := tx.Gate().Leaving(ctx, plate, at.Add(-grace), at.Add(clockSkew))
	if err != nil {
		return err
	}
	a.Outcome = NoExit
	for i := range list {
		r := &list[i]
		switch {
		case r.Status == reservation.Finalized:
			a.Outcome, a.Reservation = Paid, r
			return nil
		case r.Status == reservation.InCourse && a.Outcome == NoExit:
			a.Outcome, a.Reservation = NotPaid, r
		}
	}
	return nil
}

// parseAt reads an event's time: RFC 3339, or a local time in the facility's zone.
func parseAt(v string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil && t.Year() >= 2000 && t.Year() <= 2200 {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil && t.Year() >= 2000 && t.Year() <= 2200 {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fault.Coded(fault.Invalid, "err.gate.at", "Field", i18n.FieldName("at"), "Value", fmt.Sprint(v))
}
