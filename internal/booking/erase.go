package booking

import (
	"context"
	"errors"

	"parking/internal/fault"
	"parking/internal/privacy"
	"parking/internal/reservation"
	"parking/internal/store"
)

// EraseCustomer is the transaction of a customer's erasure (privacy.Service.Erase
// says the rules; store.EraseCustomer what changes): the refusals checked, the
// bookings the account does not see moved to a record of their own when asAccount,
// the days of the PENDIENTE bookings it cancels freed (docs/capacity.md#what-counts),
// the data erased. The erased photos' files are the caller's to delete after it.
func (s *Service) EraseCustomer(ctx context.Context, customerID int64, asAccount bool) (store.ErasedCustomer, error) {
	var out store.ErasedCustomer
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Customers().Customer(ctx, customerID)
		if errors.Is(err, store.ErrNotFound) {
			return privacy.ErrUnknownCustomer
		}
		if err != nil {
			return err
		}
		if c.Type == reservation.Admin {
			return fault.Coded(fault.Forbidden, "err.booking.erase_staff")
		}
		if erased, err := tx.Privacy().CustomerErased(ctx, customerID); err != nil || erased {
			if err != nil {
				return err
			}
			return fault.Coded(fault.Conflict, "err.booking.erase_done")
		}
		holder, err := detachUnseen(ctx, tx, c, asAccount)
		if err != nil {
			return err
		}
		busy, err := tx.Privacy().CustomerHasStayInProgress(ctx, customerID)
		if err != nil {
			return err
		}
		if busy {
			return fault.Coded(fault.Conflict, "err.booking.erase_in_progress")
		}
		if err := s.releaseCustomerPending(ctx, tx, customerID); err != nil {
			return err
		}
		if out, err = tx.Privacy().EraseCustomer(ctx, customerID); err != nil {
			return err
		}
		if holder != 0 { // the erasure freed the phone: the bookings' record takes it
			return tx.Customers().SetCustomerPhone(ctx, holder, *c.Phone)
		}
		return nil
	})
	return out, err
}

// releaseCustomerPending frees, in tx, the days of a customer's PENDIENTE bookings,
// which the erasure is about to cancel in bulk: the ledger moves with the
// reservations (docs/capacity.md#what-counts).
func (s *Service) releaseCustomerPending(ctx context.Context, tx *store.Tx, customerID int64) error {
	pending, err := tx.Reservations().PendingReservationsOf(ctx, customerID)
	if err != nil {
		return err
	}
	for _, r := range pending {
		after := stayOf(r)
		after.Active = false
		if err := s.occupy(ctx, tx, r.ID, stayOf(r), after, noCheck, false); err != nil {
			return err
		}
	}
	return nil
}

// detachUnseen moves the bookings on account c's record that it does not see to a
// new record (store.DetachReservations) and returns that record's id, 0 if none.
func detachUnseen(ctx context.Context, tx *store.Tx, c reservation.Customer, asAccount bool) (int64, error) {
	if !asAccount || c.Phone == nil {
		return 0, nil
	}
	rs, err := tx.Customers().UnclaimedReservationsOf(ctx, c.ID)
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
	return tx.Customers().DetachReservations(ctx, unseen, reservation.ContactOf(unseen[0], c).FullName)
}
