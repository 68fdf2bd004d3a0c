package booking

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/receipt"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
)

// notifier records, inside an operation's transaction, the notifications it
// triggers (docs/notifications.md#delivery): the outbox, and the catalog snapshot
// that names a new booking's services.
type notifier struct {
	outbox  *notify.Outbox
	catalog *pricing.Holder
}

// enqueue records the notification of kind for reservation id inside tx, the
// transaction of the change that triggers it (docs/notifications.md#delivery); the dispatcher is woken
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
func (s *notifier) enqueue(ctx context.Context, tx *store.Tx, kind notify.Kind, id int64, original *notify.Original) error {
	if _, err := s.outbox.Enqueue(ctx, tx, kind, id, notify.Options{Original: original}); err != nil {
		return fmt.Errorf("enqueue %s for reservation %d: %w", kind, id, err)
	}
	return nil
}

// enqueueBooked enqueues the booking confirmation of a reservation Create has just
// inserted, from what Create already holds rather than reading it back: the
// reservation (with its contact, the payload's cliente), customer and vehicle as
// stored, and the names of the main service and extras from the catalog snapshot it
// was priced with. An online booking's confirmation shows the vehicle as the booker
// typed it: it goes to the email they typed, which must not learn a stored
// vehicle's brand, model or colour (docs/public-booking.md#privacy-of-anonymous-bookings).
// facility is the reminder's car park read before the transaction (notify.Outbox.BookingFacility).
func (s *notifier) enqueueBooked(ctx context.Context, tx *store.Tx, ch Channel, c Created, extras []store.BookedExtra, facility *notify.FacilityData) error {
	sub := store.NotificationSubject{Reservation: c.Reservation, Customer: c.Customer, Vehicle: c.Vehicle}
	if ch == Public {
		sub.Vehicle = c.Typed
	}
	snap := s.catalog.Load()
	if snap == nil {
		return pricingFault(pricing.ErrNotLoaded) // Create priced with it: cannot happen
	}
	if m, ok := snap.MainService(c.Reservation.MainServiceID); ok {
		sub.MainServiceName = m.Name
	}
	sub.Extras = make([]reservation.BookedExtraDetail, 0, len(extras))
	for _, e := range extras {
		d := reservation.BookedExtraDetail{ID: e.ID, Price: e.Price}
		if x, ok := snap.Extra(e.ID); ok {
			d.Name = x.Name
		}
		sub.Extras = append(sub.Extras, d)
	}
	// The order a read gives (store.ReservationExtras): by id.
	sort.Slice(sub.Extras, func(i, j int) bool { return sub.Extras[i].ID < sub.Extras[j].ID })
	// The confirmation, and the reminder the day before (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder;
	// none for a booking made less than 24 hours ahead), in the booking's own transaction and one insert.
	if err := s.outbox.EnqueueBooked(ctx, tx, sub, notify.Options{Facility: facility}); err != nil {
		return fmt.Errorf("enqueue booking_confirmation for reservation %d: %w", c.Reservation.ID, err)
	}
	return nil
}

// bookerSubject reads what a notification about reservation id is built from, for
// its contact: an online booking made without signing in as its customer goes to
// the email its booker typed, which must not learn a stored vehicle's brand, model
// or colour (docs/public-booking.md#privacy-of-anonymous-bookings), so the vehicle shows its plate and type only.
func (s *notifier) bookerSubject(ctx context.Context, tx *store.Tx, id int64) (store.NotificationSubject, error) {
	sub, err := tx.Outbox().NotificationSubject(ctx, id)
	if err != nil {
		return sub, err
	}
	if sub.Reservation.BookedBy == reservation.BookedPublic {
		sub.Vehicle = reservation.Vehicle{ID: sub.Vehicle.ID, LicensePlate: sub.Vehicle.LicensePlate, Type: sub.Vehicle.Type}
	}
	return sub, nil
}

// syncReminder moves or drops reservation id's reminder after a change to its
// dates or status, in the change's transaction (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder, notify.SyncReminder).
func (s *notifier) syncReminder(ctx context.Context, tx *store.Tx, id int64) error {
	sub, err := s.bookerSubject(ctx, tx, id)
	if err != nil {
		return err
	}
	if err := s.outbox.SyncReminder(ctx, tx, sub); err != nil {
		return fmt.Errorf("reminder of reservation %d: %w", id, err)
	}
	return nil
}

// captureOriginal snapshots reservation id as tx sees it now, for the "original"
// object of a later reservation_modified in the same transaction.
func (s *notifier) captureOriginal(ctx context.Context, tx *store.Tx, id int64) (*notify.Original, error) {
	return s.outbox.Capture(ctx, tx, id)
}

// RequestInvoice enqueues an invoice notification for a reservation on an
// administrator's request (POST /admin/reservations/{id}/invoice, docs/notifications.md#manual-invoice):
// unknown id → NotFound; a CANCELADA reservation has nothing to invoice → Invalid.
// The invoice shows status PAID or PENDING as the reservation stands.
func (s *Service) RequestInvoice(ctx context.Context, id int64) error {
	return s.requestInvoice(ctx, id, nil)
}

// RequestFullInvoice is RequestInvoice for a full invoice (factura completa,
// docs/receipts.md#full-invoice-factura-completa) with the customer's tax id, name and address (name empty: the
// reservation's contact). The data are kept for the receipt of the finalize (F1);
// a reservation already finalized with a simplified receipt gets a full invoice
// in its place now (F3: a new number, the simplified receipt stays as issued). A
// full invoice already issued to other data is a Conflict: changing it needs a
// corrective invoice, which the service does not issue.
func (s *Service) RequestFullInvoice(ctx context.Context, id int64, to receipt.Recipient) error {
	var err error
	if to.TaxID, err = input.TaxID("tax_id", to.TaxID); err != nil {
		return err
	}
	if to.Name = strings.TrimSpace(to.Name); to.Name != "" {
		if to.Name, err = input.Name("name", to.Name); err != nil {
			return err
		}
	}
	if to.Address, err = input.Text("address", to.Address, settings.MaxAddress); err != nil {
		return err
	}
	if to.Address == "" {
		return fault.Coded(fault.Invalid, "err.booking.address_required", "Field", i18n.FieldName("address"))
	}
	return s.requestInvoice(ctx, id, &to)
}

func (s *Service) requestInvoice(ctx context.Context, id int64, to *receipt.Recipient) error {
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		if !reservation.For(r.Status).RequestBill {
			return fault.Coded(fault.Invalid, "err.booking.invoice_cancelled", "ID", id)
		}
		if err := auditReservation(ctx, tx, audit.ActionInvoiceRequest, id, nil, audit.F("notification", string(notify.Invoice))); err != nil {
			return err
		}
		if to != nil {
			if err := s.fullInvoice(ctx, tx, r, *to); err != nil {
				return err
			}
		}
		return s.notes.enqueue(ctx, tx, notify.Invoice, id, nil)
	})
	if err != nil {
		return fmt.Errorf("request invoice of reservation %d: %w", id, err)
	}
	return nil
}

// fullInvoice records the customer's data for a full invoice of r and, when r is
// already finalized, issues it (see RequestFullInvoice).
func (s *Service) fullInvoice(ctx context.Context, tx *store.Tx, r reservation.Reservation, to receipt.Recipient) error {
	if to.Name == "" {
		c, err := tx.Customers().Customer(ctx, r.CustomerID)
		if err != nil {
			return err
		}
		to.Name = reservation.ContactOf(r, c).FullName
	}
	if r.Status != reservation.Finalized {
		return tx.Receipts().SaveInvoiceRecipient(ctx, r.ID, to)
	}
	list, err := tx.Receipts().ReservationReceipts(ctx, r.ID)
	if err != nil {
		return err
	}
	if len(list) > 0 {
		cur := list[len(list)-1]
		if cur.Kind.IsFull() {
			if *cur.Recipient == to {
				return nil // asked again: the same invoice is sent again
			}
			return fault.Coded(fault.Conflict, "err.booking.invoice_issued",
				"ID", r.ID, "Number", cur.Number, "Name", cur.Recipient.Name, "TaxID", cur.Recipient.TaxID)
		}
		if err := tx.Receipts().SaveInvoiceRecipient(ctx, r.ID, to); err != nil {
			return err
		}
		_, err := s.receipts.issueReceipt(ctx, tx, r.ID, receipt.Substitute, &to, cur.Number)
		return err
	}
	// Finalized before receipts were numbered: its first receipt is the full one.
	if err := tx.Receipts().SaveInvoiceRecipient(ctx, r.ID, to); err != nil {
		return err
	}
	_, err = s.receipts.issueAtFinalize(ctx, tx, r.ID)
	return err
}
