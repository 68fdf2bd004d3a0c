package ui

import (
	"net/http"

	"parking/internal/receipt"
	"parking/internal/web/httpx"
)

// adminRequestInvoice is POST /admin/reservations/{id}/invoice (docs/notifications.md#manual-invoice): the
// invoice notification is queued for the webhook and the answer is 202 at once;
// delivery happens in the background and shows in the notification history.
// With tax_id (and address, optionally name) in the body, JSON or form, it is a
// request for a full invoice (factura completa, docs/receipts.md#full-invoice-factura-completa): the answer also
// carries the reservation's receipt number once it has one.
func (s receiptPages) adminRequestInvoice(w http.ResponseWriter, r *http.Request) {
	id, in, ok := s.reservationInput(w, r)
	if !ok {
		return
	}
	texts, err := in.Texts("tax_id", "name", "address")
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	full := texts["tax_id"] != nil
	if full {
		err = s.booking.RequestFullInvoice(r.Context(), id, receipt.Recipient{TaxID: in.Str("tax_id"), Name: in.Str("name"), Address: in.Str("address")})
	} else {
		err = s.booking.RequestInvoice(r.Context(), id)
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	out := map[string]any{
		"success": true,
		"message": s.T(r, "msg.invoice_requested"),
	}
	if full {
		out["message"] = s.T(r, "msg.full_invoice_requested")
		var number any // null until the reservation is finalized
		if rc, err := s.booking.Receipt(r.Context(), id); err == nil {
			number = rc.Number
		}
		out["numero_factura"] = number
	}
	httpx.WriteJSON(w, http.StatusAccepted, out)
}
