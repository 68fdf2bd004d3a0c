package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"parking/internal/database"
	"parking/internal/localtime"

	"parking/internal/reservation"
)

// Movements are the reservations entering and leaving in a time range, with the
// board version (see BoardVersion) of the snapshot they were read from; and, when
// asked for at an instant, the overdue ones then (EN CURSO, exit passed) and the
// next exit still to pass (docs/board.md#overdue).
type Movements struct {
	Version int64
	Entries []reservation.BoardItem
	Exits   []reservation.BoardItem
	Overdue []reservation.BoardItem // ordered by exit date, then id
	// NextExit is the earliest exit of an EN CURSO reservation not yet passed at the
	// instant asked for: when the overdue list next changes by time alone. Nil: none.
	NextExit *time.Time
}

// boardQuery lists, in one statement (so one snapshot), the reservations entering
// in [$1, $2) (kind 0), those leaving in it (kind 1), and the board version (kind 2).
// Each branch is a range on a plain indexed column, never a function of the
// column: the covering indexes reservation_entry_board and reservation_exit_board
// (migration 0002) give exactly that day's rows, and the partial exit index's
// "exit_date IS NOT NULL" is implied by the range, which a null exit never meets.
// The rows are sorted in Go: the exits are not in index order anyway, and a sort of
// a few thousand rows there is cheaper than the database's temporary B-tree.
//
// On SQLite the dates are selected as text (|| ”) and parsed by parseStoredTime:
// the driver's generic DATETIME parsing tries several layouts and was a third of
// the query's cost.
//
// With overdue, two more branches read the partial index reservation_in_car
// (migration 0011), which holds only the cars in the car park: the EN CURSO
// reservations whose exit is before $3 (kind 3), and the earliest exit at or after
// $3 (kind 4, in the exit column).
func boardQuery(d Dialect, overdue bool) string {
	entry, exit, next, arrived := "r.entry_date", "r.exit_date", "MIN(r.exit_date)", "r.arrived_at"
	if d == SQLite {
		entry, exit, next, arrived = "r.entry_date || ''", "r.exit_date || ''", "MIN(r.exit_date) || ''", "r.arrived_at || ''"
	}
	// Only the entries carry the gate's arrival (the entry index covers it); the other
	// branches read NULL and keep their own covering indexes.
	branch := func(kind, where string) string {
		arr := "NULL"
		if kind == "0" {
			arr = arrived
		}
		return `SELECT ` + kind + `, r.id_reservation, ` + entry + `, ` + exit + `, r.status,
       v.license_plate, v.brand, v.color, c.full_name, c.phone, m.name, r.contact_name, r.contact_phone, ` + arr + `
FROM reservation r
JOIN vehicle v ON v.id_vehicle = r.id_vehicle
JOIN customer c ON c.id_customer = r.id_customer
JOIN main_service m ON m.id_main_service = r.id_main_service
WHERE ` + where
	}
	q := branch("0", "r.entry_date >= $1 AND r.entry_date < $2") + "\nUNION ALL\n" + branch("1", "r.exit_date >= $1 AND r.exit_date < $2") + `
UNION ALL
SELECT 2, CAST(SUM(version) AS BIGINT), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM board_version`
	if overdue {
		q += "\nUNION ALL\n" + branch("3", "r.status = 'EN CURSO' AND r.exit_date < $3") + `
UNION ALL
SELECT 4, NULL, NULL, ` + next + `, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM reservation r WHERE r.status = 'EN CURSO' AND r.exit_date >= $3`
	}
	return q
}

// BoardQuery is the SQL text of DayMovements on dialect d (without the overdue
// branches), for EXPLAIN in benchmarks.
func BoardQuery(d Dialect) string { return boardQuery(d, false) }

// BoardVersion reads the board version: a counter that every committed change able
// to alter a daily board increments (triggers of migration 0002; on PostgreSQL the
// sum of 64 stripes). Equal versions mean equal boards.
func (s Records) BoardVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := s.QueryRow(ctx, `SELECT CAST(SUM(version) AS BIGINT) FROM board_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("board version: %w", err)
	}
	return v, nil
}

// DayMovements returns the reservations whose entry date falls in [from, to) and
// those whose exit date does, each list ordered by entry date ascending (then id,
// so that equal entry times keep a stable order), and the board version they were
// read at. A reservation that both enters and leaves in the range is in both lists.
// A non-zero overdueAt also reads the overdue reservations at that instant and the
// next exit to pass (Movements.Overdue, NextExit), in the same snapshot.
func (s Records) DayMovements(ctx context.Context, from, to, overdueAt time.Time) (Movements, error) {
	var q database.Runner = s.Engine // SQLite: a cached prepared statement
	if s.Dialect() == Postgres {
		// PostgreSQL's planner, costing each of the ~3,000 primary-key lookups as a
		// random disk read, picks a parallel plan that is three times slower than
		// the plain one on a cached database (40 ms against 14 ms measured): a
		// small latency-bound read is no place for parallel workers.
		tx, err := s.BeginRead(ctx, sql.TxOptions{ReadOnly: true})
		if err != nil {
			return Movements{}, fmt.Errorf("day movements: %w", err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(ctx, "SET LOCAL max_parallel_workers_per_gather = 0"); err != nil {
			return Movements{}, fmt.Errorf("day movements: %w", err)
		}
		q = tx
	}
	args := []any{Time(from), Time(to)}
	if !overdueAt.IsZero() {
		args = append(args, Time(overdueAt))
	}
	rows, err := q.Query(ctx, boardQuery(s.Dialect(), !overdueAt.IsZero()), args...)
	if err != nil {
		return Movements{}, fmt.Errorf("day movements: %w", err)
	}
	m := Movements{Version: -1, Entries: []reservation.BoardItem{}, Exits: []reservation.BoardItem{}, Overdue: []reservation.BoardItem{}}
	var vals [14]any
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			rows.Close()
			return Movements{}, fmt.Errorf("day movements: %w", err)
		}
		kind, _ := vals[0].(int64)
		id, _ := vals[1].(int64)
		if kind == 2 {
			m.Version = id
			continue
		}
		if kind == 4 {
			if vals[3] != nil {
				x, err := timeValue(vals[3])
				if err != nil {
					rows.Close()
					return Movements{}, fmt.Errorf("day movements: next exit: %w", err)
				}
				m.NextExit = &x
			}
			continue
		}
		it := reservation.BoardItem{
			ID: id, Status: reservation.Status(text(vals[4])),
			LicensePlate: text(vals[5]), Brand: text(vals[6]), Color: text(vals[7]),
			ServiceName: text(vals[10]),
		}
		it.CustomerName, it.Phone = boardContact(vals[8], vals[9], vals[11], vals[12])
		if it.Entry, err = timeValue(vals[2]); err != nil {
			rows.Close()
			return Movements{}, fmt.Errorf("day movements: entry of %d: %w", id, err)
		}
		if vals[3] != nil {
			x, err := timeValue(vals[3])
			if err != nil {
				rows.Close()
				return Movements{}, fmt.Errorf("day movements: exit of %d: %w", id, err)
			}
			it.Exit = &x
		}
		if vals[13] != nil {
			a, err := timeValue(vals[13])
			if err != nil {
				rows.Close()
				return Movements{}, fmt.Errorf("day movements: arrival of %d: %w", id, err)
			}
			it.ArrivedAt = &a
		}
		switch kind {
		case 0:
			m.Entries = append(m.Entries, it)
		case 1:
			m.Exits = append(m.Exits, it)
		default:
			m.Overdue = append(m.Overdue, it)
		}
	}
	if err := closeRows(rows); err != nil {
		return Movements{}, fmt.Errorf("day movements: %w", err)
	}
	if m.Version < 0 {
		return Movements{}, fmt.Errorf("day movements: board_version row missing")
	}
	byEntry := func(a, b reservation.BoardItem) int {
		if c := a.Entry.Compare(b.Entry); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	}
	slices.SortFunc(m.Entries, byEntry)
	slices.SortFunc(m.Exits, byEntry)
	slices.SortFunc(m.Overdue, func(a, b reservation.BoardItem) int {
		if c := a.Exit.Compare(*b.Exit); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return m, nil
}

// boardContact is the name and phone a board line shows: the reservation's contact
// (reservation.ContactOr), from the customer's columns when it has none.
func boardContact(custName, custPhone, contactName, contactPhone any) (string, string) {
	var r reservation.Reservation
	if contactPhone != nil { // contact_name and contact_phone are set together (migration 0007)
		p := text(contactPhone)
		r.Contact = &reservation.Contact{FullName: text(contactName), Phone: &p}
	}
	p := text(custPhone)
	c := r.ContactOr(reservation.Contact{FullName: text(custName), Phone: &p})
	return c.FullName, *c.Phone
}

// text converts a scanned text column (string, []byte or NULL) to a string.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// timeValue converts a scanned date column: a time.Time (PostgreSQL) or the text
// SQLite stores ("2026-03-29 08:15:00+00:00", written by the driver).
func timeValue(v any) (time.Time, error) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), nil
	case string:
		return parseStoredTime(x)
	case []byte:
		return parseStoredTime(string(x))
	}
	return time.Time{}, fmt.Errorf("unexpected date value %T", v)
}

// parseStoredTime reads the text form of a stored time, "YYYY-MM-DD HH:MM:SS",
// optional fraction, then "Z" or "±HH:MM". The common form is parsed by hand
// (it runs a few thousand times per board); anything else goes to time.Parse.
func parseStoredTime(s string) (time.Time, error) {
	if t, ok := fastStoredTime(s); ok {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02T15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("unreadable stored time %q", s)
}

func fastStoredTime(s string) (time.Time, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := localtime.Digits
	year, ok1 := num(s[0:4])
	month, ok2 := num(s[5:7])
	day, ok3 := num(s[8:10])
	hour, ok4 := num(s[11:13])
	minute, ok5 := num(s[14:16])
	sec, ok6 := num(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return time.Time{}, false
	}
	rest := s[19:]
	nsec := 0
	if strings.HasPrefix(rest, ".") {
		i := 1
		scale := 100_000_000
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			if scale > 0 {
				nsec += int(rest[i]-'0') * scale
				scale /= 10
			}
			i++
		}
		if i == 1 {
			return time.Time{}, false
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, ok1 := num(rest[1:3])
		m, ok2 := num(rest[4:6])
		if !ok1 || !ok2 {
			return time.Time{}, false
		}
		offset = (h*60 + m) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	if hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day || t.Month() != time.Month(month) { // 2026-02-30 rolls over: not ours to read
		return time.Time{}, false
	}
	return t.Add(-time.Duration(offset) * time.Second), true
}

// CountOverdue counts the cars still in after their exit date at now: EN CURSO
// reservations whose exit is before now (the partial index reservation_in_car,
// migration 0011).
func (s Records) CountOverdue(ctx context.Context, now time.Time) (int, error) {
	var n int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM reservation WHERE status = 'EN CURSO' AND exit_date < $1`, Time(now)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count overdue: %w", err)
	}
	return n, nil
}
