package receipt

import (
	"strings"
	"time"

	"parking/internal/i18n"
	"parking/internal/reservation"
)

// Entry is the vehicle's entry document (justificante de entrada, Ley 40/2002,
// art. 3.1.b; docs/entry-document.md): who keeps the car, which car, whether the
// keys were handed over, and the day and time it came in.
type Entry struct {
	Facility       Seller // the car park: name, tax id, address
	Phone          string // the car park's phone
	ReservationID  int64
	Reference      string // XXXX-XXXX
	Plate          string
	Brand, Model   string
	Color          string
	EntryAt        time.Time // the moment of check-in
	KeysHandedOver bool
	Spot           string
	Exit           *time.Time // the booked exit; nil: open
	ConditionsURL  string     // the conditions of the service
	// Lang is the booking's language: the document is Spanish, with Lang beside
	// each text when it is another (docs/languages.md#receipts-and-the-entry-document).
	Lang string
}

// both is key's text in Spanish and in the booking's language (i18n.Both).
func (e Entry) both(key string) string { return i18n.Both(e.Lang, key) }

// KeysText says whether the keys were handed over, as the document prints it.
func (e Entry) KeysText() string {
	if e.KeysHandedOver {
		return e.both("doc.keys_handed")
	}
	return e.both("doc.keys_kept")
}

// EntryPDF renders the entry document as an A4 PDF, with the receipts' layout and
// fonts (Windows-1252 core fonts; uncompressed, so its text can be searched).
func EntryPDF(e Entry, loc *time.Location) ([]byte, error) {
	pdf, tr := newDocument(i18n.T(i18n.Default, "common.justificante_de_entrada")+" "+e.Reference, e.Facility.Name, e.EntryAt)
	writeHeading(pdf, tr, e.Lang, e.Facility, "common.justificante_de_entrada", e.both("common.reserva")+" "+e.Reference, "")
	if e.Phone != "" {
		pdf.CellFormat(0, 5, tr(e.both("common.telefono")+": "+e.Phone), "", 1, "L", false, 0, "")
	}
	pdf.Ln(6)
	writeFacts(pdf, tr, e.Facts(loc))
	pdf.Ln(6)
	// The legal note, a paragraph in each language.
	pdf.SetFont("Helvetica", "", 8)
	for _, lang := range documentLanguages(e.Lang) {
		pdf.MultiCell(0, 4, tr(i18n.T(lang, "entry_document.justificante_de_la_entrega_del")+" "+
			i18n.T(lang, "common.condiciones_del_servicio")+": "+e.ConditionsURL), "", "L", false)
		pdf.Ln(1)
	}
	return finish(pdf, "entry document "+e.Reference)
}

// Facts are the document's details, in the order the page and the PDF print them,
// labelled in Spanish and in the booking's language; each Name is the Spanish label.
func (e Entry) Facts(loc *time.Location) []Fact {
	exit := e.both("doc.no_exit")
	if e.Exit != nil {
		exit = e.Exit.In(loc).Format("02/01/2006 15:04")
	}
	// The public booking's placeholders (Desconocida, Desconocido, No color) are
	// not facts about the car: a dash.
	known := func(v, placeholder string) string {
		if v == placeholder {
			return ""
		}
		return v
	}
	vehicle := strings.TrimSpace(known(e.Brand, reservation.DefaultBrand) + " " + known(e.Model, reservation.DefaultModel))
	facts := []Fact{
		{Label: "common.matricula", Value: e.Plate},
		{Label: "common.vehiculo", Value: orDash(vehicle)},
		{Label: "common.color", Value: orDash(known(e.Color, reservation.DefaultColor))},
		{Label: "common.entrada", Value: e.EntryAt.In(loc).Format("02/01/2006 15:04")},
		{Label: "doc.keys", Value: e.KeysText()},
		{Label: "common.plaza", Value: orDash(e.Spot)},
		{Label: "doc.planned_exit", Value: exit},
	}
	for i, f := range facts { // the keys above, written
		facts[i].Name, facts[i].Label = i18n.T(i18n.Default, f.Label), e.both(f.Label)
	}
	return facts
}
