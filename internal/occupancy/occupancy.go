// Package occupancy holds the capacity rules of docs/capacity.md#what-counts, pure (no SQL): which
// local days a stay occupies, how the per-day ledger represents them, and how a day's
// count reads as available, few or full.
//
// # The ledger and the open stays
//
// A stay occupies one place on each local day from its entry day to its exit day,
// both included, while it is PENDIENTE or EN CURSO. A stay without an exit, and an
// EN CURSO stay past its exit (the car is still there), count on their days up to
// and including today, never on future days (docs/capacity.md#what-counts). So their days move with
// the calendar, while every other stay's days are fixed by its row.
//
// The ledger (table occupancy, one row per day) therefore holds only what is fixed:
// each active stay with an exit, on each day from entry to exit. It is a pure
// function of the reservations, the same whatever the date, so it never needs a
// daily roll, a rebuild gives the same rows on any day, and a test can compare it
// with a recount at any moment. The moving part, the "open" stays (no exit, or EN
// CURSO past its exit), is counted when a day up to today is asked for: those are
// the cars in the car park without a planned exit, a handful, found through a
// partial index. Future days, the ones bookings compete for, are read from the
// ledger alone: one primary-key range, O(days), whatever the number of reservations.
//
// A change that adds a stay on today checks the ledger's count of today plus the
// open stays; it locks today's ledger rows first, and so does every change that adds
// an open stay on today, so the two kinds serialise on the same rows
// (internal/store/occupancy.go).
package occupancy

import (
	"strings"
	"time"
)

// Day is a local calendar day of the facility (docs/dates.md#local-days), counted from 1970-01-01.
type Day int64

// DayOf is the local day of instant t in loc.
func DayOf(t time.Time, loc *time.Location) Day {
	y, m, d := t.In(loc).Date()
	return Day(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// ParseDay reads YYYY-MM-DD.
func ParseDay(s string) (Day, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, err
	}
	return Day(t.Unix() / 86400), nil
}

// Date is the day's calendar date (at midnight UTC, for formatting).
func (d Day) Date() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String is YYYY-MM-DD.
func (d Day) String() string { return d.Date().Format(time.DateOnly) }

// Start is the day's local midnight in loc.
func (d Day) Start(loc *time.Location) time.Time {
	y, m, dd := d.Date().Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, loc)
}

// Span is a range of days, both included; empty when Last < First.
type Span struct{ First, Last Day }

// Empty reports whether the span has no day.
func (s Span) Empty() bool { return s.Last < s.First }

// Len is the number of days.
func (s Span) Len() int {
	if s.Empty() {
		return 0
	}
	return int(s.Last-s.First) + 1
}

// Has reports whether d is in the span.
func (s Span) Has(d Day) bool { return d >= s.First && d <= s.Last }

// Minus is s without the days of t: up to two spans (before and after t).
func (s Span) Minus(t Span) []Span {
	if s.Empty() {
		return nil
	}
	if t.Empty() || t.Last < s.First || t.First > s.Last {
		return []Span{s}
	}
	var out []Span
	if t.First > s.First {
		out = append(out, Span{s.First, t.First - 1})
	}
	if t.Last < s.Last {
		out = append(out, Span{t.Last + 1, s.Last})
	}
	return out
}

// Stay is what decides where a reservation counts: its status and dates.
type Stay struct {
	Active bool // PENDIENTE or EN CURSO (docs/capacity.md#what-counts); CANCELADA and FINALIZADA count nowhere
	InCar  bool // EN CURSO: the car is in the car park, so it counts past its exit
	Entry  time.Time
	Exit   *time.Time
	// Partner is the partner that sold the stay (0: none): its days count against
	// that partner's allotment too (docs/partners.md#allotment).
	Partner int64
}

// Ledgered is the span the ledger holds for a stay: entry day to exit day of an
// active stay with an exit; empty otherwise (no exit: it is an open stay only).
func Ledgered(s Stay, loc *time.Location) Span {
	if !s.Active || s.Exit == nil {
		return Span{1, 0}
	}
	return Span{DayOf(s.Entry, loc), DayOf(*s.Exit, loc)}
}

// Open is the span an open stay adds beyond the ledger, given today: for a stay
// without an exit, its entry day to today; for an EN CURSO stay past its exit, the
// day after its exit day to today. Empty for every other stay.
func Open(s Stay, loc *time.Location, today Day) Span {
	switch {
	case !s.Active:
		return Span{1, 0}
	case s.Exit == nil:
		return Span{DayOf(s.Entry, loc), today}
	case s.InCar:
		return Span{DayOf(*s.Exit, loc) + 1, today}
	}
	return Span{1, 0}
}

// Occupied is every day the stay counts on, given today (ledger and open spans; they
// never overlap).
func Occupied(s Stay, loc *time.Location, today Day) []Span {
	var out []Span
	for _, sp := range []Span{Ledgered(s, loc), Open(s, loc, today)} {
		if !sp.Empty() {
			out = append(out, sp)
		}
	}
	return out
}

// Status is how full a day is, as the public sees it (docs/capacity.md#what-counts).
type Status string

const (
	Available Status = "available"
	Few       Status = "few" // under 10 % of the sellable places free
	Full      Status = "full"
)

// StatusOf reads a day's count against the sellable places; limit 0 is unlimited.
func StatusOf(booked, limit int) Status {
	if limit <= 0 {
		return Available
	}
	free := limit - booked
	switch {
	case free <= 0:
		return Full
	case free*10 < limit:
		return Few
	}
	return Available
}

// FullError is the refusal of a change that would put days over the limit
// (docs/capacity.md#refusals: 409 with full_days). The web layer writes Days as full_days.
type FullError struct {
	Days []Day
}

func (e *FullError) Error() string { return "capacity reached on " + DayList(e.Days) }

// FullDays is Days as YYYY-MM-DD (fault.FullDays).
func (e *FullError) FullDays() []string { return dayStrings(e.Days) }

// DayList is the days as YYYY-MM-DD, comma separated.
func DayList(days []Day) string { return strings.Join(dayStrings(days), ", ") }

// dayStrings is the days as YYYY-MM-DD.
func dayStrings(days []Day) []string {
	s := make([]string, len(days))
	for i, d := range days {
		s[i] = d.String()
	}
	return s
}

// Spanish names the days for a message: 12/03/2027, 13/03/2027 y 14/03/2027.
func Spanish(days []Day) string {
	s := make([]string, len(days))
	for i, d := range days {
		s[i] = d.Date().Format("02/01/2006")
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " y " + s[len(s)-1]
}
