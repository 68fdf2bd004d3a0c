package receipt

import (
	"encoding/csv"
	"io"
	"strconv"
)

// CSVHeader names the columns of WriteCSV: the chain position, the fingerprinted
// fields under the AEAT's names, the record's own fingerprint, the reservation and
// the QR address.
var CSVHeader = []string{"seq", "IDEmisorFactura", "NumSerieFactura", "FechaExpedicionFactura", "TipoFactura",
	"CuotaTotal", "ImporteTotal", "Huella", "FechaHoraHusoGenRegistro", "HuellaRegistro", "id_reservation", "qr_url"}

// WriteCSV writes the records of chain (in chain order) as CSV, one per receipt.
func WriteCSV(w io.Writer, chain []Receipt, qrBase string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, r := range chain {
		if err := cw.Write([]string{strconv.FormatInt(r.Record.Seq, 10), r.Record.IssuerID, r.Number, r.Record.IssueDate,
			string(r.Kind), r.Totals.VAT.String(), r.Totals.Total.String(), r.Record.PrevHash, r.Record.GeneratedAt,
			r.Record.Hash, strconv.FormatInt(r.ReservationID, 10), QRURL(qrBase, r)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
