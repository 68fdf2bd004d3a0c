// Package privacy carries out the data-protection rights of customers (GDPR arts.
// 15, 17 and 20; docs/privacy.md): the export of everything held about a customer
// and the erasure of their personal data, for the customer themselves or for staff
// acting on a guest's request. Each operation is one transaction.
package privacy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"parking/internal/fault"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
)

// PhotoFiles deletes the stored files of uploaded vehicle photos. Erasure deletes
// the photos' rows in its transaction and then hands their storage keys to it;
// booking.Service provides it over the photo storage (docs/photos.md). Photos given
// as URLs have no files of ours to delete.
type PhotoFiles interface {
	DeletePhotoFiles(ctx context.Context, keys []string) error
}

// Occupancy frees, in the erasure's transaction, the days of the bookings it
// cancels (docs/capacity.md#what-counts: the occupancy ledger moves with every reservation change).
type Occupancy interface {
	ReleaseCustomerPending(ctx context.Context, tx *store.Tx, customerID int64) error
}

// Service is the privacy operations.
type Service struct {
	store  *store.Store
	log    *slog.Logger
	now    func() time.Time
	photos PhotoFiles
	occ    Occupancy
}

// Option adjusts a Service.
type Option func(*Service)

// WithPhotoFiles sets the hook that deletes photo files after an erasure.
func WithPhotoFiles(p PhotoFiles) Option { return func(s *Service) { s.photos = p } }

// WithOccupancy sets the hook that frees the cancelled bookings' days.
func WithOccupancy(o Occupancy) Option { return func(s *Service) { s.occ = o } }

// New builds the service.
func New(st *store.Store, log *slog.Logger, opts ...Option) *Service {
	s := &Service{store: st, log: log, now: st.Clock()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Export is everything held about one customer (GDPR arts. 15 and 20).
type Export struct {
	GeneratedAt time.Time
	Controller  settings.Facility // who holds the data
	Area        reservation.CustomerArea
	Extras      store.PrivacyExtras
}

// ErrUnknownCustomer: no customer has that id.
var ErrUnknownCustomer = fault.New(fault.NotFound, "No existe ese cliente.")

// Export reads the customer's data: account, consents, linked providers, vehicles,
// reservations with their contact, services, photos and the notifications sent
// about them. asAccount: the copy the account downloads itself, which holds only the
// reservations (and vehicles) the account sees; staff get the whole record.
func (s *Service) Export(ctx context.Context, customerID int64, asAccount bool) (Export, error) {
	out := Export{GeneratedAt: s.now()}
	var err error
	if out.Area, err = s.store.CustomerArea(ctx, customerID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return out, ErrUnknownCustomer
		}
		return out, fmt.Errorf("export customer %d: %w", customerID, err)
	}
	if asAccount { // the account's own copy lists what it sees (docs/privacy.md#who-sees-a-booking)
		out.Area = reservation.SeenArea(out.Area)
	}
	if out.Extras, err = s.store.PrivacyExtras(ctx, customerID); err != nil {
		return out, fmt.Errorf("export customer %d: %w", customerID, err)
	}
	if out.Controller, err = s.store.Facility(ctx); err != nil {
		return out, fmt.Errorf("export customer %d: %w", customerID, err)
	}
	return out, nil
}

// Messages of the erasure refusals.
const (
	MsgEraseStaff      = "Las cuentas del personal no se eliminan desde aquí."
	MsgEraseInProgress = "Hay un vehículo de este cliente en el aparcamiento. Los datos podrán eliminarse cuando se recoja."
	MsgEraseDone       = "Los datos de este cliente ya se eliminaron."
)

// Erase anonymises a customer's personal data at once (GDPR art. 17), in one
// transaction (store.EraseCustomer says what changes): reservations and receipts
// stay for accounting (the law keeps them six years) without the person's name,
// email or phone. Refused for staff accounts, for a customer whose vehicle is in
// the car park (EN CURSO: it must still be handed back), and when already done.
// Photo files are deleted after commit through the PhotoFiles hook. asAccount: the
// account erases itself, and the bookings on its record that it does not see
// (docs/privacy.md#who-sees-a-booking) are someone else's: they are moved first to a
// record of their own, which keeps the phone, and are neither cancelled nor blanked.
// Staff erase the whole record.
func (s *Service) Erase(ctx context.Context, customerID int64, asAccount bool) (store.ErasedCustomer, error) {
	var out store.ErasedCustomer
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Customer(ctx, customerID)
		if errors.Is(err, store.ErrNotFound) {
			return ErrUnknownCustomer
		}
		if err != nil {
			return err
		}
		if c.Type == reservation.Admin {
			return fault.New(fault.Forbidden, MsgEraseStaff)
		}
		if erased, err := tx.CustomerErased(ctx, customerID); err != nil || erased {
			if err != nil {
				return err
			}
			return fault.New(fault.Conflict, MsgEraseDone)
		}
		holder, err := detachUnseen(ctx, tx, c, asAccount)
		if err != nil {
			return err
		}
		busy, err := tx.CustomerHasStayInProgress(ctx, customerID)
		if err != nil {
			return err
		}
		if busy {
			return fault.New(fault.Conflict, MsgEraseInProgress)
		}
		if s.occ != nil {
			if err := s.occ.ReleaseCustomerPending(ctx, tx, customerID); err != nil {
				return err
			}
		}
		if out, err = tx.EraseCustomer(ctx, customerID); err != nil {
			return err
		}
		if holder != 0 { // the erasure freed the phone: the bookings' record takes it
			return tx.SetCustomerPhone(ctx, holder, *c.Phone)
		}
		return nil
	})
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return out, err
		}
		return out, fmt.Errorf("erase customer %d: %w", customerID, err)
	}
	s.log.InfoContext(ctx, "customer personal data erased", "id_customer", customerID,
		"reservations", out.Reservations, "cancelled", out.Cancelled, "vehicles", out.Vehicles, "photos", len(out.PhotoFiles))
	if len(out.PhotoFiles) > 0 && s.photos != nil {
		if err := s.photos.DeletePhotoFiles(ctx, out.PhotoFiles); err != nil {
			// The rows are gone; a file left behind is logged for staff to remove.
			s.log.ErrorContext(ctx, "photo files of an erased customer not deleted", "id_customer", customerID, "err", err)
		}
	}
	return out, nil
}

// detachUnseen moves the bookings on account c's record that it does not see to a
// new record (store.DetachReservations) and returns that record's id, 0 if none.
func detachUnseen(ctx context.Context, tx *store.Tx, c reservation.Customer, asAccount bool) (int64, error) {
	if !asAccount || c.Phone == nil {
		return 0, nil
	}
	rs, err := tx.UnclaimedReservationsOf(ctx, c.ID)
	if err != nil {
		return 0, err
	}
	var unseen []reservation.Reservation
	for _, r := range rs {
		if !reservation.SeenBy(r, c) {
			unseen = append(unseen, r)
		}
	}
	if len(unseen) == 0 {
		return 0, nil
	}
	return tx.DetachReservations(ctx, unseen, reservation.ContactOf(unseen[0], c).FullName)
}
