package receipt

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"parking/internal/i18n"
	"parking/internal/money"
)

// Fact is a labelled detail printed under the parties (plate, stay dates…).
// Name, when set, is the fact's Spanish label, its name in a page's data
// (data-entry-fact) whatever the language beside it.
type Fact struct{ Label, Value, Name string }

// PDF renders the receipt as an A4 PDF (github.com/go-pdf/fpdf): seller, customer
// (full invoices), the lines with base, VAT and total, the totals, the payment
// method, facts about the stay, and the VeriFactu QR code with its address. The
// core fonts take Windows-1252 text, which covers Spanish and the euro sign, so
// every string goes through fpdf's translator. Page content is left
// uncompressed: the file is small and its text can be searched as is.
//
// The texts are Spanish, with the booking's language lang beside each when it is
// another (i18n.Both; docs/languages.md#receipts-and-the-entry-document); the
// caller labels facts and hand in the same way.
//
// hand is the hand-over record (at the entry and at the exit), printed as a table
// under the lines, as the receipt page shows it; nil prints none.
func PDF(r Receipt, lang string, loc *time.Location, qrBase string, facts []Fact, hand []HandoverRow) ([]byte, error) {
	both := func(key string) string { return i18n.Both(lang, key) }
	pdf, tr := newDocument(i18n.T(i18n.Default, r.Kind.Key())+" "+r.Number, r.Seller.Name, r.IssuedAt)

	writeHeading(pdf, tr, lang, r.Seller, r.Kind.Key(), both("doc.number")+" "+r.Number,
		both("doc.date")+": "+r.IssuedAt.In(loc).Format("02/01/2006 15:04"))
	if r.Replaces != "" {
		pdf.CellFormat(0, 5, tr(both("doc.replaces")+" "+r.Replaces), "", 1, "R", false, 0, "")
	}
	pdf.Ln(4)

	if r.Recipient != nil {
		pdf.SetFont("Helvetica", "B", 10)
		pdf.CellFormat(0, 5, tr(both("common.cliente")), "", 1, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 10)
		pdf.CellFormat(0, 5, tr(r.Recipient.Name), "", 1, "L", false, 0, "")
		pdf.CellFormat(0, 5, tr(both("common.nif")+": "+r.Recipient.TaxID), "", 1, "L", false, 0, "")
		pdf.MultiCell(0, 5, tr(r.Recipient.Address), "", "L", false)
		pdf.Ln(2)
	}
	writeFacts(pdf, tr, facts)
	pdf.Ln(4)

	// Lines.
	w := []float64{84, 30, 30, 30}
	rate := " " + RateText(r.VATRate) + " %"
	writeColumnHeads(pdf, tr, lang, w, []column{{key: "receipt.concepto", align: "L"},
		{key: "receipt.base_imponible", align: "R"}, {key: "receipt.iva", suffix: rate, align: "R"}, {key: "receipt.importe", align: "R"}})
	pdf.SetFont("Helvetica", "", 9)
	for _, l := range r.Lines {
		pdf.CellFormat(w[0], 6, tr(l.Description), "", 0, "L", false, 0, "")
		pdf.CellFormat(w[1], 6, tr(Euros(l.Base)), "", 0, "R", false, 0, "")
		pdf.CellFormat(w[2], 6, tr(Euros(l.VAT)), "", 0, "R", false, 0, "")
		pdf.CellFormat(w[3], 6, tr(Euros(l.Total)), "", 1, "R", false, 0, "")
	}
	pdf.SetFont("Helvetica", "B", 10)
	pdf.CellFormat(w[0], 7, tr(both("common.total")), "T", 0, "L", false, 0, "")
	pdf.CellFormat(w[1], 7, tr(Euros(r.Totals.Base)), "T", 0, "R", false, 0, "")
	pdf.CellFormat(w[2], 7, tr(Euros(r.Totals.VAT)), "T", 0, "R", false, 0, "")
	pdf.CellFormat(w[3], 7, tr(Euros(r.Totals.Total)), "T", 1, "R", false, 0, "")
	pdf.Ln(2)
	pdf.SetFont("Helvetica", "", 9)
	pdf.CellFormat(0, 5, tr(both("doc.vat_included")+". "+both("common.forma_de_pago")+": "+orDash(r.PaymentMethod)), "", 1, "L", false, 0, "")
	pdf.Ln(6)
	if len(hand) > 0 {
		writeHandovers(pdf, tr, lang, hand)
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
	pdf.CellFormat(0, 5, tr(both("receipt.qr_tributario")), "", 2, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 7)
	pdf.MultiCell(0, 3.5, tr(QRURL(qrBase, r)), "", "L", false)
	pdf.SetX(58)
	pdf.MultiCell(0, 3.5, tr(both("doc.fingerprint")+": "+r.Record.Hash), "", "L", false)
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

// writeHeading prints a document's heading: the title (catalogue key titleKey)
// on its own lines at the right, in Spanish and under it in the booking's
// language lang when it is another; then the seller (name, tax id, address) on the
// left, the document's number and note ("" for none) on the right.
func writeHeading(pdf *fpdf.Fpdf, tr func(string) string, lang string, seller Seller, titleKey, number, note string) {
	for i, l := range documentLanguages(lang) {
		if i == 0 {
			pdf.SetFont("Helvetica", "B", 12)
		} else {
			pdf.SetFont("Helvetica", "I", 10)
		}
		pdf.CellFormat(0, 6, tr(i18n.T(l, titleKey)), "", 1, "R", false, 0, "")
	}
	pdf.Ln(1)
	pdf.SetFont("Helvetica", "B", 14)
	pdf.CellFormat(100, 7, tr(seller.Name), "", 0, "L", false, 0, "")
	pdf.SetFont("Helvetica", "B", 11)
	pdf.CellFormat(0, 7, tr(number), "", 1, "R", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	pdf.CellFormat(100, 5, tr(i18n.Both(lang, "common.nif")+": "+orDash(seller.TaxID)), "", 0, "L", false, 0, "")
	pdf.CellFormat(0, 5, tr(note), "", 1, "R", false, 0, "")
	pdf.CellFormat(0, 5, tr(orDash(seller.Address)), "", 1, "L", false, 0, "")
}

// documentLanguages are the languages a document for a booking in lang is
// written in: Spanish, then lang when it is another language we speak.
func documentLanguages(lang string) []string {
	if lang == i18n.Default || !i18n.Supported(lang) {
		return []string{i18n.Default}
	}
	return []string{i18n.Default, lang}
}

// column is a table's column heading: its catalogue key, what follows the text
// (the VAT rate) and its alignment.
type column struct{ key, suffix, align string }

// writeColumnHeads prints a table's column headings on a shaded band: the Spanish
// ones and, under them, the ones in lang when it is another language (a column is
// too narrow for both on one line).
func writeColumnHeads(pdf *fpdf.Fpdf, tr func(string) string, lang string, w []float64, cols []column) {
	pdf.SetFillColor(235, 238, 242)
	langs := documentLanguages(lang)
	for n, l := range langs {
		border, style := "", "B"
		if n == len(langs)-1 {
			border = "B"
		}
		if n > 0 {
			style = "I"
		}
		pdf.SetFont("Helvetica", style, 9)
		for i, c := range cols {
			pdf.CellFormat(w[i], 6, tr(i18n.T(l, c.key)+c.suffix), border, 0, c.align, true, 0, "")
		}
		pdf.Ln(-1)
	}
}

// writeFacts prints labelled details, one a line, the labels in a column as wide
// as the longest (a bilingual label is long).
func writeFacts(pdf *fpdf.Fpdf, tr func(string) string, facts []Fact) {
	pdf.SetFont("Helvetica", "B", 9)
	width := 35.0
	for _, f := range facts {
		width = max(width, pdf.GetStringWidth(tr(f.Label))+3)
	}
	for _, f := range facts {
		pdf.SetFont("Helvetica", "B", 9)
		pdf.CellFormat(width, 5, tr(f.Label), "", 0, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 9)
		pdf.MultiCell(0, 5, tr(f.Value), "", "L", false)
	}
}

// writeHandovers prints the hand-over table: one row per hand-over.
func writeHandovers(pdf *fpdf.Fpdf, tr func(string) string, lang string, hand []HandoverRow) {
	pdf.SetFont("Helvetica", "B", 10)
	pdf.CellFormat(0, 6, tr(i18n.Both(lang, "receipt.entrega_y_recogida_del_vehiculo")), "", 1, "L", false, 0, "")
	w := []float64{62, 26, 32, 54}
	writeColumnHeads(pdf, tr, lang, w, []column{{key: "common.momento", align: "L"}, {key: "common.kilometraje", align: "L"},
		{key: "common.combustible_o_carga", align: "L"}, {key: "common.danos", align: "L"}})
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
