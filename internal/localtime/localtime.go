// Package localtime reads and writes the date formats of CONTRACT §2 in the
// facility's time zone, and turns a calendar day into an instant range.
package localtime

import (
	"errors"
	"strings"
	"time"
)

// ErrFormat is returned for text that is none of the accepted date forms.
var ErrFormat = errors.New("fecha no válida")

var withOffset = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05.999999999Z07:00"}

var withoutOffset = []string{
	"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// Parse reads an ISO 8601 instant. With an offset it is that instant; without one
// (datetime-local text, "2026-11-21 10:00:00", a bare date) it is read in loc.
// Years outside 1900–2200 are refused: nobody parks that long, and it keeps day
// arithmetic far from overflow.
func Parse(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, ErrFormat
	}
	for _, layout := range withOffset {
		if t, err := time.Parse(layout, s); err == nil {
			return checkYear(t)
		}
	}
	for _, layout := range withoutOffset {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return checkYear(t)
		}
	}
	return time.Time{}, ErrFormat
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
