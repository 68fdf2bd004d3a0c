package ui

import (
	"net/http"

	"parking/internal/web/httpx"
)

// adminRequestInvoice is POST /admin/reservations/{id}/invoice (CONTRACT §7): the
// invoice notification is queued for the webhook and the answer is 202 at once;
// delivery happens in the background and shows in the notification history.
func (s *Server) adminRequestInvoice(w http.ResponseWriter, r *http.Request) {
	id, err := reservationID(r)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	if err := s.booking.RequestInvoice(r.Context(), id); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusAccepted, map[string]any{
		"success": true,
		"message": "Factura solicitada. Su envío aparece en el historial de notificaciones de la reserva.",
	})
}
