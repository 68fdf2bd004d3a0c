package store

import (
	"context"
	"database/sql"
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
	// Channel, when set, is the channel the reservations were sold through (web,
	// counter, partner:<id>; docs/partners.md#channels).
	Channel       string
	Limit, Offset int
}

// entryDated reports whether the filter bounds the entry date.
func (f HistoryFilter) entryDated() bool { return !f.EntryFrom.IsZero() || !f.EntryTo.IsZero() }

// dated reports whether the filter bounds either date.
// A channel counts as a date bound: the status tallies know no channel, so the
// count reads the reservations themselves.
func (f HistoryFilter) dated() bool {
	return f.entryDated() || !f.BookedFrom.IsZero() || !f.BookedTo.IsZero() || f.Channel != ""
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
	if h.f.Channel != "" {
		s += " AND r.channel = " + q.arg(h.f.Channel)
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
		cond := column + " LIKE " + h.folded(side, q.arg(likePattern(h.term(side)))) + ` ESCAPE '\'`
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
	} else if side == "c" {
		// One or two characters: a scan, folding accents and case as the index does.
		cond = key + " IN (SELECT " + key + " FROM " + source + " WHERE parking_folds(" + column + ", " + q.arg(h.term(side)) + "))"
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

// folded is PostgreSQL's form of a typed pattern for a side's search column: the
// customers' names are stored folded (parking_fold, migration 0028: accents and
// case ignored), the plates lower-cased.
func (h *historyQuery) folded(side, arg string) string {
	if side == "c" {
		return "parking_fold(" + arg + ")"
	}
	return "lower(" + arg + ")"
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
