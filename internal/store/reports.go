package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"parking/internal/database"
	"parking/internal/money"
)

// The reports' queries (docs/reports.md): every figure is an aggregate computed by the
// database (GROUP BY over an indexed range, migration 0033), never rows loaded into Go.
// Days are the facility's local days (docs/dates.md#local-days), counted from
// 1970-01-01 like occupancy.Day: an instant's local day is (unix seconds + the zone's
// offset at that instant) / 86400, the offset taken from the zone's periods that
// cover the range (ReportWindow.dayOf), so the grouping is exact across the summer-time
// changes on both databases.

// ReportWindow is the range of a report: the instants [From, To) (local midnights) and
// the facility's zone.
type ReportWindow struct {
	From, To time.Time
	Loc      *time.Location
}

// RevenueGroup is the receipts of one local day, main service and channel.
type RevenueGroup struct {
	Day              int64
	MainService      int64
	ServiceName      string
	Channel          string
	Receipts         int64
	Total, Base, VAT money.Cents
}

// BookingDay is what happened to bookings on one local day: reservations made (and how
// many of them are now cancelled, their summed lead time in seconds), stays due that
// never started (no-shows), finished stays entered (their summed length in seconds).
type BookingDay struct {
	Day                   int64
	Created, Cancelled    int64
	LeadSeconds           int64
	NoShows               int64
	Finished, StaySeconds int64
}

// StaySpan counts finished stays that occupied the local days First…Last.
type StaySpan struct {
	First, Last int64
	Count       int64
}

// InvoiceRow is one receipt of the invoice book.
type InvoiceRow struct {
	Number, Kind, Replaces string
	IssuedAt               time.Time
	TaxID, Name            *string
	VATRate                int // basis points
	Base, VAT, Total       money.Cents
}

// Reports reads the business figures (docs/reports.md).
type Reports struct{ *database.Engine }

// Reports is the store's report queries.
func (s *Store) Reports() Reports { return Reports{s.Engine} }

// reservationChannel is the SQL of a reservation's sales channel (docs/reports.md#channels),
// for the reservation aliased res: "counter" for a booking made at the counter (its
// trail records a walk-in), "web" otherwise. The one place that says it: when
// reservations store their channel, this becomes that column.
func reservationChannel(res string) string {
	return `CASE WHEN EXISTS (SELECT 1 FROM audit_entry ae WHERE ae.reservation_id = ` + res +
		`.id_reservation AND ae.action = 'walk_in') THEN 'counter' ELSE 'web' END`
}

// epoch is the SQL of a timestamp's unix seconds.
func (r Reports) epoch(col string) string {
	if r.Dialect() == database.Postgres {
		return "CAST(FLOOR(EXTRACT(EPOCH FROM " + col + ")) AS BIGINT)"
	}
	return "CAST(strftime('%s', " + col + ") AS INTEGER)"
}

// dayOf is the SQL of the local day of timestamp col: the zone's offsets over the
// window (and a month either side, so that stays carried in or out read right) as a
// CASE on the instant. The numbers are computed here, never user input.
func (r Reports) dayOf(col string, w ReportWindow) string {
	e := r.epoch(col)
	t, end := w.From.AddDate(0, 0, -31), w.To.AddDate(0, 0, 31)
	var b strings.Builder
	b.WriteString("((" + e + ") + CASE")
	for {
		_, off := t.In(w.Loc).Zone()
		_, next := t.In(w.Loc).ZoneBounds()
		if next.IsZero() || !next.Before(end) {
			fmt.Fprintf(&b, " ELSE %d END) / 86400", off)
			break
		}
		fmt.Fprintf(&b, " WHEN %s < %d THEN %d", e, next.Unix(), off)
		t = next
	}
	return b.String()
}

// Revenue sums the receipts issued in the window that are sales (docs/reports.md#revenue):
// a full invoice issued in place of a simplified receipt (replaces set) repeats a sale
// already counted, so it is left out. Grouped by local day of issue, main service and
// channel.
func (r Reports) Revenue(ctx context.Context, w ReportWindow) ([]RevenueGroup, error) {
	q := `SELECT g.d, g.svc, ms.name, g.ch, g.n, g.total, g.base, g.vat FROM (
		SELECT ` + r.dayOf("rc.issued_at", w) + ` AS d, res.id_main_service AS svc, ` + reservationChannel("res") + ` AS ch,
			COUNT(*) AS n, SUM(rc.total_cents) AS total, SUM(rc.base_cents) AS base, SUM(rc.vat_cents) AS vat
		FROM receipt rc JOIN reservation res ON res.id_reservation = rc.id_reservation
		WHERE rc.issued_at >= $1 AND rc.issued_at < $2 AND rc.replaces IS NULL
		GROUP BY 1, 2, 3) g JOIN main_service ms ON ms.id_main_service = g.svc
		ORDER BY g.d, g.svc, g.ch`
	rows, err := r.Query(ctx, q, Time(w.From), Time(w.To))
	if err != nil {
		return nil, fmt.Errorf("report revenue: %w", err)
	}
	defer rows.Close()
	var out []RevenueGroup
	for rows.Next() {
		var g RevenueGroup
		if err := rows.Scan(&g.Day, &g.MainService, &g.ServiceName, &g.Channel, &g.Receipts, &g.Total, &g.Base, &g.VAT); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Bookings counts per local day the reservations made in the window (reservation_date),
// those of them now cancelled and their lead time (entry − booking); the PENDIENTE
// stays never started whose entry is in the window and before noShowBefore; the
// FINALIZADA stays entered in the window and their length (check-out − check-in, else
// exit − entry). Days without any are left out.
func (r Reports) Bookings(ctx context.Context, w ReportWindow, noShowBefore time.Time) ([]BookingDay, error) {
	days := map[int64]*BookingDay{}
	at := func(d int64) *BookingDay {
		if days[d] == nil {
			days[d] = &BookingDay{Day: d}
		}
		return days[d]
	}
	from, to := Time(w.From), Time(w.To)
	err := r.each(ctx, `SELECT `+r.dayOf("reservation_date", w)+`, COUNT(*),
			COALESCE(SUM(CASE WHEN status = 'CANCELADA' THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(`+r.epoch("entry_date")+` - `+r.epoch("reservation_date")+`), 0)
		FROM reservation WHERE reservation_date >= $1 AND reservation_date < $2 GROUP BY 1`,
		[]any{from, to}, func(d int64, v []int64) { b := at(d); b.Created, b.Cancelled, b.LeadSeconds = v[0], v[1], v[2] })
	if err != nil {
		return nil, fmt.Errorf("report bookings made: %w", err)
	}
	err = r.each(ctx, `SELECT `+r.dayOf("entry_date", w)+`, COUNT(*) FROM reservation
		WHERE status = 'PENDIENTE' AND checked_in_at IS NULL AND entry_date >= $1 AND entry_date < $2 AND entry_date < $3
		GROUP BY 1`, []any{from, to, Time(noShowBefore)}, func(d int64, v []int64) { at(d).NoShows = v[0] })
	if err != nil {
		return nil, fmt.Errorf("report no-shows: %w", err)
	}
	end, start := "COALESCE(checked_out_at, exit_date)", "COALESCE(checked_in_at, entry_date)"
	err = r.each(ctx, `SELECT `+r.dayOf("entry_date", w)+`, COUNT(*), COALESCE(SUM(`+r.epoch(end)+` - `+r.epoch(start)+`), 0)
		FROM reservation WHERE status = 'FINALIZADA' AND entry_date >= $1 AND entry_date < $2 AND `+end+` IS NOT NULL
		GROUP BY 1`, []any{from, to}, func(d int64, v []int64) { b := at(d); b.Finished, b.StaySeconds = v[0], v[1] })
	if err != nil {
		return nil, fmt.Errorf("report stays: %w", err)
	}
	out := make([]BookingDay, 0, len(days))
	for _, b := range days {
		out = append(out, *b)
	}
	return out, nil
}

// FinishedStays counts the FINALIZADA stays that held a place on some day of the
// window, by their first and last local day (check-in … check-out, else entry …
// exit); the caller spreads them over the days (docs/reports.md#occupancy).
func (r Reports) FinishedStays(ctx context.Context, w ReportWindow) ([]StaySpan, error) {
	end, start := "COALESCE(checked_out_at, exit_date)", "COALESCE(checked_in_at, entry_date)"
	var out []StaySpan
	rows, err := r.Query(ctx, `SELECT `+r.dayOf(start, w)+`, `+r.dayOf(end, w)+`, COUNT(*) FROM reservation
		WHERE status = 'FINALIZADA' AND `+end+` >= $1 AND `+start+` < $2 GROUP BY 1, 2`, Time(w.From), Time(w.To))
	if err != nil {
		return nil, fmt.Errorf("report finished stays: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s StaySpan
		if err := rows.Scan(&s.First, &s.Last, &s.Count); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Invoices is the book of the receipts issued in the window, in the order of their
// series (year, then number), each with what it replaces.
func (r Reports) Invoices(ctx context.Context, w ReportWindow, fn func(InvoiceRow) error) error {
	rows, err := r.Query(ctx, `SELECT number, issued_at, kind, COALESCE(replaces, ''), recipient_tax_id, recipient_name,
			vat_rate_bp, base_cents, vat_cents, total_cents
		FROM receipt WHERE issued_at >= $1 AND issued_at < $2 ORDER BY year, seq`, Time(w.From), Time(w.To))
	if err != nil {
		return fmt.Errorf("invoice book: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v InvoiceRow
		var taxID, name sql.NullString
		if err := rows.Scan(&v.Number, &v.IssuedAt, &v.Kind, &v.Replaces, &taxID, &name, &v.VATRate, &v.Base, &v.VAT, &v.Total); err != nil {
			return err
		}
		if taxID.Valid {
			v.TaxID = &taxID.String
		}
		if name.Valid {
			v.Name = &name.String
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}

// each runs a query whose rows are a local day and integers, calling fn with each.
func (r Reports) each(ctx context.Context, q string, args []any, fn func(day int64, v []int64)) error {
	rows, err := r.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]int64, len(cols)-1)
	dest := make([]any, len(cols))
	var day int64
	dest[0] = &day
	for i := range vals {
		dest[i+1] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		fn(day, vals)
	}
	return rows.Err()
}
