// Package localtime reads and writes the date formats of docs/dates.md#output in the
// facility's time zone, and turns a calendar day into an instant range.
package localtime

import (
	"errors"
	"strings"
	"time"
)

// ErrFormat is returned for text that is none of the accepted date forms.
var ErrFormat = errors.New("fecha no válida")

// Parse reads an ISO 8601 instant. With an offset it is that instant; without one
// (datetime-local text, "2026-11-21 10:00:00", a bare date) it is read in loc.
// Years outside 1900–2200 are refused: nobody parks that long, and it keeps day
// arithmetic far from overflow. The layout is chosen from the text's shape, so a
// valid date is parsed once (failed attempts allocate errors, and this is on the
// path of every price quote).
func Parse(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) < 10 {
		return time.Time{}, ErrFormat
	}
	if len(s) == 10 {
		return parseIn("2006-01-02", s, loc)
	}
	if s[10] == ' ' { // "2026-11-21 10:00:00" is the same instant as with a T
		s = s[:10] + "T" + s[11:]
	}
	if hasOffset(s) {
		layout := time.RFC3339Nano
		if len(s) >= 17 && s[16] != ':' { // no seconds: 2026-11-21T10:00+01:00
			layout = "2006-01-02T15:04Z07:00"
		}
		t, err := time.Parse(layout, s)
		if err != nil {
			return time.Time{}, ErrFormat
		}
		return checkYear(t)
	}
	switch {
	case len(s) == 16:
		return parseIn("2006-01-02T15:04", s, loc)
	case len(s) == 19:
		return parseIn("2006-01-02T15:04:05", s, loc)
	default:
		return parseIn("2006-01-02T15:04:05.999999999", s, loc)
	}
}

// hasOffset reports whether s ends with Z or a ±hh:mm offset.
func hasOffset(s string) bool {
	if n := len(s); s[n-1] == 'Z' || s[n-1] == 'z' {
		return true
	} else if n >= 16 {
		c := s[n-6]
		return (c == '+' || c == '-') && s[n-3] == ':'
	}
	return false
}

func parseIn(layout, s string, loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return time.Time{}, ErrFormat
	}
	return checkYear(t)
}

func checkYear(t time.Time) (time.Time, error) {
	if t.Year() < 1900 || t.Year() > 2200 {
		return time.Time{}, ErrFormat
	}
	return t, nil
}

// ParseDay reads a calendar day "YYYY-MM-DD" in loc and returns the half-open
// range [local midnight, next local midnight) — 23 or 25 hours on a DST change.
func ParseDay(s string, loc *time.Location) (day string, from, to time.Time, err error) {
	d, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(s), loc)
	if err != nil {
		return "", time.Time{}, time.Time{}, ErrFormat
	}
	from, to = DayRange(d, loc)
	return from.Format("2006-01-02"), from, to, nil
}

// DayRange returns [midnight, next midnight) in loc of the local day containing t.
func DayRange(t time.Time, loc *time.Location) (time.Time, time.Time) {
	t = t.In(loc)
	from := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
	to := time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, loc)
	return from, to
}

// JSON formats an instant for JSON output: RFC 3339 with the facility's offset.
func JSON(t time.Time, loc *time.Location) string {
	return t.In(loc).Format(time.RFC3339)
}

// Spanish formats an instant the es-ES way, "21/11/2026, 10:00:00", in loc.
func Spanish(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("02/01/2006, 15:04:05")
}
