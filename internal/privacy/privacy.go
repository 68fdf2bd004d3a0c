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

// Eraser runs the erasure's one transaction (booking.Service.EraseCustomer): the
// refusals below, the bookings it cancels freed in the occupancy ledger
// (docs/capacity.md#what-counts) and the data erased.
type Eraser interface {
	EraseCustomer(ctx context.Context, customerID int64, asAccount bool) (store.ErasedCustomer, error)
}

// Service is the privacy operations.
type Service struct {
	store  *store.Store
	log    *slog.Logger
	now    func() time.Time
	photos PhotoFiles
	eraser Eraser
}

// Option adjusts a Service.
type Option func(*Service)

// WithPhotoFiles sets the hook that deletes photo files after an erasure.
func WithPhotoFiles(p PhotoFiles) Option { return func(s *Service) { s.photos = p } }

// WithEraser sets the operation that runs the erasure's transaction.
func WithEraser(e Eraser) Option { return func(s *Service) { s.eraser = e } }

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
var ErrUnknownCustomer = fault.Coded(fault.NotFound, "err.privacy.unknown_customer")

// Export reads the customer's data: account, consents, linked providers, vehicles,
// reservations with their contact, services, photos and the notifications sent
// about them. asAccount: the copy the account downloads itself, which holds only the
// reservations (and vehicles) the account sees; staff get the whole record.
func (s *Service) Export(ctx context.Context, customerID int64, asAccount bool) (Export, error) {
	out := Export{GeneratedAt: s.now()}
	var err error
	if out.Area, err = s.store.Customers().CustomerArea(ctx, customerID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return out, ErrUnknownCustomer
		}
		return out, fmt.Errorf("export customer %d: %w", customerID, err)
	}
	if asAccount { // the account's own copy lists what it sees (docs/privacy.md#who-sees-a-booking)
		out.Area = reservation.SeenArea(out.Area)
	}
	if out.Extras, err = s.store.Privacy().PrivacyExtras(ctx, customerID); err != nil {
		return out, fmt.Errorf("export customer %d: %w", customerID, err)
	}
	if out.Controller, err = s.store.Catalog().Facility(ctx); err != nil {
		return out, fmt.Errorf("export customer %d: %w", customerID, err)
	}
	return out, nil
}

// Erase anonymises a customer's personal data at once (GDPR art. 17), in one
// transaction (store.EraseCustomer says what changes): reservations and receipts
// stay for accounting (the law keeps them six years) without the person's name,
// email or phone. Refused for staff accounts, for a customer whose vehicle is in
// the car park (EN CURSO: it must still be handed back), and when already done.
// The transaction is the Eraser's (WithEraser, required to erase); photo files are
// deleted after commit through the PhotoFiles hook. asAccount: the
// account erases itself, and the bookings on its record that it does not see
// (docs/privacy.md#who-sees-a-booking) are someone else's: they are moved first to a
// record of their own, which keeps the phone, and are neither cancelled nor blanked.
// Staff erase the whole record.
func (s *Service) Erase(ctx context.Context, customerID int64, asAccount bool) (store.ErasedCustomer, error) {
	out, err := s.eraser.EraseCustomer(ctx, customerID, asAccount)
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
