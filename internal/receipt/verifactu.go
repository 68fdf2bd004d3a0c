package receipt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"parking/internal/money"
)

// VeriFactu readiness (Real Decreto 1007/2023, Orden HAC/1177/2024). Every receipt
// carries its registro de alta: the fields the AEAT's fingerprint covers, the
// fingerprint (huella) of the previous record and its own. The records form one
// chain per issuer, in the order they were generated; a record is never changed
// afterwards (the store has no UPDATE for them and the database refuses one), and
// a correction is a new record. Sending the records to the AEAT is not done here
// (docs/receipts.md).

// Record is a receipt's registro de alta de facturación.
type Record struct {
	Seq         int64  // position in the chain: 1, 2, 3…
	IssuerID    string // IDEmisorFactura: the seller's NIF
	IssueDate   string // FechaExpedicionFactura: dd-mm-yyyy in the facility's zone
	GeneratedAt string // FechaHoraHusoGenRegistro: ISO 8601 with the zone's offset
	PrevHash    string // Huella of the previous record; "" for the first
	Hash        string // this record's Huella
}

// DateLayout is FechaExpedicionFactura's form and the QR's fecha: 01-01-2024.
const DateLayout = "02-01-2006"

// GeneratedLayout is FechaHoraHusoGenRegistro's form: 2024-01-01T19:20:30+01:00.
const GeneratedLayout = "2006-01-02T15:04:05-07:00"

// AltaFields are the fields of a registro de alta the fingerprint covers.
type AltaFields struct {
	IssuerID   string
	Number     string
	IssueDate  string // dd-mm-yyyy
	Kind       Kind
	VAT, Total money.Cents
	PrevHash   string
	Generated  string // ISO 8601 with offset
}

// HashInput is the text the fingerprint is the SHA-256 of, as the AEAT specifies
// in "Detalle de las especificaciones técnicas para generación de la huella o hash
// de los registros de facturación", registro de alta: the fields in this order,
// as name=value joined by "&", each value trimmed of surrounding spaces, amounts
// with a point and their decimals, the previous record's fingerprint empty for
// the first record of the chain.
func HashInput(f AltaFields) string {
	var b strings.Builder
	pairs := [][2]string{
		{"IDEmisorFactura", f.IssuerID},
		{"NumSerieFactura", f.Number},
		{"FechaExpedicionFactura", f.IssueDate},
		{"TipoFactura", string(f.Kind)},
		{"CuotaTotal", f.VAT.String()},
		{"ImporteTotal", f.Total.String()},
		{"Huella", f.PrevHash},
		{"FechaHoraHusoGenRegistro", f.Generated},
	}
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p[0])
		b.WriteByte('=')
		b.WriteString(strings.TrimSpace(p[1]))
	}
	return b.String()
}

// Hash is the fingerprint of a registro de alta: SHA-256 of HashInput, UTF-8,
// 64 upper-case hexadecimal characters.
func Hash(f AltaFields) string {
	sum := sha256.Sum256([]byte(HashInput(f)))
	return strings.ToUpper(hex.EncodeToString(sum[:]))
}

// Fields are the fingerprinted fields of an issued receipt.
func (r Receipt) Fields() AltaFields {
	return AltaFields{
		IssuerID: r.Record.IssuerID, Number: r.Number, IssueDate: r.Record.IssueDate, Kind: r.Kind,
		VAT: r.Totals.VAT, Total: r.Totals.Total, PrevHash: r.Record.PrevHash, Generated: r.Record.GeneratedAt,
	}
}

// Seal fills r.Record for a receipt generated at t (in the facility's zone loc),
// chained after the record prevHash at position seq.
func (r *Receipt) Seal(seq int64, prevHash string, t time.Time, loc *time.Location) {
	local := t.In(loc)
	r.Record = Record{
		Seq: seq, IssuerID: strings.ToUpper(strings.TrimSpace(r.Seller.TaxID)),
		IssueDate: local.Format(DateLayout), GeneratedAt: local.Format(GeneratedLayout), PrevHash: prevHash,
	}
	r.Record.Hash = Hash(r.Fields())
}

// ChainError says where a chain of records stops verifying.
type ChainError struct {
	Seq    int64
	Number string
	Reason string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("record %d (%s): %s", e.Seq, e.Number, e.Reason)
}

// Verify checks a chain of receipts in chain order: positions 1, 2, 3… without a
// gap, each record's previous fingerprint equal to the fingerprint of the record
// before it, and each fingerprint equal to the one recomputed from the stored
// fields and amounts (so an altered amount, number, date or link shows). It
// also checks each receipt's own arithmetic: lines adding up to the totals.
func Verify(chain []Receipt) error {
	prev := ""
	for i, r := range chain {
		fail := func(format string, args ...any) error {
			return &ChainError{Seq: r.Record.Seq, Number: r.Number, Reason: fmt.Sprintf(format, args...)}
		}
		if r.Record.Seq != int64(i+1) {
			return fail("position %d in the chain, want %d", r.Record.Seq, i+1)
		}
		if r.Record.PrevHash != prev {
			return fail("previous fingerprint %q, want %q", r.Record.PrevHash, prev)
		}
		if got := Hash(r.Fields()); got != r.Record.Hash {
			return fail("fingerprint %s does not match its fields (%s)", r.Record.Hash, got)
		}
		var sum Part
		for _, l := range r.Lines {
			if l.Base+l.VAT != l.Total {
				return fail("line %q: base %s + VAT %s ≠ %s", l.Description, l.Base, l.VAT, l.Total)
			}
			sum.Total, sum.Base, sum.VAT = sum.Total+l.Total, sum.Base+l.Base, sum.VAT+l.VAT
		}
		if sum != r.Totals {
			return fail("lines add up to %+v, totals are %+v", sum, r.Totals)
		}
		prev = r.Record.Hash
	}
	return nil
}

// QR verification service of the AEAT ("Características del QR y especificaciones
// del servicio de cotejo o remisión de facturas", VERI*FACTU): the test host
// answers for records sent to the test environment, the production host for
// records sent to production.
const (
	QRHostTest       = "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR"
	QRHostProduction = "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR"
)

// QRURL is the verification address the receipt's QR code carries:
// base?nif=…&numserie=…&fecha=dd-mm-yyyy&importe=…, values URL-encoded.
func QRURL(base string, r Receipt) string {
	// The AEAT lists the parameters in this order (url.Values would sort them).
	return base + "?nif=" + url.QueryEscape(r.Record.IssuerID) + "&numserie=" + url.QueryEscape(r.Number) +
		"&fecha=" + url.QueryEscape(r.Record.IssueDate) + "&importe=" + url.QueryEscape(r.Totals.Total.String())
}
