// Package receipt is the facility's receipts and invoices (docs/receipts.md#the-vat-arithmetic): the VAT
// split of a VAT-inclusive price (vat.go), the correlative number, the VeriFactu
// record each receipt carries and its chain (verifactu.go), and the PDF (pdf.go);
// and the vehicle's entry document, printed with the same layout (entry.go).
// It holds no SQL: the store keeps receipts, the booking operations issue them.
package receipt

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the invoice type, as VeriFactu names it (TipoFactura, list L2 of the
// AEAT's record design).
type Kind string

const (
	// Simplified is the ordinary receipt (factura simplificada, RD 1619/2012 art. 4).
	Simplified Kind = "F2"
	// Full is a full invoice (factura completa) with the customer's tax id and
	// address, issued at finalize when they were given before.
	Full Kind = "F1"
	// Substitute is a full invoice issued later in place of a simplified one
	// (factura emitida en sustitución de facturas simplificadas, RD 1619/2012
	// art. 15): a new number and a new record; the simplified one is not altered.
	Substitute Kind = "F3"
)

// Key is the catalogue key of the kind's name as the receipt prints it
// (internal/i18n: "Factura simplificada").
func (k Kind) Key() string {
	switch k {
	case Full:
		return "doc.invoice_full"
	case Substitute:
		return "doc.invoice_substitute"
	default:
		return "doc.invoice_simplified"
	}
}

// IsFull reports whether the receipt names the customer (F1, F3).
func (k Kind) IsFull() bool { return k == Full || k == Substitute }

// Seller is the facility's identity printed on every receipt, from the settings
// at the moment of issue (docs/settings.md).
type Seller struct {
	Name, TaxID, Address string
}

// Recipient is the customer of a full invoice: tax id (NIF, NIE or CIF), name and
// address.
type Recipient struct {
	TaxID, Name, Address string
}

// Line is one concept of the receipt with its VAT split.
type Line struct {
	Description string
	Part
}

// Receipt is an issued receipt, as stored: nothing in it changes after issue.
type Receipt struct {
	Number        string // F2027-000123
	Year          int
	Seq           int64 // position in the year's series: 123
	ReservationID int64
	Kind          Kind
	IssuedAt      time.Time
	Seller        Seller
	Recipient     *Recipient // full invoices only
	Replaces      string     // F3: the number of the simplified receipt it replaces
	VATRate       int        // basis points: 2100 = 21 %
	Lines         []Line
	Totals        Part
	PaymentMethod string
	Record        Record
}

// Number formats a receipt number: F{year}-{6 digits} (docs/receipts.md#numbering-correlative-no-gaps-no-duplicates). A series
// past 999999 in one year keeps all its digits.
func Number(year int, seq int64) string {
	return fmt.Sprintf("F%d-%06d", year, seq)
}

// RateText is a VAT rate in basis points as a percentage: 2100 → "21", 1050 →
// "10.5".
func RateText(bp int) string {
	s := strconv.Itoa(bp / 100)
	if f := bp % 100; f != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%02d", f), "0")
	}
	return s
}
