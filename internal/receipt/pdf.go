package receipt

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"parking/internal/money"
)

// Fact is a labelled detail printed under the parties (plate, stay dates…).
type Fact struct{ Label, Value string }

// PDF renders the receipt as an A4 PDF (github.com/go-pdf/fpdf): seller, customer
// (full invoices), the lines with base, VAT and total, the totals, the payment
// method, facts about the stay, and the VeriFactu QR code with its address. The
// core fonts take Windows-1252 text, which covers Spanish and the euro sign, so
// every string goes through fpdf's translator. Page content is left
// uncompressed: the file is small and its text can be searched as is.
//
// hand is the hand-over record (at the entry and at the exit), printed as a table
// under the lines, as the receipt page shows it; nil prints none.
func PDF(r Receipt, loc *time.Location, qrBase string, facts []Fact, hand []HandoverRow) ([]byte, error) {
	pdf, tr := newDocument(r.Kind.Label()+" "+r.Number, r.Seller.Name, r.IssuedAt)

	writeHeading(pdf, tr, r.Seller, r.Kind.Label(), "Nº "+r.Number, "Fecha: "+r.IssuedAt.In(loc).Format("02/01/2006 15:04"))
	if r.Replaces != "" {
		pdf.CellFormat(0, 5, tr("Sustituye a la factura simplificada "+r.Replaces), "", 1, "R", false, 0, "")
	}
	pdf.Ln(4)

	if r.Recipient != nil {
		pdf.SetFont("Helvetica", "B", 10)
		pdf.CellFormat(0, 5, tr("Cliente"), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 10)
		pdf.CellFormat(0, 5, tr(r.Recipient.Name), "", 1, "L", false, 0, "")
		pdf.CellFormat(0, 5, tr("NIF: "+r.Recipient.TaxID), "", 1, "L", false, 0, "")
		pdf.MultiCell(0, 5, tr(r.Recipient.Address), "", "L", false)
		pdf.Ln(2)
	}
	writeFacts(pdf, tr, facts)
	pdf.Ln(4)

	// Lines.
	w := []float64{84, 30, 30, 30}
	pdf.SetFont("Helvetica", "B", 9)
	pdf.SetFillColor(235, 238, 242)
	for i, h := range []string{"Concepto", "Base imponible", "IVA " + RateText(r.VATRate) + " %", "Importe"} {
		align := "R"
		if i == 0 {
			align = "L"
		}
		pdf.CellFormat(w[i], 7, tr(h), "B", 0, align, true, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont("Helvetica", "", 9)
	for _, l := range r.Lines {
		pdf.CellFormat(w[0], 6, tr(l.Description), "", 0, "L", false, 0, "")
		pdf.CellFormat(w[1], 6, tr(Euros(l.Base)), "", 0, "R", false, 0, "")
		pdf.CellFormat(w[2], 6, tr(Euros(l.VAT)), "", 0, "R", false, 0, "")
		pdf.CellFormat(w[3], 6, tr(Euros(l.Total)), "", 1, "R", false, 0, "")
	}
	pdf.SetFont("Helvetica", "B", 10)
	pdf.CellFormat(w[0], 7, tr("Total"), "T", 0, "L", false, 0, "")
	pdf.CellFormat(w[1], 7, tr(Euros(r.Totals.Base)), "T", 0, "R", false, 0, "")
	pdf.CellFormat(w[2], 7, tr(Euros(r.Totals.VAT)), "T", 0, "R", false, 0, "")
	pdf.CellFormat(w[3], 7, tr(Euros(r.Totals.Total)), "T", 1, "R", false, 0, "")
	pdf.Ln(2)
	pdf.SetFont("Helvetica", "", 9)
	pdf.CellFormat(0, 5, tr("Precios con IVA incluido. Forma de pago: "+orDash(r.PaymentMethod)), "", 1, "L", false, 0, "")
	pdf.Ln(6)
	if len(hand) > 0 {
		writeHandovers(pdf, tr, hand)
		pdf.Ln(6)
	}

	// VeriFactu: the QR code and its address, above the record's fingerprint.
	png, err := QRPNG(qrBase, r, 256)
	if err != nil {
		return nil, err
	}
	pdf.RegisterImageOptionsReader("qr", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(png))
	y := pdf.GetY()
	pdf.ImageOptions("qr", 18, y, 35, 35, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	pdf.SetXY(58, y+2)
	pdf.SetFont("Helvetica", "B", 9)
	pdf.CellFormat(0, 5, tr("QR tributario"), "", 2, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 7)
	pdf.MultiCell(0, 3.5, tr(QRURL(qrBase, r)), "", "L", false)
	pdf.SetX(58)
	pdf.MultiCell(0, 3.5, tr("Huella del registro: "+r.Record.Hash), "", "L", false)
	return finish(pdf, "receipt "+r.Number)
}

// HandoverRow is one hand-over of the vehicle as printed: the moment (entry or
// exit, with its time), the mileage, the fuel or charge level and the damage noted.
type HandoverRow struct {
	Label, When, Mileage, Fuel, Damage string
}

// newDocument starts an A4 PDF with the documents' common settings: metadata,
// margins, the first page, and the translator every string goes through.
func newDocument(title, author string, at time.Time) (*fpdf.Fpdf, func(string) string) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(false)
	pdf.SetTitle(title, true)
	pdf.SetAuthor(author, true)
	pdf.SetCreationDate(at)
	pdf.SetModificationDate(at)
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	pdf.SetMargins(18, 18, 18)
	pdf.AddPage()
	return pdf, tr
}

// writeHeading prints a document's heading: the seller (name, tax id, address) on
// the left; the document's title, its number and note ("" for none) on the right.
func writeHeading(pdf *fpdf.Fpdf, tr func(string) string, seller Seller, title, number, note string) {
	pdf.SetFont("Helvetica", "B", 14)
	pdf.CellFormat(100, 7, tr(seller.Name), "", 0, "L", false, 0, "")
	pdf.SetFont("Helvetica", "B", 12)
	pdf.CellFormat(0, 7, tr(title), "", 1, "R", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	pdf.CellFormat(100, 5, tr("NIF: "+orDash(seller.TaxID)), "", 0, "L", false, 0, "")
	pdf.SetFont("Helvetica", "B", 11)
	pdf.CellFormat(0, 5, tr(number), "", 1, "R", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	pdf.CellFormat(100, 5, tr(orDash(seller.Address)), "", 0, "L", false, 0, "")
	pdf.CellFormat(0, 5, tr(note), "", 1, "R", false, 0, "")
}

// writeFacts prints labelled details, one a line.
func writeFacts(pdf *fpdf.Fpdf, tr func(string) string, facts []Fact) {
	for _, f := range facts {
		pdf.SetFont("Helvetica", "B", 9)
		pdf.CellFormat(35, 5, tr(f.Label), "", 0, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 9)
		pdf.MultiCell(0, 5, tr(f.Value), "", "L", false)
	}
}

// writeHandovers prints the hand-over table: one row per hand-over.
func writeHandovers(pdf *fpdf.Fpdf, tr func(string) string, hand []HandoverRow) {
	pdf.SetFont("Helvetica", "B", 10)
	pdf.CellFormat(0, 6, tr("Entrega y recogida del vehículo"), "", 1, "L", false, 0, "")
	w := []float64{62, 26, 32, 54}
	pdf.SetFont("Helvetica", "B", 9)
	pdf.SetFillColor(235, 238, 242)
	for i, h := range []string{"Momento", "Kilometraje", "Combustible o carga", "Daños"} {
		pdf.CellFormat(w[i], 7, tr(h), "B", 0, "L", true, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont("Helvetica", "", 9)
	for _, h := range hand {
		pdf.CellFormat(w[0], 6, tr(h.Label), "", 0, "L", false, 0, "")
		pdf.CellFormat(w[1], 6, tr(h.Mileage), "", 0, "L", false, 0, "")
		pdf.CellFormat(w[2], 6, tr(h.Fuel), "", 0, "L", false, 0, "")
		pdf.MultiCell(w[3], 6, tr(h.Damage), "", "L", false)
		pdf.SetFont("Helvetica", "", 7)
		pdf.CellFormat(0, 4, tr(h.When), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 9)
	}
}

// finish checks the document for errors and writes it out.
func finish(pdf *fpdf.Fpdf, what string) ([]byte, error) {
	if err := pdf.Error(); err != nil {
		return nil, fmt.Errorf("PDF of %s: %w", what, err)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("PDF of %s: %w", what, err)
	}
	return buf.Bytes(), nil
}

// Euros formats an amount the Spanish way: 1234.5 → "1.234,50 €".
func Euros(c money.Cents) string {
	s := c.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(d)
	}
	out := b.String() + "," + frac + " €"
	if neg {
		out = "-" + out
	}
	return out
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
