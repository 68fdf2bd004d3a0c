// Package ops holds the little that the operation packages (booking, catalog,
// handover, records) share: the lock of a reservation for a staff change, its
// audit entry, the rule of which account sees a booking, and the announcements to
// the other instances. It sits below all of them and imports none, so each can use
// it without importing another (booking → catalog, handover, records; never back).
package ops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/reservation"
	"parking/internal/store"
)

// LockForAdmin reads reservation id for a change; NotFound when there is none.
func LockForAdmin(ctx context.Context, tx *store.Tx, id int64) (reservation.Reservation, error) {
	r, err := tx.Reservations().LockReservation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return r, fault.Coded(fault.NotFound, "err.ops.not_found", "ID", id)
	}
	return r, err
}

// AuditReservation records action on reservation id with the fields that changed
// between before and after (nil before: the reservation was created).
func AuditReservation(ctx context.Context, tx *store.Tx, action string, id int64, before, after audit.Fields) error {
	return tx.Audit(ctx, audit.Entry{
		Action: action, Entity: audit.EntityReservation, EntityID: audit.ID(id),
		ReservationID: id, Changes: audit.Compare(before, after),
	})
}

// CustomerReader reads a customer record: the store, or a transaction.
type CustomerReader interface {
	Customer(ctx context.Context, id int64) (reservation.Customer, error)
}

// Access decides whether a caller may act on reservation r, reading with q (the
// transaction the action runs in, when there is one).
type Access func(ctx context.Context, q CustomerReader, r reservation.Reservation) (bool, error)

// AccountSees is the access of the signed-in account customerID on every customer
// route: reservation.SeenBy, the one rule of who sees a booking
// (docs/privacy.md#who-sees-a-booking). Another customer's reservation is refused
// before the account is read.
func AccountSees(customerID int64) Access {
	return func(ctx context.Context, q CustomerReader, r reservation.Reservation) (bool, error) {
		if r.CustomerID != customerID {
			return false, nil
		}
		c, err := q.Customer(ctx, customerID)
		if err != nil {
			return false, fmt.Errorf("account %d: %w", customerID, err)
		}
		return reservation.SeenBy(r, c), nil
	}
}

// Signal is one message between instances (docs/deploy.md). Its JSON is the wire
// form; the domain event (feed.Event) carries no tags.
type Signal struct {
	Origin        string    `json:"o"` // the sending instance (Announcer.Origin): it has applied the change already
	Type          string    `json:"t"` // "board", "catalog" or "settings"
	Kind          string    `json:"k,omitempty"`
	ReservationID int64     `json:"r,omitempty"`
	Status        string    `json:"s,omitempty"`
	Spot          *string   `json:"p,omitempty"`
	PreviousSpot  *string   `json:"pp,omitempty"`
	At            time.Time `json:"at,omitzero"`
}

const (
	// SignalBoard: a change of the live parking board.
	SignalBoard = "board"
	// SignalCatalog: the catalog changed; the snapshot is read again.
	SignalCatalog = "catalog"
	// SignalSettings: the facility settings changed; the quote's copy is dropped.
	SignalSettings = "settings"
)

// signalTimeout bounds sending one signal after a commit.
const signalTimeout = 2 * time.Second

// Announcer sends this instance's signals. The lifecycle and the catalog share
// one, so that the instance has one origin and skips all its own announcements.
type Announcer struct {
	store  *store.Store
	log    *slog.Logger
	origin string
}

// NewAnnouncer names a new instance of the service.
func NewAnnouncer(st *store.Store, log *slog.Logger) *Announcer {
	return &Announcer{store: st, log: log, origin: newOrigin()}
}

// Origin names this instance in its announcements.
func (s *Announcer) Origin() string { return s.origin }

// Announce sends a signal to the other instances (this one hears it too, and
// skips it by its origin: it has already applied the change). A failure is
// logged: the change itself is committed, and the other instances' boards catch up
// at their next reload.
func (s *Announcer) Announce(m Signal) {
	m.Origin = s.origin
	b, err := json.Marshal(m)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), signalTimeout)
		defer cancel()
		err = s.store.Signal(ctx, string(b))
	}
	if err != nil {
		s.log.Warn("could not tell the other instances about a change", "type", m.Type, "err", err)
	}
}

// newOrigin names this instance in its announcements.
func newOrigin() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
