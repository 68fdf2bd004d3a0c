package store

import (
	"context"
	"fmt"
	"time"

	"parking/internal/database"

	"parking/internal/money"
	"parking/internal/receipt"
)

// Receipts (docs/receipts.md#numbering-correlative-no-gaps-no-duplicates). IssueReceipt numbers, chains and writes a receipt inside
// the caller's transaction (finalize, or a full invoice requested later); nothing
// here updates or deletes a receipt, and the database refuses it (migration 0015).

// IssueReceipt gives r its number in the series of r.Year and its place in the
// VeriFactu chain, seals its record (receipt.Seal) at tx.Now and inserts it with
// its lines. Both counters are rows updated in this transaction: the chain head
// first, then the year's series, always in that order, so concurrent issuers wait
// for each other (on PostgreSQL the row locks; on SQLite the single writer) and a
// rolled-back transaction gives its number back: no gaps, no duplicates, also
// across instances sharing the database.
func (tx ReceiptsTx) IssueReceipt(ctx context.Context, r receipt.Receipt, loc *time.Location) (receipt.Receipt, error) {
	var chainSeq int64
	var prev string
	err := tx.QueryRow(ctx, `UPDATE verifactu_chain SET seq = seq + 1 WHERE id = 1 RETURNING seq, last_hash`).Scan(&chainSeq, &prev)
	if err != nil {
		return r, fmt.Errorf("receipt chain head: %w", err)
	}
	err = tx.QueryRow(ctx, `INSERT INTO receipt_series (year, last) VALUES ($1, 1)
		ON CONFLICT (year) DO UPDATE SET last = receipt_series.last + 1 RETURNING last`, r.Year).Scan(&r.Seq)
	if err != nil {
		return r, fmt.Errorf("receipt series %d: %w", r.Year, err)
	}
	r.Number = receipt.Number(r.Year, r.Seq)
	r.IssuedAt = Time(tx.Now)
	r.Seal(chainSeq, prev, tx.Now, loc)
	var rt, rn, ra, repl any
	if r.Recipient != nil {
		rt, rn, ra = r.Recipient.TaxID, r.Recipient.Name, r.Recipient.Address
	}
	if r.Replaces != "" {
		repl = r.Replaces
	}
	_, err = tx.Exec(ctx, `INSERT INTO receipt (number, year, seq, id_reservation, kind, replaces, issued_at,
		seller_name, seller_tax_id, seller_address, recipient_tax_id, recipient_name, recipient_address,
		vat_rate_bp, total_cents, base_cents, vat_cents, payment_method,
		chain_seq, issuer_id, issue_date, generated_at, prev_hash, hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
		r.Number, r.Year, r.Seq, r.ReservationID, string(r.Kind), repl, r.IssuedAt,
		r.Seller.Name, r.Seller.TaxID, r.Seller.Address, rt, rn, ra,
		r.VATRate, int64(r.Totals.Total), int64(r.Totals.Base), int64(r.Totals.VAT), r.PaymentMethod,
		r.Record.Seq, r.Record.IssuerID, r.Record.IssueDate, r.Record.GeneratedAt, r.Record.PrevHash, r.Record.Hash)
	if err != nil {
		return r, fmt.Errorf("insert receipt %s: %w", r.Number, err)
	}
	for i, l := range r.Lines {
		if _, err := tx.Exec(ctx, `INSERT INTO receipt_line (number, position, description, total_cents, base_cents, vat_cents)
			VALUES ($1, $2, $3, $4, $5, $6)`, r.Number, i+1, l.Description, int64(l.Total), int64(l.Base), int64(l.VAT)); err != nil {
			return r, fmt.Errorf("insert receipt line %s/%d: %w", r.Number, i+1, err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE verifactu_chain SET last_hash = $1 WHERE id = 1`, r.Record.Hash); err != nil {
		return r, fmt.Errorf("receipt chain head: %w", err)
	}
	return r, nil
}

const receiptColumns = `number, year, seq, id_reservation, kind, replaces, issued_at,
	seller_name, seller_tax_id, seller_address, recipient_tax_id, recipient_name, recipient_address,
	vat_rate_bp, total_cents, base_cents, vat_cents, payment_method,
	chain_seq, issuer_id, issue_date, generated_at, prev_hash, hash`

func scanReceipt(sc interface{ Scan(...any) error }) (receipt.Receipt, error) {
	var r receipt.Receipt
	var kind string
	var repl, rt, rn, ra nullString
	var total, base, vat int64
	err := sc.Scan(&r.Number, &r.Year, &r.Seq, &r.ReservationID, &kind, &repl, &r.IssuedAt,
		&r.Seller.Name, &r.Seller.TaxID, &r.Seller.Address, &rt, &rn, &ra,
		&r.VATRate, &total, &base, &vat, &r.PaymentMethod,
		&r.Record.Seq, &r.Record.IssuerID, &r.Record.IssueDate, &r.Record.GeneratedAt, &r.Record.PrevHash, &r.Record.Hash)
	if err != nil {
		return r, err
	}
	r.Kind, r.Replaces = receipt.Kind(kind), repl.String
	r.Totals = receipt.Part{Total: money.Cents(total), Base: money.Cents(base), VAT: money.Cents(vat)}
	if rt.Valid {
		r.Recipient = &receipt.Recipient{TaxID: rt.String, Name: rn.String, Address: ra.String}
	}
	return r, nil
}

// receiptLines reads the lines of the receipts numbered in byNumber and attaches
// them in position order.
func receiptLines(ctx context.Context, q database.Runner, list []receipt.Receipt, where string, args ...any) error {
	idx := make(map[string]int, len(list))
	for i, r := range list {
		idx[r.Number] = i
	}
	rows, err := q.Query(ctx, `SELECT l.number, l.description, l.total_cents, l.base_cents, l.vat_cents
		FROM receipt_line l JOIN receipt r ON r.number = l.number `+where+` ORDER BY l.number, l.position`, args...)
	if err != nil {
		return fmt.Errorf("receipt lines: %w", err)
	}
	for rows.Next() {
		var n string
		var l receipt.Line
		var t, b, v int64
		if err := rows.Scan(&n, &l.Description, &t, &b, &v); err != nil {
			rows.Close()
			return err
		}
		l.Part = receipt.Part{Total: money.Cents(t), Base: money.Cents(b), VAT: money.Cents(v)}
		if i, ok := idx[n]; ok {
			list[i].Lines = append(list[i].Lines, l)
		}
	}
	return closeRows(rows)
}

func receipts(ctx context.Context, q database.Runner, where string, args ...any) ([]receipt.Receipt, error) {
	rows, err := q.Query(ctx, `SELECT `+receiptColumns+` FROM receipt r `+where+` ORDER BY chain_seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("receipts: %w", err)
	}
	out := []receipt.Receipt{}
	for rows.Next() {
		r, err := scanReceipt(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	return out, receiptLines(ctx, q, out, where, args...)
}

// ReservationReceipts lists the receipts of a reservation in issue order: the
// receipt of its finalize and, when a full invoice replaced it later, that one.
func (s Receipts) ReservationReceipts(ctx context.Context, reservationID int64) ([]receipt.Receipt, error) {
	return receipts(ctx, s.Engine, `WHERE r.id_reservation = $1`, reservationID)
}

// ReservationReceipts is the same inside the transaction.
func (tx ReceiptsTx) ReservationReceipts(ctx context.Context, reservationID int64) ([]receipt.Receipt, error) {
	return receipts(ctx, tx, `WHERE r.id_reservation = $1`, reservationID)
}

// ReceiptChain lists every receipt in chain order (the VeriFactu export and its
// verification), from chain position from on (1 for all), at most limit (0: all).
func (s Receipts) ReceiptChain(ctx context.Context, from int64, limit int) ([]receipt.Receipt, error) {
	where := `WHERE r.chain_seq >= $1`
	args := []any{from}
	if limit > 0 {
		where += ` AND r.chain_seq < $2`
		args = append(args, from+int64(limit))
	}
	return receipts(ctx, s.Generated(), where, args...)
}

// InvoiceRecipient is the customer's identity for a full invoice of a reservation;
// ErrNotFound when none was given.
func (tx ReceiptsTx) InvoiceRecipient(ctx context.Context, reservationID int64) (receipt.Recipient, error) {
	var r receipt.Recipient
	err := tx.QueryRow(ctx, `SELECT tax_id, name, address FROM invoice_recipient WHERE id_reservation = $1`, reservationID).
		Scan(&r.TaxID, &r.Name, &r.Address)
	if noRows(err) {
		return r, ErrNotFound
	}
	return r, err
}

// SaveInvoiceRecipient records (or replaces) the customer's identity for a full
// invoice of a reservation. A receipt already issued keeps what it printed.
func (tx ReceiptsTx) SaveInvoiceRecipient(ctx context.Context, reservationID int64, r receipt.Recipient) error {
	_, err := tx.Exec(ctx, `INSERT INTO invoice_recipient (id_reservation, tax_id, name, address, requested_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (id_reservation) DO UPDATE SET tax_id = excluded.tax_id, name = excluded.name,
			address = excluded.address, requested_at = excluded.requested_at`,
		reservationID, r.TaxID, r.Name, r.Address, Time(tx.Now))
	if err != nil {
		return fmt.Errorf("invoice recipient of reservation %d: %w", reservationID, err)
	}
	return nil
}
