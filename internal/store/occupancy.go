package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"parking/internal/database"

	"parking/internal/occupancy"
	"parking/internal/settings"
)

// The per-day occupancy ledger (docs/capacity.md#what-counts; internal/occupancy says what it holds).
// Every reservation change applies its ledger delta in its own transaction
// (ApplyOccupancy), so the ledger and the reservations commit together or not at all.
// A day's count is the sum of its rows: one on SQLite, occupancyStripes on
// PostgreSQL (below).
//
// Race-freedom. On SQLite the single writer runs write transactions one at a time,
// so a check and the increment it guards cannot interleave with another's.
//
// On PostgreSQL a row that every booking of a day updated would serialise those
// bookings (its lock is held through the commit's WAL flush, so they could not share
// a group commit either): public booking throughput halved on popular days. So each
// day has occupancyStripes rows, and a change writes the stripe of its reservation
// (id mod stripes). Two paths, both exact:
//
//   - Fast (a new stay, not touching today): lock and increment the stay's rows of its
//     own stripe, then read each day's sum in a new statement (a snapshot taken after
//     those locks). Every other stripe row is locked by at most one transaction at a
//     time, so at most one uncommitted +1 per other stripe is missing from that sum:
//     if sum + (stripes − 1) is within the limit, no concurrent commit can take the
//     day over it. Far from the limit (the usual case) bookings of one day run in
//     parallel, one per stripe. It is one round trip: the function occupancy_claim
//     (migration 0017) reads the sellable limit when asked, runs both statements (a
//     VOLATILE function takes a new snapshot per statement; one statement with a CTE
//     would not, and could miss any number of commits made while it waited for its
//     stripe's locks), and rolls its attempt back itself when it cannot decide.
//   - Exact (near the limit, every edit, release and check of today): roll the fast
//     attempt back (inside occupancy_claim: an exception block, whose rollback frees
//     its row locks), create the day's missing stripe rows, lock all
//     rows of every day touched in (day, stripe) order, apply, and sum: nobody else
//     can change those days until the commit. A second booking for the last place
//     waits for the first one's commit and then sees its count. Today's open stays
//     are counted after today's rows are locked, and every change that adds an open
//     stay on today locks them too.
//
// Both paths take locks in (day, stripe) order, so no two changes wait for each other
// in opposite orders; rows of days nobody booked yet are created with INSERT … ON
// CONFLICT DO NOTHING in the same order.

// occupancyStripes is how many ledger rows a day has on PostgreSQL.
const occupancyStripes = 8

func (tx OccupancyTx) stripes() int {
	if tx.Dialect() == Postgres {
		return occupancyStripes
	}
	return 1
}

// OccupancyChange is one reservation change's effect on the ledger.
type OccupancyChange struct {
	Reservation int64            // whose change: its stripe is written
	Release     []occupancy.Span // ledger days the change frees (booked − 1)
	Claim       []occupancy.Span // ledger days the change occupies (booked + 1)
	// Check are the days whose count rises and must stay within Limit (0: no limit):
	// days from today on that the change adds (ledger or open), never past days.
	Check []occupancy.Span
	Limit int
	// SellableLimit: the limit is the facility's sellable places
	// (settings.Facility.SellableLimit), read by ApplyOccupancy in the transaction (on
	// PostgreSQL's fast path, in the same round trip as the claim); Limit is ignored.
	SellableLimit bool
	// Final: a day over the limit refuses the change (no override may keep it). On
	// PostgreSQL a new stay's claim (the fast path's change) is then queued and decided
	// inside the database on both paths (occupancy_claim_final, migration 0035): it goes
	// out with the transaction's next round trip, its COMMIT's included, and a refusal
	// fails the transaction with *OverLimitError; ApplyOccupancy returns no days
	// (docs/performance.md#the-public-booking-in-two-round-trips).
	Final bool
	// Today and its bounds in the facility's zone: today's count adds the open stays.
	Today      occupancy.Day
	TodayStart time.Time
	Tomorrow   time.Time
}

func (c OccupancyChange) empty() bool {
	return len(c.Release) == 0 && len(c.Claim) == 0 && len(c.Check) == 0
}

// ApplyOccupancy applies c and returns the checked days that are now over the limit
// (in day order). The caller refuses the change by returning an error (the
// transaction rolls back, the ledger with it) or, with a staff override, keeps it.
func (tx OccupancyTx) ApplyOccupancy(ctx context.Context, c OccupancyChange) ([]occupancy.Day, error) {
	if c.empty() {
		return nil, nil
	}
	stripe := int(c.Reservation % int64(tx.stripes()))
	if tx.Dialect() == SQLite && c.fast() {
		return tx.claimSQLite(ctx, c)
	}
	if tx.Dialect() == Postgres && c.fast() && c.Final {
		return nil, tx.claimFinal(ctx, c, stripe)
	}
	if tx.Dialect() == Postgres && c.fast() {
		claimed, f, err := tx.claimFast(ctx, c, stripe)
		if err != nil || claimed {
			return nil, err
		}
		if c.SellableLimit {
			c.Limit, c.SellableLimit = f.SellableLimit(), false
		}
	}
	if c.SellableLimit {
		f, err := CatalogTx(tx).Facility(ctx)
		if err != nil {
			return nil, err
		}
		c.Limit = f.SellableLimit()
	}
	checkToday := c.Limit > 0 && slices.ContainsFunc(c.Check, func(s occupancy.Span) bool { return s.Has(c.Today) })
	touched := append(slices.Clone(c.Release), c.Claim...)
	if checkToday {
		touched = append(touched, occupancy.Span{First: c.Today, Last: c.Today})
	}
	if err := tx.ensureOccupancy(ctx, touched); err != nil {
		return nil, err
	}
	if err := tx.lockOccupancy(ctx, touched); err != nil {
		return nil, err
	}
	for _, s := range c.Release {
		if _, err := tx.Exec(ctx, `UPDATE occupancy SET booked = booked - 1 WHERE day BETWEEN $1 AND $2 AND stripe = $3`, s.First, s.Last, stripe); err != nil {
			return nil, fmt.Errorf("release occupancy: %w", err)
		}
	}
	for _, s := range c.Claim {
		if _, err := tx.Exec(ctx, `UPDATE occupancy SET booked = booked + 1 WHERE day BETWEEN $1 AND $2 AND stripe = $3`, s.First, s.Last, stripe); err != nil {
			return nil, fmt.Errorf("claim occupancy: %w", err)
		}
	}
	if c.Limit <= 0 || len(c.Check) == 0 {
		return nil, nil
	}
	counts := map[occupancy.Day]int{}
	for _, s := range c.Check {
		if err := tx.sumOccupancy(ctx, s, counts); err != nil {
			return nil, err
		}
	}
	if checkToday {
		open, err := tx.openCount(ctx, c.TodayStart, c.Tomorrow)
		if err != nil {
			return nil, err
		}
		counts[c.Today] += open
	}
	return overLimit(c, counts, 0), nil
}

// fast reports whether c may take the fast path (see the top of the file): a new
// stay's days, at most one checked span within them, today not checked (today's
// count adds the open stays, which only the exact path locks for).
func (c OccupancyChange) fast() bool {
	if len(c.Release) != 0 || len(c.Claim) != 1 || len(c.Check) > 1 {
		return false
	}
	if len(c.Check) == 1 {
		ch, cl := c.Check[0], c.Claim[0]
		if ch.Has(c.Today) || ch.First < cl.First || ch.Last > cl.Last {
			return false
		}
	}
	return true
}

// claimFast is the fast path (see the top of the file) for a new stay on PostgreSQL,
// in one round trip: occupancy_claim (migration 0017_occupancy_claim) reads the
// sellable limit when c asks for it, locks and increments the stay's rows of its
// stripe, and sums the checked days in a new snapshot taken after those locks; a
// missing row or a day within the margin of the limit rolls the attempt back inside
// the function (its locks with it) and answers claimed = false: the exact path
// decides, with f when the function read the settings.
func (tx OccupancyTx) claimFast(ctx context.Context, c OccupancyChange, stripe int) (claimed bool, f settings.Facility, err error) {
	var capacity, sellable sql.NullInt64 // NULL when the limit was given
	// Send: the statements the transaction queued go in the same round trip.
	err = tx.Send(ctx, database.Stmt{Query: `SELECT claimed, f_capacity, f_sellable FROM occupancy_claim($1, $2, $3, $4, $5, $6, $7)`,
		Args: claimArgs(c, stripe, occupancyStripes-1),
		Dest: []any{&claimed, &capacity, &sellable}})
	if err != nil {
		return false, f, fmt.Errorf("claim occupancy: %w", err)
	}
	f.Capacity, f.Sellable = int(capacity.Int64), int(sellable.Int64)
	return claimed, f, nil
}

// claimArgs are the arguments of occupancy_claim and occupancy_claim_final for a new
// stay's claim c on stripe: the stay's days, the stripe, the checked days (an empty
// span when there are none), stripes as the function takes it, and the limit (NULL:
// the function reads the sellable places).
func claimArgs(c OccupancyChange, stripe, stripes int) []any {
	sp := c.Claim[0]
	check := occupancy.Span{First: 1, Last: 0} // empty: nothing to check
	if len(c.Check) == 1 {
		check = c.Check[0]
	}
	var limit *int
	if !c.SellableLimit {
		limit = &c.Limit
	}
	return []any{int(sp.First), int(sp.Last), stripe, int(check.First), int(check.Last), stripes, limit}
}

// OverLimitError is a final claim refused inside the database (OccupancyChange.Final):
// the checked days over the limit, in day order.
type OverLimitError struct{ Days []occupancy.Day }

func (e *OverLimitError) Error() string { return fmt.Sprintf("occupancy over the limit on %v", e.Days) }

// overLimitCode is the SQLSTATE occupancy_claim_final raises, its detail the days over
// the limit, comma-separated.
const overLimitCode = "PK001"

// claimFinal queues a new stay's claim decided inside the database (OccupancyChange.Final).
func (tx OccupancyTx) claimFinal(ctx context.Context, c OccupancyChange, stripe int) error {
	return tx.Queue(ctx, database.Stmt{Query: `SELECT occupancy_claim_final($1, $2, $3, $4, $5, $6, $7)`,
		Args: claimArgs(c, stripe, occupancyStripes),
		Refused: func(pe *pgconn.PgError) error {
			if pe.Code != overLimitCode {
				return nil
			}
			var over OverLimitError
			for _, f := range strings.Split(pe.Detail, ",") {
				d, err := strconv.Atoi(f)
				if err != nil {
					return fmt.Errorf("occupancy over the limit, days %q: %w", pe.Detail, err)
				}
				over.Days = append(over.Days, occupancy.Day(d))
			}
			return &over
		},
		What: "claim occupancy"})
}

// sumOccupancy adds each day's count over span (the sum of its stripes) to counts.
func (tx OccupancyTx) sumOccupancy(ctx context.Context, span occupancy.Span, counts map[occupancy.Day]int) error {
	rows, err := tx.Query(ctx, `SELECT day, SUM(booked) FROM occupancy WHERE day BETWEEN $1 AND $2 GROUP BY day`, span.First, span.Last)
	if err != nil {
		return fmt.Errorf("count occupancy: %w", err)
	}
	for rows.Next() {
		var d occupancy.Day
		var n int
		if err := rows.Scan(&d, &n); err != nil {
			rows.Close()
			return err
		}
		counts[d] += n
	}
	return closeRows(rows)
}

// overLimit lists the checked days whose count plus margin is over the limit, in day
// order.
func overLimit(c OccupancyChange, counts map[occupancy.Day]int, margin int) []occupancy.Day {
	var over []occupancy.Day
	for _, s := range c.Check {
		for d := s.First; d <= s.Last; d++ {
			if n, ok := counts[d]; ok && n+margin > c.Limit {
				over = append(over, d)
			}
		}
	}
	slices.Sort(over)
	return slices.Compact(over)
}

// lockOccupancy locks, on PostgreSQL, every row of the days of touched in (day,
// stripe) order (see the top of the file); SQLite has one writer and needs nothing.
func (tx OccupancyTx) lockOccupancy(ctx context.Context, touched []occupancy.Span) error {
	if tx.Dialect() == SQLite {
		return nil
	}
	var where []string
	var args []any
	for _, s := range touched {
		where = append(where, fmt.Sprintf("day BETWEEN $%d AND $%d", len(args)+1, len(args)+2))
		args = append(args, s.First, s.Last)
	}
	rows, err := tx.Query(ctx, `SELECT day FROM occupancy WHERE `+strings.Join(where, " OR ")+` ORDER BY day, stripe FOR UPDATE`, args...)
	if err != nil {
		return fmt.Errorf("lock occupancy: %w", err)
	}
	return closeRows(rows)
}

// ensureOccupancy creates every stripe row of the days of spans that does not exist
// yet, in (day, stripe) order.
func (tx OccupancyTx) ensureOccupancy(ctx context.Context, spans []occupancy.Span) error {
	spans = slices.Clone(spans)
	slices.SortFunc(spans, func(a, b occupancy.Span) int { return int(a.First - b.First) })
	for _, s := range spans {
		if s.Empty() {
			continue
		}
		if _, err := tx.Exec(ctx, `WITH RECURSIVE d(x) AS (SELECT CAST($1 AS INTEGER) UNION ALL SELECT x + 1 FROM d WHERE x < CAST($2 AS INTEGER)),
			st(y) AS (SELECT 0 UNION ALL SELECT y + 1 FROM st WHERE y < CAST($3 AS INTEGER))
			INSERT INTO occupancy (day, stripe, booked) SELECT x, y, 0 FROM d, st WHERE true ORDER BY x, y ON CONFLICT (day, stripe) DO NOTHING`,
			s.First, s.Last, tx.stripes()-1); err != nil {
			return fmt.Errorf("create occupancy days: %w", err)
		}
	}
	return nil
}

// openStaysQuery lists the open stays that count on some day before $1 (the start of
// the day after the last day asked for): without an exit and entered before $1, or
// EN CURSO with an exit before $2 (the start of today): past it, still in the car park.
const openStaysQuery = `SELECT entry_date, exit_date, status FROM reservation
	WHERE exit_date IS NULL AND status IN ('PENDIENTE', 'EN CURSO') AND entry_date < $1
	UNION ALL
	SELECT entry_date, exit_date, status FROM reservation
	WHERE status = 'EN CURSO' AND exit_date < $2`

// openCount counts the open stays on today (docs/capacity.md#what-counts): no exit and entered
// before tomorrow, or EN CURSO with an exit before today.
func (tx OccupancyTx) openCount(ctx context.Context, todayStart, tomorrow time.Time) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM reservation WHERE exit_date IS NULL AND status IN ('PENDIENTE', 'EN CURSO') AND entry_date < $1) +
		(SELECT COUNT(*) FROM reservation WHERE status = 'EN CURSO' AND exit_date < $2)`, Time(tomorrow), Time(todayStart)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count open stays: %w", err)
	}
	return n, nil
}

// OpenStays lists the open stays (see openStaysQuery): before is the start of the
// day after the last day of interest, todayStart the start of today.
func (s Occupancy) OpenStays(ctx context.Context, before, todayStart time.Time) ([]occupancy.Stay, error) {
	return listRows(ctx, s, "open stays", scanStay, openStaysQuery, Time(before), Time(todayStart))
}

func scanStay(row rowScanner) (occupancy.Stay, error) {
	var entry time.Time
	var exit sql.NullTime
	var status string
	if err := row.Scan(&entry, &exit, &status); err != nil {
		return occupancy.Stay{}, err
	}
	st := occupancy.Stay{Active: status == "PENDIENTE" || status == "EN CURSO", InCar: status == "EN CURSO", Entry: entry.UTC()}
	if exit.Valid {
		e := exit.Time.UTC()
		st.Exit = &e
	}
	return st, nil
}

// Occupancy reads the ledger over a span: booked per day (days without a row are 0).
func (s Occupancy) Occupancy(ctx context.Context, span occupancy.Span) (map[occupancy.Day]int, error) {
	rows, err := s.Query(ctx, `SELECT day, SUM(booked) FROM occupancy WHERE day BETWEEN $1 AND $2 GROUP BY day`, span.First, span.Last)
	if err != nil {
		return nil, fmt.Errorf("occupancy: %w", err)
	}
	return scanCounts(rows)
}

// OccupancyLedger reads the whole ledger, days with a count other than 0 only
// (tests and the rebuild's report compare it with a recount).
func (s Occupancy) OccupancyLedger(ctx context.Context) (map[occupancy.Day]int, error) {
	rows, err := s.Query(ctx, `SELECT day, SUM(booked) FROM occupancy GROUP BY day HAVING SUM(booked) <> 0`)
	if err != nil {
		return nil, fmt.Errorf("occupancy ledger: %w", err)
	}
	return scanCounts(rows)
}

func scanCounts(rows interface {
	Next() bool
	Scan(...any) error
	Close() error
	Err() error
}) (map[occupancy.Day]int, error) {
	out := map[occupancy.Day]int{}
	defer rows.Close()
	for rows.Next() {
		var d occupancy.Day
		var n int
		if err := rows.Scan(&d, &n); err != nil {
			return nil, err
		}
		out[d] = n
	}
	return out, rows.Err()
}
