package receipt

import (
	"strings"
	"time"

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
}

// KeysText says whether the keys were handed over, as the document prints it.
func (e Entry) KeysText() string {
	if e.KeysHandedOver {
		return "Sí, el cliente entrega las llaves"
	}
	return "No, el cliente conserva las llaves"
}

// EntryPDF renders the entry document as an A4 PDF, with the receipts' layout and
// fonts (Windows-1252 core fonts; uncompressed, so its text can be searched).
func EntryPDF(e Entry, loc *time.Location) ([]byte, error) {
	pdf, tr := newDocument("Justificante de entrada "+e.Reference, e.Facility.Name, e.EntryAt)
	writeHeading(pdf, tr, e.Facility, "Justificante de entrada", "Reserva "+e.Reference, "")
	if e.Phone != "" {
		pdf.CellFormat(0, 5, tr("Teléfono: "+e.Phone), "", 1, "L", false, 0, "")
	}
	pdf.Ln(6)
	writeFacts(pdf, tr, e.Facts(loc))
	pdf.Ln(6)
	pdf.SetFont("Helvetica", "", 8)
	pdf.MultiCell(0, 4, tr("Justificante de la entrega del vehículo para su aparcamiento (Ley 40/2002, de 14 de noviembre, art. 3.1.b). "+
		"Consérvelo para retirar el vehículo. Condiciones del servicio: "+e.ConditionsURL), "", "L", false)
	return finish(pdf, "entry document "+e.Reference)
}

// Facts are the document's details, in the order the page and the PDF print them.
func (e Entry) Facts(loc *time.Location) []Fact {
	exit := "Sin fecha de salida"
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
	return []Fact{
		{Label: "Matrícula", Value: e.Plate},
		{Label: "Vehículo", Value: orDash(vehicle)},
		{Label: "Color", Value: orDash(known(e.Color, reservation.DefaultColor))},
		{Label: "Entrada", Value: e.EntryAt.In(loc).Format("02/01/2006 15:04")},
		{Label: "Llaves", Value: e.KeysText()},
		{Label: "Plaza", Value: orDash(e.Spot)},
		{Label: "Salida prevista", Value: exit},
	}
}
