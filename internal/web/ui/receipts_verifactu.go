package ui

import (
	"net/http"

	"parking/internal/receipt"
	"parking/internal/web/httpx"
)

// adminVerifactuRecords is GET /admin/verifactu/records: every receipt's VeriFactu
// registro de alta in chain order, with the chain's verification (receipt.Verify),
// as JSON {"valid","error","count","records":[…]}; ?format=csv gives the same
// records as CSV for a spreadsheet or an archive. Sending them to the AEAT is a
// later step (docs/receipts.md).
func (s receiptPages) adminVerifactuRecords(w http.ResponseWriter, r *http.Request) {
	list, err := s.booking.ReceiptChain(r.Context())
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	broken := receipt.Verify(list)
	if r.URL.Query().Get("format") == "csv" {
		h := w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="verifactu-registros.csv"`)
		h.Set("Cache-Control", "no-store")
		if err := receipt.WriteCSV(w, list, s.qrBase()); err != nil {
			s.Log().WarnContext(r.Context(), "records export interrupted", "err", err)
		}
		return
	}
	type record struct {
		Number        string `json:"num_serie_factura"`
		ReservationID int64  `json:"id_reservation"`
		verifactuJSON
	}
	out := struct {
		Valid   bool     `json:"valid"`
		Error   *string  `json:"error"`
		Count   int      `json:"count"`
		Records []record `json:"records"`
	}{Valid: broken == nil, Count: len(list), Records: []record{}}
	if broken != nil {
		msg := broken.Error()
		out.Error = &msg
	}
	for _, rc := range list {
		out.Records = append(out.Records, record{Number: rc.Number, ReservationID: rc.ReservationID, verifactuJSON: s.verifactuOf(rc)})
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, out)
}
