package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/database"
	"parking/internal/money"
)

// The reports' queries (docs/reports.md): every figure is an aggregate computed by the
// database (GROUP BY over an indexed range, migration 0033), never rows loaded into Go.
// Days are the facility's local days (docs/dates.md#local-days), counted from
// 1970-01-01 like occupancy.Day: the database groups by the UTC hour (Reports.bucket),
// and each hour is read as its local day here, exact across the summer-time changes
// on both databases.

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

// InvoiceRow is one receipt of the invoice book.
type InvoiceRow struct {
	Number, Kind, Replaces string
	IssuedAt               time.Time
	TaxID, Name            *string
	VATRate                int // basis points
	Base, VAT, Total       money.Cents
}

// reservationChannel is the SQL of a reservation's sales channel (docs/reports.md#channels):
// the channel the reservation stored when it was made (web, counter or partner:<id>).
func reservationChannel(res string) string { return res + `.channel` }

// epoch is the SQL of a timestamp's unix seconds.
func (r Reports) epoch(col string) string {
	if r.Dialect() == database.Postgres {
		return "CAST(FLOOR(EXTRACT(EPOCH FROM " + col + ")) AS BIGINT)"
	}
	return "CAST(strftime('%s', " + col + ") AS INTEGER)"
}

// bucket is the SQL of the UTC hour of timestamp col as text, "YYYY-MM-DD HH" (or
// the minute, "YYYY-MM-DD HH:MM", when the zone's offset over the window is not a
// whole number of hours): grouping by it costs no date arithmetic per row (on SQLite
// it is the stored text's prefix), and every hour (minute) lies in one local day,
// which Go then reads (days).
func (r Reports) bucket(col string, w ReportWindow) string {
	minutes := !wholeHours(w)
	if r.Dialect() == database.Postgres {
		if minutes {
			return "to_char(" + col + " AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')"
		}
		return "to_char(" + col + " AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24')"
	}
	if minutes {
		return "substr(" + col + ", 1, 16)"
	}
	return "substr(" + col + ", 1, 13)"
}

// wholeHours reports whether the zone's offset is a whole number of hours over the
// window and a month either side (stays carried in or out).
func wholeHours(w ReportWindow) bool {
	t, end := w.From.AddDate(0, 0, -31), w.To.AddDate(0, 0, 31)
	for {
		_, off := t.In(w.Loc).Zone()
		if off%3600 != 0 {
			return false
		}
		_, next := t.In(w.Loc).ZoneBounds()
		if next.IsZero() || !next.Before(end) {
			return true
		}
		t = next
	}
}

// days reads buckets as local days, remembering each.
type days struct {
	loc  *time.Location
	seen map[string]int64
}

func newDays(loc *time.Location) *days { return &days{loc: loc, seen: map[string]int64{}} }

func (d *days) of(bucket string) (int64, error) {
	if v, ok := d.seen[bucket]; ok {
		return v, nil
	}
	layout := "2006-01-02 15"
	if len(bucket) > len(layout) {
		layout = "2006-01-02 15:04"
	}
	t, err := time.ParseInLocation(layout, bucket, time.UTC)
	if err != nil {
		return 0, fmt.Errorf("report bucket %q: %w", bucket, err)
	}
	y, m, dd := t.In(d.loc).Date()
	v := time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).Unix() / 86400
	d.seen[bucket] = v
	return v, nil
}

// stayStart and stayEnd are the SQL of a stay's start (check-in, else the booked entry)
// and end (check-out, else the booked exit).
const (
	stayStart = "COALESCE(checked_in_at, entry_date)"
	stayEnd   = "COALESCE(checked_out_at, exit_date)"
)

// Revenue sums the receipts issued in the window that are sales (docs/reports.md#revenue):
// a full invoice issued in place of a simplified receipt (replaces set) repeats a sale
// already counted, so it is left out. Grouped by local day of issue, main service and
// channel.
func (r Reports) Revenue(ctx context.Context, w ReportWindow) ([]RevenueGroup, error) {
	rd, err := r.read(ctx, w)
	if err != nil {
		return nil, err
	}
	defer rd.close()
	type key struct {
		day, svc int64
		ch       string
	}
	groups := map[key]int{}
	var out []RevenueGroup
	ds := newDays(w.Loc)
	// add reads groups keyed by a UTC hour bucket (live) or a local day (summary).
	add := func(rows *sql.Rows, summary bool) error {
		defer rows.Close()
		for rows.Next() {
			var g RevenueGroup
			var b string
			var day int64
			dest := any(&b)
			if summary {
				dest = &day
			}
			if err := rows.Scan(dest, &g.MainService, &g.ServiceName, &g.Channel, &g.Receipts, &g.Total, &g.Base, &g.VAT); err != nil {
				return err
			}
			g.Day = day
			if !summary {
				if g.Day, err = ds.of(b); err != nil {
					return err
				}
			}
			k := key{g.Day, g.MainService, g.Channel}
			if i, ok := groups[k]; ok {
				o := &out[i]
				o.Receipts, o.Total, o.Base, o.VAT = o.Receipts+g.Receipts, o.Total+g.Total, o.Base+g.Base, o.VAT+g.VAT
				continue
			}
			groups[k] = len(out)
			out = append(out, g)
		}
		return rows.Err()
	}
	if rd.sum != nil {
		rows, err := rd.q.Query(ctx, `SELECT g.day, g.svc, ms.name, g.ch, g.n, g.total, g.base, g.vat FROM (
			SELECT `+localDay("hour", *rd.sum)+` AS day, id_main_service AS svc, channel AS ch, SUM(receipts) AS n,
				SUM(total_cents) AS total, SUM(base_cents) AS base, SUM(vat_cents) AS vat
			FROM report_revenue WHERE hour >= $1 AND hour < $2 GROUP BY 1, 2, 3) g
			JOIN main_service ms ON ms.id_main_service = g.svc WHERE g.n <> 0`, hourKey(rd.sum.From), hourKey(rd.sum.To))
		if err == nil {
			err = add(rows, true)
		}
		if err != nil {
			return nil, fmt.Errorf("report revenue summary: %w", err)
		}
	}
	if rd.live != nil {
		lw := *rd.live
		rows, err := rd.q.Query(ctx, `SELECT g.b, g.svc, ms.name, g.ch, g.n, g.total, g.base, g.vat FROM (
			SELECT `+r.bucket("rc.issued_at", lw)+` AS b, res.id_main_service AS svc, `+reservationChannel("res")+` AS ch,
				COUNT(*) AS n, SUM(rc.total_cents) AS total, SUM(rc.base_cents) AS base, SUM(rc.vat_cents) AS vat
			FROM receipt rc JOIN reservation res ON res.id_reservation = rc.id_reservation
			WHERE rc.issued_at >= $1 AND rc.issued_at < $2 AND rc.replaces IS NULL
			GROUP BY 1, 2, 3) g JOIN main_service ms ON ms.id_main_service = g.svc`, Time(lw.From), Time(lw.To))
		if err == nil {
			err = add(rows, false)
		}
		if err != nil {
			return nil, fmt.Errorf("report revenue: %w", err)
		}
	}
	return out, nil
}

// Bookings counts per local day the reservations made in the window (reservation_date),
// those of them now cancelled and their lead time (entry − booking); the PENDIENTE
// stays never started whose entry is in the window and before noShowBefore; the
// FINALIZADA stays entered in the window and their length (check-out − check-in, else
// exit − entry). Days without any are left out.
func (r Reports) Bookings(ctx context.Context, w ReportWindow, noShowBefore time.Time) ([]BookingDay, error) {
	rd, err := r.read(ctx, w)
	if err != nil {
		return nil, err
	}
	defer rd.close()
	days := map[int64]*BookingDay{}
	at := func(d int64) *BookingDay {
		if days[d] == nil {
			days[d] = &BookingDay{Day: d}
		}
		return days[d]
	}
	err = rd.hours(ctx, func(d int64, v []int64) {
		if v[0] == 0 && v[3] == 0 {
			return
		}
		b := at(d)
		b.Created, b.Cancelled, b.LeadSeconds = b.Created+v[0], b.Cancelled+v[1], b.LeadSeconds+v[2]
		b.Finished, b.StaySeconds = b.Finished+v[3], b.StaySeconds+v[4]
	})
	if err != nil {
		return nil, fmt.Errorf("report bookings summary: %w", err)
	}
	if rd.live != nil {
		lw := *rd.live
		from, to := Time(lw.From), Time(lw.To)
		err := eachDay(ctx, rd.q, lw, `SELECT `+r.bucket("reservation_date", lw)+`, COUNT(*),
				COALESCE(SUM(CASE WHEN status = 'CANCELADA' THEN 1 ELSE 0 END), 0),
				COALESCE(SUM(`+r.epoch("entry_date")+` - `+r.epoch("reservation_date")+`), 0)
			FROM reservation WHERE reservation_date >= $1 AND reservation_date < $2 GROUP BY 1`,
			[]any{from, to}, func(d int64, v []int64) {
				b := at(d)
				b.Created, b.Cancelled, b.LeadSeconds = b.Created+v[0], b.Cancelled+v[1], b.LeadSeconds+v[2]
			})
		if err != nil {
			return nil, fmt.Errorf("report bookings made: %w", err)
		}
		err = eachDay(ctx, rd.q, lw, `SELECT `+r.bucket("entry_date", lw)+`, COUNT(*), COALESCE(SUM(`+r.epoch(stayEnd)+` - `+r.epoch(stayStart)+`), 0)
			FROM reservation WHERE status = 'FINALIZADA' AND entry_date >= $1 AND entry_date < $2 AND `+stayEnd+` IS NOT NULL
			GROUP BY 1`, []any{from, to}, func(d int64, v []int64) {
			b := at(d)
			b.Finished, b.StaySeconds = b.Finished+v[0], b.StaySeconds+v[1]
		})
		if err != nil {
			return nil, fmt.Errorf("report stays: %w", err)
		}
	}
	err = eachDay(ctx, rd.q, w, `SELECT `+r.bucket("entry_date", w)+`, COUNT(*) FROM reservation
		WHERE status = 'PENDIENTE' AND checked_in_at IS NULL AND entry_date >= $1 AND entry_date < $2 AND entry_date < $3
		GROUP BY 1`, []any{Time(w.From), Time(w.To), Time(noShowBefore)}, func(d int64, v []int64) { at(d).NoShows += v[0] })
	if err != nil {
		return nil, fmt.Errorf("report no-shows: %w", err)
	}
	out := make([]BookingDay, 0, len(days))
	for _, b := range days {
		out = append(out, *b)
	}
	return out, nil
}

// StayEdges is the finished stays that held a place on some day of a window, as a
// difference array: Carried began before the window; Starts and Ends count by local
// day those that began, and those that ended, inside it.
type StayEdges struct {
	Carried      int64
	Starts, Ends map[int64]int64
}

// FinishedStays reads the FINALIZADA stays that held a place on some day of the
// window, from check-in to check-out (else entry to exit); the caller spreads them
// over the days (docs/reports.md#occupancy).
func (r Reports) FinishedStays(ctx context.Context, w ReportWindow) (StayEdges, error) {
	e := StayEdges{Starts: map[int64]int64{}, Ends: map[int64]int64{}}
	rd, err := r.read(ctx, w)
	if err != nil {
		return e, err
	}
	defer rd.close()
	end, start := stayEnd, stayStart
	if rd.sum != nil {
		// The summary's stays end at or after they start: those begun before the window
		// less those ended before it are the ones carried in.
		err = rd.q.QueryRow(ctx, `SELECT COALESCE(SUM(starts - ends), 0) FROM report_hour WHERE hour < $1`,
			hourKey(w.From)).Scan(&e.Carried)
		if err == nil {
			err = rd.hours(ctx, func(d int64, v []int64) { e.Starts[d] += v[5]; e.Ends[d] += v[6] })
		}
		if err == nil {
			err = rd.irregular(ctx, r, &e, w.To)
		}
	} else {
		err = rd.q.QueryRow(ctx, `SELECT COUNT(*) FROM reservation WHERE status = 'FINALIZADA' AND `+end+` >= $1 AND `+start+` < $1`,
			Time(w.From)).Scan(&e.Carried)
	}
	if err != nil {
		return e, fmt.Errorf("report stays carried in: %w", err)
	}
	if rd.live == nil {
		return e, nil
	}
	lw := *rd.live
	from, to := Time(lw.From), Time(lw.To)
	err = eachDay(ctx, rd.q, lw, `SELECT `+r.bucket(start, lw)+`, COUNT(*) FROM reservation
		WHERE status = 'FINALIZADA' AND `+start+` >= $1 AND `+start+` < $2 GROUP BY 1`,
		[]any{from, to}, func(d int64, v []int64) { e.Starts[d] += v[0] })
	if err != nil {
		return e, fmt.Errorf("report stays begun: %w", err)
	}
	err = eachDay(ctx, rd.q, lw, `SELECT `+r.bucket(end, lw)+`, COUNT(*) FROM reservation
		WHERE status = 'FINALIZADA' AND `+end+` >= $1 AND `+end+` < $2 AND `+start+` < $2 GROUP BY 1`,
		[]any{from, to}, func(d int64, v []int64) { e.Ends[d] += v[0] })
	if err != nil {
		return e, fmt.Errorf("report stays ended: %w", err)
	}
	return e, nil
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

// eachDay runs on q a query whose rows are a bucket (a UTC hour) and integers, calling
// fn with each, the bucket read as its local day.
func eachDay(ctx context.Context, q database.Runner, w ReportWindow, query string, args []any, fn func(day int64, v []int64)) error {
	rows, err := q.Query(ctx, query, args...)
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
	var bucket string
	dest[0] = &bucket
	ds := newDays(w.Loc)
	for i := range vals {
		dest[i+1] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		day, err := ds.of(bucket)
		if err != nil {
			return err
		}
		fn(day, vals)
	}
	return rows.Err()
}
