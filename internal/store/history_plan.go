package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// matched is what step one learns of one side (customers or vehicles): how many
// match, how many reservations of the filter's status they hold, and their ids
// when there are few enough to pass to the page query.
type matched struct {
	n, reservations int
	ids             []int64 // nil when more than HistoryTuning.MaxPassedIDs matched
}

// HistoryTuning steers the history search's plan choices (Options.History); zero
// fields take the defaults. Tests force each plan through it, so that every plan is
// checked against the same oracle (TestHistorySearchPlans).
type HistoryTuning struct {
	// MaxPassedIDs bounds the ids carried from the count to the page query; beyond
	// it the page is read in date order anyway (the matches are dense). Default
	// 5,000; negative: never carried (the matching subquery runs again).
	MaxPassedIDs int
	// ScanBudget is how many reservations, tested one by one in date order, the page
	// may expect to read before gathering the matches through the id indexes and
	// sorting them is the cheaper plan. Each tested row costs a customer and a
	// vehicle look-up, about as much as gathering one match. Default 1,500;
	// negative: always gather.
	ScanBudget int
	// SortBudget is how many reservations of an entry-date range the page may read
	// and sort (they are read through the entry-date index, unordered by booking
	// date). Beyond it the range is wide (from a day years back, say), and walking
	// the reservation_date index is expected to reach the page sooner. Default
	// 50,000; negative: never sorted.
	SortBudget int
}

func (t HistoryTuning) withDefaults() HistoryTuning {
	if t.MaxPassedIDs == 0 {
		t.MaxPassedIDs = 5000
	}
	if t.ScanBudget == 0 {
		t.ScanBudget = 1500
	}
	if t.SortBudget == 0 {
		t.SortBudget = 50_000
	}
	return t
}

// count returns how many reservations match. explain, when set, is given each query
// before it runs.
func (h *historyQuery) count(ctx context.Context, s Records, explain func(string, *sqlQuery) error) (int, error) {
	total, err := h.countMatches(ctx, s, explain)
	if err != nil || h.f.ID == 0 || h.f.Search == "" {
		return total, err
	}
	// A search that is a number also finds the reservation with that id, counted
	// once: only when its customer and vehicle did not match already.
	q := &sqlQuery{}
	q.text = `SELECT COUNT(*) FROM reservation r WHERE r.id_reservation = ` + q.arg(h.f.ID) + h.filters(q)
	if h.customers.n > 0 || h.vehicles.n > 0 {
		q.text += ` AND NOT (` + h.anySide(q) + `)`
	}
	if explain != nil {
		if err := explain("reservation by id", q); err != nil {
			return 0, err
		}
	}
	var n int
	if err := s.Generated().QueryRow(ctx, q.text, q.args...).Scan(&n); err != nil {
		return 0, err
	}
	h.byID = n > 0
	return total + n, nil
}

// countMatches counts the reservations whose customer or vehicle matches.
func (h *historyQuery) countMatches(ctx context.Context, s Records, explain func(string, *sqlQuery) error) (int, error) {
	one := func(title string, q *sqlQuery, dest ...any) error {
		if explain != nil {
			if err := explain(title, q); err != nil {
				return err
			}
		}
		return s.Generated().QueryRow(ctx, q.text, q.args...).Scan(dest...)
	}
	dated := h.f.dated()
	var total int
	switch {
	case h.f.Search == "" && !dated:
		// reservation_tally: at most 16 rows per status.
		q := &sqlQuery{}
		q.text = `SELECT COALESCE(SUM(n), 0) FROM reservation_tally`
		if h.f.Status != "" {
			q.text += ` WHERE status = ` + q.arg(string(h.f.Status))
		}
		return total, one("count (tallies)", q, &total)
	case h.f.Search == "":
		// A range of the date index (or of the status and date index).
		q := &sqlQuery{}
		q.text = `SELECT COUNT(*) FROM reservation r WHERE 1 = 1` + h.filters(q)
		return total, one("count (date range)", q, &total)
	}

	// Step one: the matching customers and vehicles, with their tallies.
	for _, side := range []string{"c", "v"} {
		key := map[string]string{"c": "id_customer", "v": "id_vehicle"}[side]
		list := "group_concat(" + key + ")"
		if h.dialect == Postgres {
			list = "string_agg(" + key + "::text, ',')"
		}
		q := &sqlQuery{}
		q.text = `SELECT COUNT(*), COALESCE(SUM(` + h.tallyColumns() + `), 0), ` + list + ` ` + h.tallied(q, side)
		var m matched
		var ids sql.NullString
		if err := one(map[string]string{"c": "customers", "v": "vehicles"}[side]+" matching, with their tallies", q, &m.n, &m.reservations, &ids); err != nil {
			return 0, err
		}
		if m.n <= s.history.MaxPassedIDs {
			m.ids = make([]int64, 0, m.n)
			for _, f := range strings.Split(ids.String, ",") {
				if id, err := strconv.ParseInt(f, 10, 64); err == nil {
					m.ids = append(m.ids, id)
				}
			}
		}
		if side == "c" {
			h.customers = m
		} else {
			h.vehicles = m
		}
		total += m.reservations
	}
	if h.customers.n == 0 && h.vehicles.n == 0 {
		return 0, nil
	}

	if dated {
		// The tallies know no dates: count the reservations in the range whose
		// customer or vehicle matches. With few matching customers and vehicles, from
		// their ids through the id indexes; with many, the range is walked and each
		// reservation looked up in the set of matching ids (a hash on PostgreSQL).
		q := &sqlQuery{}
		index, title := "", "count (date range, by the matching ids)"
		if h.customers.ids == nil || h.vehicles.ids == nil {
			index, title = h.rangeIndex(), "count (date range, walked)"
		}
		q.text = `SELECT COUNT(*) FROM reservation r` + index + ` WHERE (` + h.anySide(q) + `)` + h.filters(q)
		return total, one(title, q, &total)
	}

	if h.customers.n > 0 && h.vehicles.n > 0 {
		// Reservations of a matching customer with a matching vehicle were counted
		// twice. Read them from the side with fewer reservations.
		q := &sqlQuery{}
		drive, test := "v", "c"
		if h.customers.reservations < h.vehicles.reservations {
			drive, test = "c", "v"
		}
		col := map[string]string{"c": "id_customer", "v": "id_vehicle"}
		q.text = `SELECT COUNT(*) FROM reservation r WHERE r.` + col[drive] + h.in(q, drive) +
			` AND r.` + col[test] + h.in(q, test) + h.filters(q)
		var both int
		if err := one("reservations matching both ways", q, &both); err != nil {
			return 0, err
		}
		total -= both
	}
	return total, nil
}

// anySide is "the reservation's customer or vehicle matches", leaving out a side
// that matched nothing (count returns 0 early when both did).
func (h *historyQuery) anySide(q *sqlQuery) string {
	var parts []string
	if h.customers.n > 0 {
		parts = append(parts, "r.id_customer"+h.in(q, "c"))
	}
	if h.vehicles.n > 0 {
		parts = append(parts, "r.id_vehicle"+h.in(q, "v"))
	}
	return strings.Join(parts, " OR ")
}

// rowTest returns the joins and the condition that test one reservation's own
// customer and vehicle against the search (two primary-key reads), exactly as the
// matching indexes would: PostgreSQL reads the lower-cased search tables; SQLite
// folds case the way its FTS5 trigram tokenizer does (foldcontains.go).
//
// The test also holds the search's phone and id matches, so it selects exactly the
// reservations count counted.
func (h *historyQuery) rowTest(q *sqlQuery) (joins, test string) {
	side := func(s, column string) string {
		switch {
		case h.dialect == Postgres:
			return column + ` LIKE ` + h.folded(s, q.arg(likePattern(h.term(s)))) + ` ESCAPE '\'`
		case s == "c":
			// Names: accents and case ignored, as the rebuilt index (migration 0028).
			return `parking_folds(` + column + `, ` + q.arg(h.term(s)) + `)`
		case h.fts(s):
			return `parking_contains(` + column + `, ` + q.arg(h.term(s)) + `)`
		default:
			return column + ` LIKE ` + q.arg(likePattern(h.term(s))) + ` ESCAPE '\'`
		}
	}
	if h.dialect == Postgres {
		joins = ` JOIN customer_search c ON c.id_customer = r.id_customer JOIN vehicle_search v ON v.id_vehicle = r.id_vehicle`
		test = side("c", "c.name") + ` OR ` + side("v", "v.plate")
	} else {
		joins = ` JOIN customer c ON c.id_customer = r.id_customer JOIN vehicle v ON v.id_vehicle = r.id_vehicle`
		test = side("c", "c.full_name") + ` OR ` + side("v", "v.license_plate")
	}
	test += h.byPhone(q, "r.id_customer")
	if h.f.ID != 0 {
		test += ` OR r.id_reservation = ` + q.arg(h.f.ID)
	}
	return joins, test
}

// dateIndex makes SQLite walk the reservations in date order (its planner would
// otherwise start from the joined tables).
func (h *historyQuery) dateIndex() string {
	switch {
	case h.dialect != SQLite:
		return ""
	case h.f.Status != "":
		return " INDEXED BY reservation_status_created"
	default:
		return " INDEXED BY reservation_created"
	}
}

// rangeIndex makes SQLite visit the reservations of the filtered dates, in no
// particular order: with entry days, the range of the entry-date index
// (reservation_entry_board, migration 0002: entry_date leading, status included);
// otherwise dateIndex.
func (h *historyQuery) rangeIndex() string {
	if h.dialect == SQLite && h.f.entryDated() {
		return " INDEXED BY reservation_entry_board"
	}
	return h.dateIndex()
}

// sorted puts the rows of sel (r.id_reservation, r.reservation_date of an entry
// range) in the history's order. Left to itself, a planner that sees ORDER BY …
// LIMIT may walk the reservation_date index backwards testing the entry date,
// assuming the entry range is spread evenly over the booking dates; it is not (the
// cars that came in last March were booked just before), and a walk from the
// newest booking can pass most of the table before reaching them. SQLite's plan is
// fixed by rangeIndex (INDEXED BY), and it keeps only the page's rows while
// sorting; PostgreSQL's rows are gathered first (a materialised common table
// expression), then sorted.
func (h *historyQuery) sorted(sel string) string {
	if h.dialect == SQLite {
		return sel + ` ORDER BY r.reservation_date DESC, r.id_reservation DESC`
	}
	return `WITH m AS MATERIALIZED (` + sel + `) SELECT id_reservation, reservation_date FROM m
		ORDER BY reservation_date DESC, id_reservation DESC`
}

// in is the membership test " IN (…)" of a side's matching ids: the ids found by
// the count when they were few, else the matching subquery again.
func (h *historyQuery) in(q *sqlQuery, side string) string {
	m := h.customers
	if side == "v" {
		m = h.vehicles
	}
	switch {
	case m.ids == nil:
		return " IN (" + h.ids(q, side) + ")"
	case h.dialect == Postgres:
		return " = ANY(" + q.arg(m.ids) + ")"
	default:
		b, _ := json.Marshal(m.ids)
		return " IN (SELECT value FROM json_each(" + q.arg(string(b)) + "))"
	}
}

// page returns the query of the page's ids in order; count ran before.
func (h *historyQuery) page(ctx context.Context, s Records, total int) (*sqlQuery, error) {
	q := &sqlQuery{}
	order := ` ORDER BY r.reservation_date DESC, r.id_reservation DESC`
	limits := func() string { return ` LIMIT ` + q.arg(h.f.Limit) + ` OFFSET ` + q.arg(h.f.Offset) }
	if h.f.Search == "" {
		switch {
		case h.f.entryDated() && total <= s.history.SortBudget:
			// total is the size of the range here.
			h.strategy = "entry range, sorted"
			q.text = h.sorted(`SELECT r.id_reservation, r.reservation_date FROM reservation r`+h.rangeIndex()+
				` WHERE 1 = 1`+h.filters(q)) + limits()
		case h.f.entryDated():
			h.strategy = "date index, entry days tested"
			q.text = `SELECT r.id_reservation FROM reservation r` + h.dateIndex() + ` WHERE 1 = 1` + h.filters(q) + order + limits()
		default:
			h.strategy = "date index"
			q.text = `SELECT r.id_reservation FROM reservation r WHERE 1 = 1` + h.filters(q) + order + limits()
		}
		return q, nil
	}
	// Matches spread over time: reading (offset + limit) × all / total rows in date
	// order finds the page. With many matching customers or vehicles (their ids were
	// not kept) the matches are dense anyway.
	var all sql.NullInt64
	if err := s.QueryRow(ctx, `SELECT MAX(id_reservation) FROM reservation`).Scan(&all); err != nil {
		return nil, fmt.Errorf("history size: %w", err)
	}
	expected := int64(h.f.Offset+h.f.Limit) * all.Int64 / int64(total)
	sparse := h.customers.ids != nil && h.vehicles.ids != nil
	// With entry days, the booking order is no guide to where the matches are
	// (see sorted): sparse matches are gathered; dense ones are read from the
	// entry range when it is not too wide — about total × all / (the matching
	// reservations of any date) rows.
	var inRange int64
	if h.f.entryDated() {
		inRange = int64(total) * all.Int64 / int64(max(h.customers.reservations+h.vehicles.reservations, 1))
	}
	switch {
	case h.f.entryDated() && sparse:
		// gathered below
	case h.f.entryDated() && inRange <= int64(s.history.SortBudget):
		h.strategy = fmt.Sprintf("entry range, about %d rows tested, sorted", inRange)
		joins, test := h.rowTest(q)
		q.text = h.sorted(`SELECT r.id_reservation, r.reservation_date FROM reservation r`+h.rangeIndex()+joins+
			` WHERE (`+test+`)`+h.filters(q)) + limits()
		return q, nil
	case expected <= int64(s.history.ScanBudget) || !sparse:
		h.strategy = fmt.Sprintf("date order, about %d rows tested", expected)
		joins, test := h.rowTest(q)
		q.text = `SELECT r.id_reservation, r.reservation_date FROM reservation r` + h.dateIndex() + joins +
			` WHERE (` + test + `)` + h.filters(q) + order + limits()
		return q, nil
	}
	h.strategy = "gather by customer and vehicle"
	var parts []string
	if h.customers.n > 0 {
		parts = append(parts, `SELECT r.id_reservation, r.reservation_date FROM reservation r WHERE r.id_customer`+h.in(q, "c")+h.filters(q))
	}
	if h.vehicles.n > 0 {
		parts = append(parts, `SELECT r.id_reservation, r.reservation_date FROM reservation r WHERE r.id_vehicle`+h.in(q, "v")+h.filters(q))
	}
	if h.byID {
		parts = append(parts, `SELECT r.id_reservation, r.reservation_date FROM reservation r WHERE r.id_reservation = `+q.arg(h.f.ID)+h.filters(q))
	}
	q.text = `SELECT id_reservation, reservation_date FROM (` + strings.Join(parts, " UNION ") + `) m
		ORDER BY reservation_date DESC, id_reservation DESC` + limits()
	return q, nil
}
