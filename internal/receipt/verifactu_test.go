package receipt

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"parking/internal/money"
)

// The AEAT's own worked example ("Detalle de las especificaciones técnicas para
// generación de la huella o hash de los registros de facturación", first record
// of a chain): the input text and its published fingerprint.
func TestHashAEATExample(t *testing.T) {
	f := AltaFields{IssuerID: "89890001K", Number: "12345678/G33", IssueDate: "01-01-2024", Kind: Full,
		VAT: 1235, Total: 12345, PrevHash: "", Generated: "2024-01-01T19:20:30+01:00"}
	const input = "IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00"
	if got := HashInput(f); got != input {
		t.Errorf("HashInput =\n%s\nwant\n%s", got, input)
	}
	if got := Hash(f); got != "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60" {
		t.Errorf("Hash = %s", got)
	}
}

// A receipt sealed after another: the text is written out here by hand and hashed
// with crypto/sha256, independently of HashInput.
func TestSealChainsToThePrevious(t *testing.T) {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	r := Receipt{Number: "F2027-000002", Kind: Simplified, Seller: Seller{TaxID: " b12345674 "},
		Totals: Part{Total: 7600, Base: 6281, VAT: 1319}}
	prev := "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60"
	r.Seal(2, prev, time.Date(2027, 7, 1, 8, 5, 9, 0, time.UTC), madrid)
	text := "IDEmisorFactura=B12345674&NumSerieFactura=F2027-000002&FechaExpedicionFactura=01-07-2027&TipoFactura=F2" +
		"&CuotaTotal=13.19&ImporteTotal=76.00&Huella=" + prev + "&FechaHoraHusoGenRegistro=2027-07-01T10:05:09+02:00"
	sum := sha256.Sum256([]byte(text))
	want := strings.ToUpper(fmt.Sprintf("%x", sum))
	if r.Record.Hash != want || r.Record.PrevHash != prev || r.Record.Seq != 2 || r.Record.IssueDate != "01-07-2027" {
		t.Errorf("sealed record %+v, want hash %s", r.Record, want)
	}
	// In winter the offset is +01:00, and the local date is the issue date: 23:30 UTC
	// on 31 December is already 1 January in Madrid.
	r.Seal(1, "", time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC), madrid)
	if r.Record.GeneratedAt != "2027-01-01T00:30:00+01:00" || r.Record.IssueDate != "01-01-2027" {
		t.Errorf("winter record %+v", r.Record)
	}
}

func chainOf(n int) []Receipt {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	var out []Receipt
	prev := ""
	for i := 1; i <= n; i++ {
		amounts := []money.Cents{money.Cents(1000 * i), 1500}
		parts, sum := Split(amounts, 2100)
		r := Receipt{Number: Number(2027, int64(i)), Kind: Simplified, Seller: Seller{TaxID: "B12345674"}, Totals: sum,
			Lines: []Line{{Description: "Estancia", Part: parts[0]}, {Description: "Lavado", Part: parts[1]}}}
		r.Seal(int64(i), prev, time.Date(2027, 1, 1, 10, i, 0, 0, time.UTC), madrid)
		prev = r.Record.Hash
		out = append(out, r)
	}
	return out
}

func TestVerify(t *testing.T) {
	if err := Verify(chainOf(50)); err != nil {
		t.Fatalf("a sound chain: %v", err)
	}
	tamper := map[string]func(c []Receipt){
		"an amount":        func(c []Receipt) { c[20].Totals.Total++; c[20].Totals.Base++ },
		"a line":           func(c []Receipt) { c[20].Lines[0].VAT++; c[20].Lines[0].Base-- },
		"a number":         func(c []Receipt) { c[20].Number = "F2027-000099" },
		"a date":           func(c []Receipt) { c[20].Record.IssueDate = "02-01-2027" },
		"the link":         func(c []Receipt) { c[20].Record.PrevHash = c[18].Record.Hash },
		"a removed record": func(c []Receipt) { copy(c[19:], c[20:]) }, // record 21 now sits at 20
	}
	for what, change := range tamper {
		c := chainOf(50)
		change(c)
		var ce *ChainError
		if err := Verify(c); !errors.As(err, &ce) || ce.Seq != 21 {
			t.Errorf("%s changed: Verify = %v, want an error at record 21", what, err)
		}
	}
}

func TestQRURL(t *testing.T) {
	r := chainOf(1)[0]
	got := QRURL(QRHostProduction, r)
	want := "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=F2027-000001&fecha=01-01-2027&importe=25.00"
	if got != want {
		t.Errorf("QRURL = %s\nwant  %s", got, want)
	}
	r.Number = "A/1 &2"
	if got := QRURL(QRHostTest, r); !strings.Contains(got, "numserie=A%2F1+%262&") || !strings.HasPrefix(got, "https://prewww2.aeat.es/") {
		t.Errorf("escaped QRURL = %s", got)
	}
	png, err := QRPNG(QRHostTest, r, 128)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("QRPNG: %v, %q", err, png[:min(8, len(png))])
	}
}

func TestPDF(t *testing.T) {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	r := chainOf(3)[2]
	r.Seller = Seller{Name: "Parking Aeropuerto Barajas, S.L.", TaxID: "B12345674", Address: "Avenida de la Hispanidad, 1, Madrid"}
	r.Recipient = &Recipient{TaxID: "X1234567L", Name: "Iñigo Muñoz", Address: "Calle Mayor 1"}
	r.Kind, r.PaymentMethod, r.VATRate, r.IssuedAt = Full, "TARJETA", 2100, time.Date(2027, 1, 1, 10, 0, 0, 0, time.UTC)
	pdf, err := PDF(r, "es", madrid, QRHostTest, []Fact{{Label: "Matrícula", Value: "1234BCD"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][]byte{[]byte("%PDF-"), []byte("F2027-000003"), []byte("B12345674"),
		[]byte("X1234567L"), []byte("I\xf1igo Mu\xf1oz"), []byte("45,00 \x80"), []byte(r.Record.Hash)} { // Windows-1252: ñ, €
		if !bytes.Contains(pdf, want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("the PDF starts with %q", pdf[:8])
	}
}
