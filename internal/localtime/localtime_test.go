package localtime

import (
	"testing"
	"time"
)

var madrid, _ = time.LoadLocation("Europe/Madrid")

func TestParse(t *testing.T) {
	cases := map[string]time.Time{
		"2026-11-21T10:00:00Z":           time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		"2026-11-21T10:00:00+01:00":      time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		"2026-11-21T10:00:00.250Z":       time.Date(2026, 11, 21, 10, 0, 0, 250e6, time.UTC),
		"2026-11-21T10:00":               time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), // CET, +01:00
		"2026-07-21T10:00":               time.Date(2026, 7, 21, 8, 0, 0, 0, time.UTC),  // CEST, +02:00
		"2026-11-21 10:00:00":            time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		"2026-11-21T10:00:30":            time.Date(2026, 11, 21, 9, 0, 30, 0, time.UTC),
		"2026-11-21":                     time.Date(2026, 11, 20, 23, 0, 0, 0, time.UTC), // local midnight
		" 2026-11-21T10:00 ":             time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		"2026-11-21T10:00:00.123456789Z": time.Date(2026, 11, 21, 10, 0, 0, 123456789, time.UTC),
	}
	for in, want := range cases {
		got, err := Parse(in, madrid)
		if err != nil || !got.Equal(want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "mañana", "21/11/2026", "2026-13-01", "2026-11-21T25:00", "1800-01-01", "2026-11-21T10:00:00+25:00"} {
		if _, err := Parse(in, madrid); err == nil {
			t.Errorf("Parse(%q) accepted, want an error", in)
		}
	}
}

func TestDayRangeAcrossDaylightSaving(t *testing.T) {
	cases := []struct {
		day   string
		hours float64
	}{{"2026-11-21", 24}, {"2026-03-29", 23}, {"2026-10-25", 25}}
	for _, c := range cases {
		day, from, to, err := ParseDay(c.day, madrid)
		if err != nil || day != c.day {
			t.Fatalf("ParseDay(%s) = %s, %v", c.day, day, err)
		}
		if h := to.Sub(from).Hours(); h != c.hours {
			t.Errorf("%s lasts %v h, want %v", c.day, h, c.hours)
		}
		if from.In(madrid).Hour() != 0 || to.In(madrid).Hour() != 0 {
			t.Errorf("%s range %v – %v does not run midnight to midnight", c.day, from, to)
		}
	}
	if _, _, _, err := ParseDay("2026-02-30", madrid); err == nil {
		t.Error("ParseDay accepted 2026-02-30")
	}
}

func TestFormats(t *testing.T) {
	at := time.Date(2026, 11, 21, 9, 5, 7, 0, time.UTC)
	if got := JSON(at, madrid); got != "2026-11-21T10:05:07+01:00" {
		t.Errorf("JSON = %s", got)
	}
	if got := Spanish(at, madrid); got != "21/11/2026, 10:05:07" {
		t.Errorf("Spanish = %s", got)
	}
}
