package booking

import (
	"context"
	"errors"
	"fmt"

	"parking/internal/fault"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

// enqueue records the notification of kind for reservation id inside tx, the
// transaction of the change that triggers it (CONTRACT §9); the dispatcher is woken
// once tx commits. original is the reservation before the change, taken with
// captureOriginal earlier in the same transaction; only reservation_modified needs
// it (pass nil otherwise). Call it once per trigger, as the last step of the
// operation's transaction, so the payload shows the committed state:
//
//	start:         return s.enqueue(ctx, tx, notify.VehicleEntry, id, nil)
//	finalize:      return s.enqueue(ctx, tx, notify.Invoice, id, nil)
//	customer edit: orig, err := s.captureOriginal(ctx, tx, id) // before the update
//	               …update…
//	               return s.enqueue(ctx, tx, notify.ReservationModified, id, orig)
func (s *Service) enqueue(ctx context.Context, tx *store.Tx, kind notify.Kind, id int64, original *notify.Original) error {
	if _, err := s.outbox.Enqueue(ctx, tx, kind, id, notify.Options{Original: original}); err != nil {
		return fmt.Errorf("enqueue %s for reservation %d: %w", kind, id, err)
	}
	return nil
}

// captureOriginal snapshots reservation id as tx sees it now, for the "original"
// object of a later reservation_modified in the same transaction.
func (s *Service) captureOriginal(ctx context.Context, tx *store.Tx, id int64) (*notify.Original, error) {
	return s.outbox.Capture(ctx, tx, id)
}

// RequestInvoice enqueues an invoice notification for a reservation on an
// administrator's request (POST /admin/reservations/{id}/invoice, CONTRACT §7):
// unknown id → NotFound; a CANCELADA reservation has nothing to invoice → Invalid.
// The invoice shows status PAID or PENDING as the reservation stands.
func (s *Service) RequestInvoice(ctx context.Context, id int64) error {
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := tx.Reservation(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fault.New(fault.NotFound, "La reserva %d no existe.", id)
		}
		if err != nil {
			return err
		}
		if r.Status == reservation.Cancelled {
			return fault.Invalidf("La reserva %d está CANCELADA: no se puede emitir la factura.", id)
		}
		return s.enqueue(ctx, tx, notify.Invoice, id, nil)
	})
	if err != nil {
		return fmt.Errorf("request invoice of reservation %d: %w", id, err)
	}
	return nil
}

// NotificationHistory lists a reservation's notifications, oldest first, in the
// detail record's form (CONTRACT §9); an unknown reservation has an empty history.
func (s *Service) NotificationHistory(ctx context.Context, reservationID int64) ([]notify.HistoryItem, error) {
	rows, err := s.store.NotificationHistory(ctx, reservationID)
	if err != nil {
		return nil, err
	}
	return notify.History(rows, s.loc), nil
}
