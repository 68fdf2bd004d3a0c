package store

import (
	"testing"
	"time"
)

// The hand parser of stored times agrees with time.Parse on every form the
// SQLite driver writes, and refuses what is not a time.
func TestParseStoredTime(t *testing.T) {
	for _, s := range []string{
		"2026-03-29 08:15:00+00:00", "2026-03-29 08:15:00.5+00:00", "2026-03-29 08:15:00.123456+00:00",
		"2026-03-29 08:15:00.123456789+00:00", "2026-03-29 01:15:00+02:00", "2026-03-29 08:15:00-03:30",
		"2026-03-29T08:15:00Z", "2026-12-31 23:59:59.999999+00:00", "2024-02-29 00:00:00+00:00",
	} {
		got, err := parseStoredTime(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		layout := "2006-01-02 15:04:05.999999999Z07:00"
		if s[10] == 'T' {
			layout = time.RFC3339Nano
		}
		want, err := time.Parse(layout, s)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("%q = %v, want %v in UTC", s, got, want.UTC())
		}
	}
	for _, s := range []string{"", "2026-03-29", "2026-02-30 08:00:00+00:00", "2026-03-29 25:00:00+00:00", "2026-03-29 08:15:00", "yesterday at noon, roughly"} {
		if _, err := parseStoredTime(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}
