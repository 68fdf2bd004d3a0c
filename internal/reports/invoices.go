package reports

import (
	"context"
	"time"

	"parking/internal/money"
	"parking/internal/store"
)

// Invoice is one receipt of the book of invoices issued (docs/reports.md#invoice-book).
type Invoice struct {
	Number   string
	IssuedAt time.Time
	// Kind is the VeriFactu type: F2 simplified, F1 full, F3 full in place of a
	// simplified receipt (Replaces names it).
	Kind, Replaces string
	TaxID, Name    *string // the customer's, on a full invoice
	VATRate        int     // basis points
	Base, VAT      money.Cents
	Total          money.Cents
}

// Book is the invoices issued in a range, in the order of the series, and the
// totals of the sales among them: a full invoice in place of a simplified receipt
// repeats its sale and is not added again, so Sales agrees with the report's revenue.
type Book struct {
	Range
	Invoices []Invoice
	Sales    Totals
}

// Invoices is the book of q's range (same range rules as Report). fn, when not nil,
// receives each row instead of the book keeping it (a long range streamed to a
// download); the totals are counted either way.
func (s *Service) Invoices(ctx context.Context, q Query, fn func(Invoice) error) (Book, error) {
	rg, err := s.Range(q)
	if err != nil {
		return Book{}, err
	}
	b := Book{Range: rg}
	err = s.store.Reports().Invoices(ctx, rg.window(s.loc), func(r store.InvoiceRow) error {
		v := Invoice{Number: r.Number, IssuedAt: r.IssuedAt, Kind: r.Kind, Replaces: r.Replaces, TaxID: r.TaxID, Name: r.Name,
			VATRate: r.VATRate, Base: r.Base, VAT: r.VAT, Total: r.Total}
		if v.Replaces == "" {
			b.Sales.add(Totals{Total: v.Total, Base: v.Base, VAT: v.VAT, Receipts: 1})
		}
		if fn != nil {
			return fn(v)
		}
		b.Invoices = append(b.Invoices, v)
		return nil
	})
	return b, err
}
