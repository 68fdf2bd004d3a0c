package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"

	"parking/internal/database"
)

// The summary of closed hours (docs/reports.md#summary): report_hour and report_revenue
// hold, for every UTC hour before report_summary.upto, what the live queries would sum
// over it; the triggers of migration 0034 keep those hours exact as rows change. A
// report reads the summary for the hours before upto and the tables after it, both in
// one snapshot, so a year costs some thousand summary rows instead of a scan of every
// booking made in it.

// summaryLock is the advisory lock a PostgreSQL writer takes shared (report_upto()) and
// Rollup exclusively, one per schema (the summary table's oid in its low 32 bits).
const summaryLock = `SELECT pg_advisory_xact_lock(8733001 * CAST(4294967296 AS BIGINT) + CAST(CAST('report_summary'::regclass AS oid) AS BIGINT))`

// hourKey is the summary's key of the hour holding t: hours since 1970-01-01 00:00 UTC.
func hourKey(t time.Time) int64 { return t.Unix() / 3600 }

// hourSQL is the SQL of the summary's key of timestamp col.
func (r Reports) hourSQL(col string) string {
	if r.Dialect() == database.Postgres {
		return "CAST(FLOOR(EXTRACT(EPOCH FROM " + col + ") / 3600) AS BIGINT)"
	}
	return r.epoch(col) + " / 3600"
}

// localDay is the SQL of the local day (counted from 1970-01-01) of the hour key col,
// for a window whose zone's offset is whole hours (wholeHours): the offset of each
// stretch between the zone's changes over the window.
func localDay(col string, w ReportWindow) string {
	var b strings.Builder
	t := w.From
	for {
		_, off := t.In(w.Loc).Zone()
		_, next := t.In(w.Loc).ZoneBounds()
		if next.IsZero() || !next.Before(w.To) {
			if b.Len() == 0 {
				return fmt.Sprintf("((%s + %d) / 24)", col, off/3600)
			}
			fmt.Fprintf(&b, " ELSE %d END) / 24)", off/3600)
			return b.String()
		}
		if b.Len() == 0 {
			b.WriteString("((" + col + " + CASE")
		}
		fmt.Fprintf(&b, " WHEN %s < %d THEN %d", col, hourKey(next), off/3600)
		t = next
	}
}

// RollupChunk is the most hours one rollup transaction sums: a week. On SQLite the
// rollup holds the one writer, on PostgreSQL it keeps the writers of reservations and
// receipts waiting (summaryLock), so a history of years joins the summary a week per
// transaction (some tenths of a second each at a million reservations) with the
// bookings served in between, never in one transaction of half a minute.
const RollupChunk = 7 * 24

// Rollup moves the summary's upto forward towards the hour holding now, at most
// chunks transactions of RollupChunk hours (chunks <= 0: until it is there). A
// summary that is still behind is never wrong, only slower to read: a report reads
// the tables from upto on (docs/reports.md#summary). Each transaction's hours are
// summed from the tables while no writer touching them can overlap it (the writers'
// triggers add their changes to hours before upto themselves). It reports whether
// upto reached now.
func (r Reports) Rollup(ctx context.Context, now time.Time, chunks int) (bool, error) {
	key := hourKey(now.UTC().Truncate(time.Hour))
	var upto int64
	if err := r.QueryRow(ctx, `SELECT upto FROM report_summary WHERE id = 1`).Scan(&upto); err != nil {
		return false, fmt.Errorf("report summary: %w", err)
	}
	if upto == 0 {
		// Nothing summed yet: no write transaction (which would hold SQLite's writer)
		// while the history holds nothing before the current hour.
		first, err := r.firstHour(ctx, r)
		if err != nil {
			return false, err
		}
		if first >= key {
			return true, nil
		}
	}
	for i := 0; upto < key && (chunks <= 0 || i < chunks); i++ {
		next, err := r.rollupChunk(ctx, key)
		if err != nil {
			return false, err
		}
		upto = next
	}
	return upto >= key, nil
}

// firstHour is the hour of the earliest instant a summary row can be keyed by: a
// booking made, an entry, a stay's start or end, a receipt. One full read, on the
// first rollup only.
func (r Reports) firstHour(ctx context.Context, q database.Runner) (int64, error) {
	var parts []string
	for _, c := range []string{"reservation_date", "entry_date", stayStart, stayEnd} {
		parts = append(parts, `SELECT `+r.hourSQL("MIN("+c+")")+` AS h FROM reservation`)
	}
	parts = append(parts, `SELECT `+r.hourSQL("MIN(issued_at)")+` FROM receipt`)
	var first sql.NullInt64
	if err := q.QueryRow(ctx, `SELECT MIN(h) FROM (`+strings.Join(parts, " UNION ALL ")+`) x`).Scan(&first); err != nil {
		return 0, fmt.Errorf("report summary start: %w", err)
	}
	if !first.Valid {
		return math.MaxInt64, nil // an empty history: upto goes straight to now
	}
	return first.Int64, nil
}

// rollupChunk sums the next RollupChunk hours before key into the summary in one write
// transaction and moves upto past them. Upto is read again under the transaction's
// lock (another instance may have moved it); at 0, nothing summed yet, the chunk
// starts at the first hour with anything to sum, not in 1970, read under the lock too
// so that no row written meanwhile is left before it. It returns upto as it is after
// the transaction.
func (r Reports) rollupChunk(ctx context.Context, key int64) (int64, error) {
	var upto int64
	err := r.InTx(ctx, func(tx *database.Tx) error {
		if r.Dialect() == database.Postgres {
			if _, err := tx.Exec(ctx, summaryLock); err != nil {
				return fmt.Errorf("report summary lock: %w", err)
			}
		}
		if err := tx.QueryRow(ctx, `SELECT upto FROM report_summary WHERE id = 1`).Scan(&upto); err != nil {
			return fmt.Errorf("report summary: %w", err)
		}
		if upto >= key {
			return nil // another rollup got here first
		}
		from := upto
		if from == 0 {
			first, err := r.firstHour(ctx, tx)
			if err != nil {
				return err
			}
			from = min(first, key)
		}
		to := min(from+RollupChunk, key)
		for _, q := range []string{r.rollupHours(), r.rollupRevenue()} {
			if _, err := tx.Exec(ctx, q, Time(time.Unix(from*3600, 0).UTC()), Time(time.Unix(to*3600, 0).UTC())); err != nil {
				return fmt.Errorf("report summary rollup: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE report_summary SET upto = $1 WHERE id = 1`, to); err != nil {
			return fmt.Errorf("report summary upto: %w", err)
		}
		upto = to
		return nil
	})
	return upto, err
}

const hourSets = `ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made,
	cancelled = report_hour.cancelled + excluded.cancelled, lead_seconds = report_hour.lead_seconds + excluded.lead_seconds,
	finished = report_hour.finished + excluded.finished, stay_seconds = report_hour.stay_seconds + excluded.stay_seconds,
	starts = report_hour.starts + excluded.starts, ends = report_hour.ends + excluded.ends`

// rollupHours sums report_hour's figures over the hours [$1, $2), as the triggers do
// row by row.
func (r Reports) rollupHours() string {
	end, start := stayEnd, stayStart
	regular := `status = 'FINALIZADA' AND ` + end + ` IS NOT NULL AND ` + end + ` >= ` + start
	return `INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
	SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
		SELECT ` + r.hourSQL("reservation_date") + ` AS h, COUNT(*) AS made,
			SUM(CASE WHEN status = 'CANCELADA' THEN 1 ELSE 0 END) AS cancelled,
			SUM(` + r.epoch("entry_date") + ` - ` + r.epoch("reservation_date") + `) AS lead,
			0 AS finished, 0 AS stay, 0 AS starts, 0 AS ends
		FROM reservation WHERE reservation_date >= $1 AND reservation_date < $2 GROUP BY 1
		UNION ALL SELECT ` + r.hourSQL("entry_date") + `, 0, 0, 0, COUNT(*), SUM(` + r.epoch(end) + ` - ` + r.epoch(start) + `), 0, 0
		FROM reservation WHERE status = 'FINALIZADA' AND entry_date >= $1 AND entry_date < $2 AND ` + end + ` IS NOT NULL GROUP BY 1
		UNION ALL SELECT ` + r.hourSQL(start) + `, 0, 0, 0, 0, 0, COUNT(*), 0
		FROM reservation WHERE ` + regular + ` AND ` + start + ` >= $1 AND ` + start + ` < $2 GROUP BY 1
		UNION ALL SELECT ` + r.hourSQL(end) + `, 0, 0, 0, 0, 0, 0, COUNT(*)
		FROM reservation WHERE ` + regular + ` AND ` + end + ` >= $1 AND ` + end + ` < $2 GROUP BY 1
	) x WHERE h IS NOT NULL GROUP BY h ` + hourSets
}

// rollupRevenue sums report_revenue over the hours [$1, $2).
func (r Reports) rollupRevenue() string {
	return `INSERT INTO report_revenue (hour, id_main_service, channel, receipts, total_cents, base_cents, vat_cents)
	SELECT ` + r.hourSQL("rc.issued_at") + `, res.id_main_service, ` + reservationChannel("res") + `,
		COUNT(*), SUM(rc.total_cents), SUM(rc.base_cents), SUM(rc.vat_cents)
	FROM receipt rc JOIN reservation res ON res.id_reservation = rc.id_reservation
	WHERE rc.issued_at >= $1 AND rc.issued_at < $2 AND rc.replaces IS NULL GROUP BY 1, 2, 3
	ON CONFLICT (hour, id_main_service, channel) DO UPDATE SET receipts = report_revenue.receipts + excluded.receipts,
		total_cents = report_revenue.total_cents + excluded.total_cents,
		base_cents = report_revenue.base_cents + excluded.base_cents, vat_cents = report_revenue.vat_cents + excluded.vat_cents`
}

// reportRead is one snapshot of a report's reads, split at the summary's upto: sum is
// the part of the window read from the summary (nil: none), live the part read from
// the tables (nil: none).
type reportRead struct {
	q         *database.ReadTx
	sum, live *ReportWindow
}

// read opens the snapshot of window w.
func (r Reports) read(ctx context.Context, w ReportWindow) (*reportRead, error) {
	var opts sql.TxOptions
	if r.Dialect() == database.Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	q, err := r.BeginRead(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	rd := &reportRead{q: q, live: &w}
	var upto int64
	if err := q.QueryRow(ctx, `SELECT upto FROM report_summary WHERE id = 1`).Scan(&upto); err != nil {
		_ = q.Rollback()
		return nil, fmt.Errorf("report summary: %w", err)
	}
	split := time.Unix(upto*3600, 0).UTC()
	if upto == 0 || !wholeHours(w) || !split.After(w.From) {
		return rd, nil
	}
	sum := w
	if split.Before(w.To) {
		sum.To = split
		rd.live = &ReportWindow{From: split, To: w.To, Loc: w.Loc}
	} else {
		rd.live = nil
	}
	rd.sum = &sum
	return rd, nil
}

func (rd *reportRead) close() { _ = rd.q.Rollback() }

// hours runs fn on the summary part's report_hour figures summed by local day:
// made, cancelled, lead_seconds, finished, stay_seconds, starts, ends.
func (rd *reportRead) hours(ctx context.Context, fn func(day int64, v []int64)) error {
	if rd.sum == nil {
		return nil
	}
	rows, err := rd.q.Query(ctx, `SELECT `+localDay("hour", *rd.sum)+`, SUM(made), SUM(cancelled), SUM(lead_seconds),
			SUM(finished), SUM(stay_seconds), SUM(starts), SUM(ends)
		FROM report_hour WHERE hour >= $1 AND hour < $2 GROUP BY 1`, hourKey(rd.sum.From), hourKey(rd.sum.To))
	if err != nil {
		return err
	}
	defer rows.Close()
	var day int64
	v := make([]int64, 7)
	dest := []any{&day, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		fn(day, v)
	}
	return rows.Err()
}

// irregular adds to e the finished stays the summary leaves out (no end, or an end
// before the start) that begin or end in the summary part; to is the window's end.
func (rd *reportRead) irregular(ctx context.Context, r Reports, e *StayEdges, to time.Time) error {
	if rd.sum == nil {
		return nil
	}
	w := *rd.sum
	rows, err := rd.q.Query(ctx, `SELECT `+r.bucket(stayStart, w)+`, `+r.bucket(stayEnd, w)+`,
			CASE WHEN `+stayStart+` >= $1 AND `+stayStart+` < $2 THEN 1 ELSE 0 END,
			CASE WHEN `+stayEnd+` >= $1 AND `+stayEnd+` < $2 AND `+stayStart+` < $3 THEN 1 ELSE 0 END
		FROM reservation WHERE status = 'FINALIZADA' AND (`+stayEnd+` IS NULL OR `+stayEnd+` < `+stayStart+`)`,
		Time(w.From), Time(w.To), Time(to))
	if err != nil {
		return fmt.Errorf("report irregular stays: %w", err)
	}
	defer rows.Close()
	ds := newDays(w.Loc)
	for rows.Next() {
		var start string
		var end sql.NullString
		var begins, ends int
		if err := rows.Scan(&start, &end, &begins, &ends); err != nil {
			return err
		}
		if begins == 1 {
			d, err := ds.of(start)
			if err != nil {
				return err
			}
			e.Starts[d]++
		}
		if ends == 1 {
			d, err := ds.of(end.String)
			if err != nil {
				return err
			}
			e.Ends[d]++
		}
	}
	return rows.Err()
}
