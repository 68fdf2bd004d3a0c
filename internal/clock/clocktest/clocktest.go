// Package clocktest gives tests a fake clock stopped at a known instant. By default
// that instant is DefaultBase; the variable PARKING_TEST_CLOCK_BASE moves it, to
// prove that the tests pass on any date (for instance one minute before midnight at
// the end of a month and a half-year:
// PARKING_TEST_CLOCK_BASE=2027-06-30T23:59 go test ./...). Only test helpers read
// the variable; the service never does.
package clocktest

import (
	"fmt"
	"os"
	"sync"
	"time"
	_ "time/tzdata" // Europe/Madrid on machines without zoneinfo

	"parking/internal/clock"
)

// EnvBase names the variable that overrides the base: "2006-01-02T15:04" (or with
// seconds) read in Europe/Madrid, or RFC 3339 with an explicit offset.
const EnvBase = "PARKING_TEST_CLOCK_BASE"

// DefaultBase is the test clocks' instant when EnvBase is not set: a Friday
// morning in Madrid, far from midnight and from daylight-saving changes.
var DefaultBase = time.Date(2026, 11, 20, 10, 0, 0, 0, madrid())

var base = sync.OnceValues(func() (time.Time, error) {
	v := os.Getenv(EnvBase)
	if v == "" {
		return DefaultBase, nil
	}
	return Parse(v)
})

// Parse reads a base in the forms EnvBase accepts.
func Parse(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, v, madrid()); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%s=%q: want 2006-01-02T15:04 (Europe/Madrid) or RFC 3339", EnvBase, v)
}

// Base is the instant new test clocks start at. It panics on a malformed EnvBase:
// a run that asked for a date must not silently use another.
func Base() time.Time {
	t, err := base()
	if err != nil {
		panic(err)
	}
	return t
}

// New returns a fake clock stopped at Base.
func New() *clock.Fake { return clock.NewFake(Base()) }

func madrid() *time.Location {
	loc, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		panic(err)
	}
	return loc
}

// Day is hour:minute, Madrid time, on the local day n days after Base's: a date a
// test books for, in the future whatever base the run was given.
func Day(n, hour, minute int) time.Time {
	b := Base().In(madrid())
	return time.Date(b.Year(), b.Month(), b.Day()+n, hour, minute, 0, 0, madrid())
}

// Fixture dates. Tests write the dates they book for as seen from DefaultBase
// ("2026-12-01", eleven days ahead); these move such a date by the whole local days
// between DefaultBase and Base, so that it keeps its place relative to the test
// clock when PARKING_TEST_CLOCK_BASE moves it. On the default base they change
// nothing. Local wall-clock times are kept (an offset written in a test may differ
// across a daylight-saving change: such tests compute it with localtime).

// shiftDays is the whole local days from DefaultBase's date to Base's.
func shiftDays() int {
	d, b := DefaultBase.In(madrid()), Base().In(madrid())
	from := time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, time.UTC)
	to := time.Date(b.Year(), b.Month(), b.Day(), 12, 0, 0, 0, time.UTC)
	return int(to.Sub(from).Hours() / 24)
}

// Shift moves t, a fixture instant, by shiftDays, keeping its Madrid wall-clock time.
func Shift(t time.Time) time.Time {
	l := t.In(madrid())
	return time.Date(l.Year(), l.Month(), l.Day()+shiftDays(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), madrid())
}

// D moves a fixture day "YYYY-MM-DD" by shiftDays.
func D(day string) string { return moveDay(day, "2006-01-02") }

// ES moves a fixture day in the Spanish form "DD/MM/YYYY" by shiftDays.
func ES(day string) string { return moveDay(day, "02/01/2006") }

func moveDay(day, layout string) string {
	t, err := time.Parse(layout, day)
	if err != nil {
		panic(fmt.Sprintf("clocktest: fixture day %q: %v", day, err))
	}
	return t.AddDate(0, 0, shiftDays()).Format(layout)
}

// Offset is Madrid's UTC offset ("+01:00", "+02:00") on a fixture day "YYYY-MM-DD"
// moved by D, at noon: what the service writes after that day's local times.
func Offset(day string) string {
	t, err := time.ParseInLocation("2006-01-02 15:04", D(day)+" 12:00", madrid())
	if err != nil {
		panic(fmt.Sprintf("clocktest: fixture day %q: %v", day, err))
	}
	return t.Format("-07:00")
}
