package receipt

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The entry document's facts, in order, with dashes for the public booking's
// placeholders and an open exit said in words; its PDF carries them.
func TestEntryFactsAndPDF(t *testing.T) {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	e := Entry{
		Facility: Seller{Name: "Parking Aeropuerto Barajas, S.L.", TaxID: "B12345674", Address: "Avenida de la Hispanidad 1"},
		Phone:    "910000000", Reference: "K7Q2-M9XD", Plate: "1234BCD", Brand: "Desconocida", Model: "Desconocido", Color: "No color",
		EntryAt: time.Date(2026, 12, 1, 9, 7, 0, 0, time.UTC), ConditionsURL: "https://parking.example/condiciones",
	}
	var got []string
	for _, f := range e.Facts(madrid) {
		got = append(got, f.Label+"="+f.Value)
	}
	want := "Matrícula=1234BCD|Vehículo=—|Color=—|Entrada=01/12/2026 10:07|Llaves=No, el cliente conserva las llaves|Plaza=—|Salida prevista=Sin fecha de salida"
	if strings.Join(got, "|") != want {
		t.Errorf("facts\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	exit := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	e.Brand, e.Model, e.Color, e.Spot, e.Exit, e.KeysHandedOver = "Seat", "Ateca", "Rojo", "A-12", &exit, true
	pdf, err := EntryPDF(e, madrid)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"%PDF-", "Justificante de entrada", "Reserva K7Q2-M9XD", "1234BCD", "Seat Ateca", "A-12",
		"01/12/2026 10:07", "05/12/2026 13:00", "S\xed, el cliente entrega las llaves", "Tel\xe9fono: 910000000", "https://parking.example/condiciones"} {
		if !bytes.Contains(pdf, []byte(want)) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
}

// The receipt PDF prints the hand-over table when there is one, and none without.
func TestPDFHandoverTable(t *testing.T) {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	r := chainOf(1)[0]
	hand := []HandoverRow{{Label: "Entrega del vehículo (entrada)", When: "01/12/2026 10:07", Mileage: "123.456 km", Fuel: "50 %", Damage: "Rayón"}}
	with, err := PDF(r, "es", madrid, QRHostTest, nil, hand)
	if err != nil {
		t.Fatal(err)
	}
	without, err := PDF(r, "es", madrid, QRHostTest, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Entrega y recogida del veh\xedculo", "Kilometraje", "123.456 km", "50 %", "Ray\xf3n", "01/12/2026 10:07"} {
		if !bytes.Contains(with, []byte(want)) {
			t.Errorf("the PDF lacks %q", want)
		}
		if bytes.Contains(without, []byte(want)) && want != "01/12/2026 10:07" {
			t.Errorf("a receipt without hand-over prints %q", want)
		}
	}
}

// An English booking's documents are Spanish with English beside each text; a
// Spanish booking's, Spanish alone (docs/languages.md#receipts-and-the-entry-document).
func TestDocumentsBilingual(t *testing.T) {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	e := Entry{
		Facility: Seller{Name: "Parking Aeropuerto Barajas, S.L.", TaxID: "B12345674"}, Phone: "910000000",
		Reference: "K7Q2-M9XD", Plate: "1234BCD", EntryAt: time.Date(2026, 12, 1, 9, 7, 0, 0, time.UTC), KeysHandedOver: true,
	}
	r := chainOf(1)[0]
	hand := []HandoverRow{{Label: "Entrega del vehículo (entrada)", When: "01/12/2026 10:07", Mileage: "—", Fuel: "—", Damage: "—"}}
	english := []string{"Number plate", "Entry receipt", "Yes, the customer hands over the keys", "Planned departure", "Phone", "Keep it to collect the vehicle"}
	englishReceipt := []string{"Simplified invoice", "Total / Total", "Taxable base", "Payment method", "Record fingerprint", "Mileage"}
	for _, c := range []struct {
		lang    string
		bothLng bool
	}{{"en", true}, {"es", false}} {
		e.Lang = c.lang
		facts := map[string]string{}
		for _, f := range e.Facts(madrid) {
			facts[f.Name] = f.Label + "=" + f.Value
		}
		wantPlate, wantKeys := "Matrícula=1234BCD", "Llaves=Sí, el cliente entrega las llaves"
		if c.bothLng {
			wantPlate, wantKeys = "Matrícula / Number plate=1234BCD", "Llaves / Keys=Sí, el cliente entrega las llaves / Yes, the customer hands over the keys"
		}
		if facts["Matrícula"] != wantPlate || facts["Llaves"] != wantKeys {
			t.Errorf("%s facts: %v", c.lang, facts)
		}
		entry, err := EntryPDF(e, madrid)
		if err != nil {
			t.Fatal(err)
		}
		receipt, err := PDF(r, c.lang, madrid, QRHostTest, nil, hand)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Justificante de entrada", "Matr\xedcula", "Salida prevista", "Tel\xe9fono", "910000000", "Cons\xe9rvelo"} {
			if !bytes.Contains(entry, []byte(want)) {
				t.Errorf("%s: the entry PDF lacks %q", c.lang, want)
			}
		}
		for _, want := range []string{"Factura simplificada", "Base imponible", "Forma de pago", "Huella del registro", "Kilometraje"} {
			if !bytes.Contains(receipt, []byte(want)) {
				t.Errorf("%s: the receipt PDF lacks %q", c.lang, want)
			}
		}
		for _, w := range english {
			if bytes.Contains(entry, []byte(w)) != c.bothLng {
				t.Errorf("%s: the entry PDF has %q: %v", c.lang, w, !c.bothLng)
			}
		}
		for _, w := range englishReceipt {
			if bytes.Contains(receipt, []byte(w)) != c.bothLng {
				t.Errorf("%s: the receipt PDF has %q: %v", c.lang, w, !c.bothLng)
			}
		}
	}
}
