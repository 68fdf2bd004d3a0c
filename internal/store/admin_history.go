package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"parking/internal/reservation"
)

// HistoryFilter selects reservations for the administrators' history
// (GET /admin/history). Zero values do not filter.
type HistoryFilter struct {
	Status reservation.Status
	// Search matches part of the customer's name or of the plate, ignoring case.
	// It is data, never SQL or a LIKE pattern: %, _ and \ match themselves.
	Search string
	// Phone (E.164), when set, also matches the customer with that phone: the
	// search typed as a phone in any form (docs/admin.md#history).
	Phone string
	// Plate, when set, is the search in the canonical form of a plate (spaces and
	// dashes removed): the vehicle side matches it instead of Search.
	Plate string
	// ID, when set, also matches the reservation with that id.
	ID int64
	// EntryFrom and EntryTo bound entry_date, the start of the stay: EntryFrom <=
	// it < EntryTo (docs/admin.md#history: history dateFrom/dateTo select the entry days).
	EntryFrom, EntryTo time.Time
	// BookedFrom and BookedTo bound reservation_date, when the reservation was made
	// (history bookedFrom/bookedTo): BookedFrom <= it < BookedTo.
	BookedFrom, BookedTo time.Time
	Limit, Offset        int
}

// entryDated reports whether the filter bounds the entry date.
func (f HistoryFilter) entryDated() bool { return !f.EntryFrom.IsZero() || !f.EntryTo.IsZero() }

// dated reports whether the filter bounds either date.
func (f HistoryFilter) dated() bool {
	return f.entryDated() || !f.BookedFrom.IsZero() || !f.BookedTo.IsZero()
}

// setContact turns the customer columns just scanned (name in CustomerName) into
// the row's contact, falling back to them when the reservation has none.
func setHistoryContact(h *reservation.HistoryRow, phone, email sql.NullString) {
	h.AccountName = h.CustomerName
	c := h.Reservation.ContactOr(reservation.Contact{FullName: h.CustomerName, Phone: nullable(phone), Email: nullable(email)})
	h.CustomerName, h.Phone, h.Email = c.FullName, c.Phone, c.Email
}

// nullable is a scanned optional text as a pointer.
func nullable(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

// History returns one page of the reservations that match f, newest first
// (reservation_date, then id, descending), and how many match in all.
//
// Without a search, the count is a sum over reservation_tally (per status, kept by
// triggers, migration 0003) or, with dates, a range of the entry-date or booking
// date index; the page is read from the (status,) reservation_date index, or, with
// entry days, from the entry range sorted (see sorted and HistoryTuning.SortBudget). A search is
// the costly part on a large database:
//
//  1. The matching customers and vehicles are found by their own index (PostgreSQL:
//     trigram GIN indexes on the lower-cased customer_search.name and
//     vehicle_search.plate; SQLite: FTS5 trigram tables), and their reservation
//     tallies added up (customer_search/vehicle_search, customer_tally/vehicle_tally:
//     per status, kept by triggers): a common surname with tens of thousands of
//     reservations costs one pass over its customers, not a visit to each
//     reservation. Reservations matching both by customer and by vehicle are
//     subtracted once. The tallies know no dates: with dateFrom/dateTo the
//     reservations in the range are counted, through the matching ids when they are
//     few, else by testing each reservation of the range.
//  2. The page is read by whichever of two plans reads less. When the matches are
//     dense (a common surname), walking the date index backwards and testing each
//     reservation's own customer and vehicle finds the newest 15 after a few hundred
//     rows; when they are sparse (a plate), gathering the matches through the id
//     indexes and sorting them is a few dozen rows. The count says which.
func (s Records) History(ctx context.Context, f HistoryFilter) ([]reservation.HistoryRow, int, error) {
	h := historyQuery{dialect: s.Dialect(), f: f}
	total, err := h.count(ctx, s, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("count history: %w", err)
	}
	out := []reservation.HistoryRow{}
	if total == 0 || f.Offset >= total {
		return out, total, nil
	}
	page, err := h.page(ctx, s, total)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.Query(ctx, `SELECT `+reservationColumns+`,
			c.full_name, c.phone, c.email, v.license_plate, v.brand, v.model, v.color, v.type, m.name
		FROM (`+page.text+`) page
		JOIN reservation r ON r.id_reservation = page.id_reservation
		JOIN customer c ON c.id_customer = r.id_customer
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle
		JOIN main_service m ON m.id_main_service = r.id_main_service
		ORDER BY r.reservation_date DESC, r.id_reservation DESC`, page.args...)
	if err != nil {
		return nil, 0, fmt.Errorf("history page: %w", err)
	}
	for rows.Next() {
		var h reservation.HistoryRow
		var phone, email sql.NullString
		r, err := scanReservation(moreColumns{rows, []any{&h.CustomerName, &phone, &email,
			&h.LicensePlate, &h.Brand, &h.Model, &h.Color, &h.VehicleType, &h.MainServiceName}})
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		h.Reservation = r
		setHistoryContact(&h, phone, email)
		out = append(out, h)
	}
	return out, total, closeRows(rows)
}

// ExplainHistory returns the database's plans for the queries History runs for f
// (EXPLAIN ANALYZE on PostgreSQL, EXPLAIN QUERY PLAN on SQLite), for the benchmark.
func (s Records) ExplainHistory(ctx context.Context, f HistoryFilter) (string, error) {
	var b strings.Builder
	explain := func(title string, q *sqlQuery) error {
		prefix := "EXPLAIN QUERY PLAN "
		if s.Dialect() == Postgres {
			prefix = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) "
		}
		rows, err := s.Generated().Query(ctx, prefix+q.text, q.args...)
		if err != nil {
			return fmt.Errorf("explain %s: %w", title, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		fmt.Fprintf(&b, "-- %s\n", title)
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			fmt.Fprintf(&b, "%v\n", vals[len(vals)-1]) // SQLite: id, parent, notused, detail
		}
		return rows.Err()
	}
	h := historyQuery{dialect: s.Dialect(), f: f}
	total, err := h.count(ctx, s, explain)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "-- total %d\n", total)
	if total > 0 && f.Offset < total {
		page, err := h.page(ctx, s, total)
		if err != nil {
			return "", err
		}
		if err := explain("page: "+h.strategy, page); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// sqlQuery is a query text with its arguments, numbered as they are added.
type sqlQuery struct {
	text string
	args []any
}

func (q *sqlQuery) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

// historyQuery builds History's queries for one filter.
type historyQuery struct {
	dialect   Dialect
	f         HistoryFilter
	customers matched // found by count, for the page
	vehicles  matched
	byID      bool   // the reservation f.ID matches and is not among the others (count)
	strategy  string // the page plan chosen, for ExplainHistory
}

// filters is the condition on r of the status and the dates, " AND …".
func (h *historyQuery) filters(q *sqlQuery) string {
	s := ""
	if h.f.Status != "" {
		s += " AND r.status = " + q.arg(string(h.f.Status))
	}
	if !h.f.EntryFrom.IsZero() {
		s += " AND r.entry_date >= " + q.arg(Time(h.f.EntryFrom))
	}
	if !h.f.EntryTo.IsZero() {
		s += " AND r.entry_date < " + q.arg(Time(h.f.EntryTo))
	}
	if !h.f.BookedFrom.IsZero() {
		s += " AND r.reservation_date >= " + q.arg(Time(h.f.BookedFrom))
	}
	if !h.f.BookedTo.IsZero() {
		s += " AND r.reservation_date < " + q.arg(Time(h.f.BookedTo))
	}
	return s
}

// term is the text a side matches: the customer's name the search as typed, the
// plate the search in plate form when it has one.
func (h *historyQuery) term(side string) string {
	if side == "v" && h.f.Plate != "" {
		return h.f.Plate
	}
	return h.f.Search
}

// fts reports whether SQLite answers a side's search from its FTS5 trigram tables:
// the trigram tokenizer matches nothing shorter than three characters.
func (h *historyQuery) fts(side string) bool {
	return h.dialect == SQLite && utf8.RuneCountInString(h.term(side)) >= 3
}

// byPhone is the customer side's extra condition on a customer id column: the
// customer whose stored phone is the search read as a phone, " OR …", or "".
func (h *historyQuery) byPhone(q *sqlQuery, column string) string {
	if h.f.Phone == "" {
		return ""
	}
	return " OR " + column + " IN (SELECT pc.id_customer FROM customer pc WHERE pc.phone = " + q.arg(h.f.Phone) + ")"
}

// matching returns "FROM table WHERE <the search matches>" over the table that
// holds the tallies of the customers ("c") or vehicles ("v"), so that one query
// reads the matching rows' ids and tallies (migration 0003).
func (h *historyQuery) matching(q *sqlQuery, side string) string {
	if h.dialect == Postgres {
		// customer_search.name and vehicle_search.plate are lower-cased, with pg_trgm
		// GIN indexes that answer LIKE '%…%'.
		table, column, key := "customer_search", "name", "id_customer"
		if side == "v" {
			table, column, key = "vehicle_search", "plate", "id_vehicle"
		}
		cond := column + " LIKE lower(" + q.arg(likePattern(h.term(side))) + `) ESCAPE '\'`
		if side == "c" {
			cond += h.byPhone(q, key)
		}
		return "FROM " + table + " WHERE " + cond
	}
	table, key, source, column, fts := "customer_tally", "id_customer", "customer", "full_name", "customer_name_fts"
	if side == "v" {
		table, key, source, column, fts = "vehicle_tally", "id_vehicle", "vehicle", "license_plate", "vehicle_plate_fts"
	}
	var cond string
	if h.fts(side) {
		// FTS5 trigram: a quoted phrase is a case-insensitive substring match.
		cond = key + " IN (SELECT rowid FROM " + fts + " WHERE " + fts + " MATCH " + q.arg(h.phrase(side)) + ")"
	} else {
		// One or two characters: a scan. SQLite's LIKE ignores case for ASCII only.
		cond = key + " IN (SELECT " + key + " FROM " + source + " WHERE " + column +
			" LIKE " + q.arg(likePattern(h.term(side))) + ` ESCAPE '\')`
	}
	if side == "c" {
		cond += h.byPhone(q, key)
	}
	return "FROM " + table + " WHERE " + cond
}

// tallied is matching for the count's first step: on SQLite the FTS5 rows drive a
// join to the tallies, cheaper than materialising the matching ids first.
func (h *historyQuery) tallied(q *sqlQuery, side string) string {
	if !h.fts(side) || (side == "c" && h.f.Phone != "") {
		return h.matching(q, side)
	}
	table, key, fts := "customer_tally", "id_customer", "customer_name_fts"
	if side == "v" {
		table, key, fts = "vehicle_tally", "id_vehicle", "vehicle_plate_fts"
	}
	return "FROM " + fts + " f CROSS JOIN " + table + " t ON t." + key + " = f.rowid WHERE " + fts + " MATCH " + q.arg(h.phrase(side))
}

// phrase is the search as an FTS5 phrase: a quoted string, in which only the double
// quote is special (doubled), so %, _ and \ are plain characters.
func (h *historyQuery) phrase(side string) string {
	return `"` + strings.ReplaceAll(h.term(side), `"`, `""`) + `"`
}

// ids is the subquery of the ids of the matching customers or vehicles.
func (h *historyQuery) ids(q *sqlQuery, side string) string {
	key := "id_customer"
	if side == "v" {
		key = "id_vehicle"
	}
	return "SELECT " + key + " " + h.matching(q, side)
}

// tallyColumns is the sum of tally columns that counts reservations of the filter's status.
func (h *historyQuery) tallyColumns() string {
	switch h.f.Status {
	case reservation.Pending:
		return "tally_pendiente"
	case reservation.InCourse:
		return "tally_en_curso"
	case reservation.Finalized:
		return "tally_finalizada"
	case reservation.Cancelled:
		return "tally_cancelada"
	}
	return "tally_pendiente + tally_en_curso + tally_finalizada + tally_cancelada"
}

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
			return column + ` LIKE lower(` + q.arg(likePattern(h.term(s))) + `) ESCAPE '\'`
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
