package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parking/internal/fault"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/receipt"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Receipts (docs/receipts.md#the-vat-arithmetic): a FINALIZADA reservation has a receipt, issued in the
// finalize transaction with the next number of the year's series and the next
// place in the VeriFactu chain; the seller's identity and the VAT rate are the
// facility settings at that moment, and the receipt keeps them whatever the
// settings say later.

// issuer issues receipts inside the transaction that finalizes or invoices a
// reservation; its dates are the facility's (loc).
type issuer struct {
	loc *time.Location
}

// sellerOf is the facility's identity and VAT rate (basis points) as tx sees them.
func sellerOf(ctx context.Context, tx *store.Tx) (receipt.Seller, int, error) {
	f, err := tx.Catalog().Facility(ctx)
	if err != nil {
		return receipt.Seller{}, 0, fmt.Errorf("facility settings: %w", err)
	}
	return receipt.Seller{Name: f.Name, TaxID: f.TaxID, Address: f.Address}, f.VATBasisPoints, nil
}

// issueReceipt issues the receipt of the reservation id (FINALIZADA) inside tx:
// kind F2, or F1 when the customer's tax id was given before (a full invoice);
// replaces is the simplified receipt an F3 takes the place of.
func (s *issuer) issueReceipt(ctx context.Context, tx *store.Tx, id int64, kind receipt.Kind, recipient *receipt.Recipient, replaces string) (receipt.Receipt, error) {
	sub, err := tx.Outbox().NotificationSubject(ctx, id)
	if err != nil {
		return receipt.Receipt{}, err
	}
	seller, rate, err := sellerOf(ctx, tx)
	if err != nil {
		return receipt.Receipt{}, err
	}
	r := receipt.Receipt{
		Year: tx.Now.In(s.loc).Year(), ReservationID: id, Kind: kind, Seller: seller,
		Recipient: recipient, Replaces: replaces, VATRate: rate,
	}
	if m := sub.Reservation.PaymentMethod; m != nil {
		r.PaymentMethod = string(*m)
	}
	descs, amounts := receiptConcepts(sub, s.loc)
	parts, totals := receipt.Split(amounts, rate)
	for i, p := range parts {
		r.Lines = append(r.Lines, receipt.Line{Description: descs[i], Part: p})
	}
	r.Totals = totals
	return tx.Receipts().IssueReceipt(ctx, r, s.loc)
}

// receiptConcepts are the receipt's lines: the stay (the stored total less the
// extras at their booked prices: the price rule's base amount, so the lines add up
// to what was charged whatever the catalog says today), then each extra. A late car
// charged its real stay (docs/exit.md#overstay) shows the booked stay at its booked
// price and the excess on a line of its own.
func receiptConcepts(sub store.NotificationSubject, loc *time.Location) ([]string, []money.Cents) {
	res := sub.Reservation
	stay := res.TotalPrice - res.Excess()
	for _, e := range sub.Extras {
		stay -= e.Price
	}
	desc := sub.MainServiceName
	switch {
	case res.BookedExit != nil:
		desc = fmt.Sprintf("%s · %s de estancia reservada", sub.MainServiceName, daysText(pricing.ChargedDays(res.Entry, *res.BookedExit)))
	case res.Exit != nil:
		desc = fmt.Sprintf("%s · %s de estancia", sub.MainServiceName, daysText(pricing.ChargedDays(res.Entry, *res.Exit)))
	}
	descs, amounts := []string{desc}, []money.Cents{stay}
	for _, e := range sub.Extras {
		descs = append(descs, e.Name)
		amounts = append(amounts, e.Price)
	}
	if x := res.Excess(); x > 0 && res.Exit != nil {
		descs = append(descs, fmt.Sprintf("Exceso de estancia: salida el %s (%s en total)",
			res.Exit.In(loc).Format("02/01/2006 15:04"), daysText(pricing.ChargedDays(res.Entry, *res.Exit))))
		amounts = append(amounts, x)
	}
	return descs, amounts
}

// daysText is a number of days in words: "1 día", "5 días".
func daysText(n int64) string {
	if n == 1 {
		return "1 día"
	}
	return fmt.Sprintf("%d días", n)
}

// notIssued is the refusal for a reservation that has no receipt yet.
func notIssued(id int64, status reservation.Status) error {
	return fault.Coded(fault.Conflict, "err.booking.receipt_not_issued", "ID", id, "Status", status.Word(), "Required", reservation.Finalized.Word())
}

// Receipt is the current receipt of a reservation: the full invoice that replaced
// its simplified receipt if there is one, else the receipt of its finalize.
// Unknown id: NotFound; not FINALIZADA: Conflict. A reservation finalized before
// receipts were numbered gets its receipt now, once (under the reservation's lock).
func (s *Service) Receipt(ctx context.Context, id int64) (receipt.Receipt, error) {
	list, err := s.store.Receipts().ReservationReceipts(ctx, id)
	if err != nil {
		return receipt.Receipt{}, err
	}
	if len(list) > 0 {
		return list[len(list)-1], nil
	}
	var out receipt.Receipt
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		if r.Status != reservation.Finalized {
			return notIssued(id, r.Status)
		}
		list, err := tx.Receipts().ReservationReceipts(ctx, id)
		if err != nil || len(list) > 0 {
			if len(list) > 0 {
				out = list[len(list)-1]
			}
			return err
		}
		out, err = s.receipts.issueAtFinalize(ctx, tx, id)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("receipt of reservation %d: %w", id, err)
	}
	return out, nil
}

// issueAtFinalize issues the finalize receipt: a full invoice (F1) when the
// customer's tax id was recorded before, else a simplified one (F2).
func (s *issuer) issueAtFinalize(ctx context.Context, tx *store.Tx, id int64) (receipt.Receipt, error) {
	rec, err := tx.Receipts().InvoiceRecipient(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return s.issueReceipt(ctx, tx, id, receipt.Simplified, nil, "")
	case err != nil:
		return receipt.Receipt{}, err
	}
	return s.issueReceipt(ctx, tx, id, receipt.Full, &rec, "")
}

// ReceiptChain is every receipt in chain order (the VeriFactu export; check it
// with receipt.Verify).
func (s *Service) ReceiptChain(ctx context.Context) ([]receipt.Receipt, error) {
	return s.store.Receipts().ReceiptChain(ctx, 1, 0)
}
