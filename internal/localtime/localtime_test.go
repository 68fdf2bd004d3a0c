package localtime

import (
	"fmt"
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

// refParse reads the shapes parsePlain takes with time's layouts, as Parse did
// before it: the reference parsePlain must agree with.
func refParse(s string, loc *time.Location) (time.Time, error) {
	switch len(s) {
	case 10:
		return time.ParseInLocation("2006-01-02", s, loc)
	case 16, 19:
		if s[10] == ' ' {
			s = s[:10] + "T" + s[11:]
		}
		if len(s) == 16 {
			return time.ParseInLocation("2006-01-02T15:04", s, loc)
		}
		return time.ParseInLocation("2006-01-02T15:04:05", s, loc)
	}
	return time.Time{}, ErrFormat
}

// checkPlain fails when parsePlain reads s to another instant than the layouts do,
// or reads a text they refuse.
func checkPlain(t *testing.T, s string) {
	t.Helper()
	for _, loc := range []*time.Location{madrid, time.UTC} {
		got, ok := parsePlain(s, loc)
		want, err := refParse(s, loc)
		if ok && (err != nil || !got.Equal(want) || got.Location() != want.Location()) {
			t.Fatalf("parsePlain(%q) = %v; the layout reads %v, %v", s, got, want, err)
		}
		if !ok && err == nil {
			t.Errorf("parsePlain(%q) left to the layouts, which read it (%v)", s, want)
		}
	}
}

// The usual forms are read without time's layouts (on every price quote): the same
// instant for every date, time and separator, the same refusals (out of range
// months, days such as 30 February, hours, minutes and seconds), daylight saving's
// missing and repeated hours included.
func TestParsePlain(t *testing.T) {
	for _, y := range []string{"0000", "1899", "1900", "2000", "2024", "2026", "2100", "2200", "2201", "9999", "20a6", "-202"} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				date := fmt.Sprintf("%s-%02d-%02d", y, m, d)
				checkPlain(t, date)
				for _, sep := range []string{"T", " ", "t", "_"} {
					for _, hm := range []string{"00:00", "02:30", "03:00", "23:59", "24:00", "12:60", "1:000", "+1:00", "12-00"} {
						checkPlain(t, date+sep+hm)
						for _, sec := range []string{":00", ":59", ":60", ":5x", "-00"} {
							checkPlain(t, date+sep+hm+sec)
						}
					}
				}
			}
		}
	}
	// Through Parse: a plain form keeps its refusals and the years' limits.
	for _, in := range []string{"2026-02-29T10:00", "2026-04-31", "1899-12-31T23:59", "2201-01-01 00:00:00", "2026-11-21T24:00"} {
		if _, err := Parse(in, madrid); err == nil {
			t.Errorf("Parse(%q) accepted, want an error", in)
		}
	}
}

func FuzzParsePlain(f *testing.F) {
	for _, s := range []string{"2026-11-21", "2026-11-21T10:00", "2026-11-21 10:00:30", "2024-02-29T23:59:59", "2026-03-29T02:30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) == 10 || len(s) == 16 || len(s) == 19 {
			got, ok := parsePlain(s, madrid)
			want, err := refParse(s, madrid)
			if ok && (err != nil || !got.Equal(want)) {
				t.Fatalf("parsePlain(%q) = %v; the layout reads %v, %v", s, got, want, err)
			}
		}
	})
}
