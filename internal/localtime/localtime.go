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
	if t, ok := parsePlain(s, loc); ok {
		return checkYear(t)
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

// parsePlain reads the usual forms without an offset — "2026-11-21", "2026-11-21T10:00"
// and "2026-11-21T10:00:30" (or with a space for the T) — as time.ParseInLocation
// does, without its layout interpreter; false for any other text, or a field out of
// range, which the layouts below then read or refuse (TestParsePlain).
func parsePlain(s string, loc *time.Location) (time.Time, bool) {
	if len(s) != 10 && len(s) != 16 && len(s) != 19 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	year, ok1 := Digits(s[0:4])
	month, ok2 := Digits(s[5:7])
	day, ok3 := Digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 || day > daysIn(time.Month(month), year) {
		return time.Time{}, false
	}
	var hour, minute, sec int
	if len(s) > 10 {
		var ok4, ok5 bool
		hour, ok4 = Digits(s[11:13])
		minute, ok5 = Digits(s[14:16])
		if s[10] != 'T' && s[10] != ' ' || s[13] != ':' || !ok4 || !ok5 || hour > 23 || minute > 59 {
			return time.Time{}, false
		}
	}
	if len(s) == 19 {
		var ok6 bool
		sec, ok6 = Digits(s[17:19])
		if s[16] != ':' || !ok6 || sec > 59 {
			return time.Time{}, false
		}
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, loc), true
}

// Digits is the value of s when it is all ASCII digits: a date's fields read
// without strconv (here and in the store's reading of stored times).
func Digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the number of days of month m in year.
func daysIn(m time.Month, year int) int {
	if m == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int(m-1)%7%2
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
