package clocktest_test

import (
	"os"
	"testing"
	"time"

	"parking/internal/clock/clocktest"
)

// The override is read in Europe/Madrid unless it carries an offset; anything else
// is refused rather than ignored.
func TestParse(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]time.Time{
		"2027-06-30T23:59":          time.Date(2027, 6, 30, 23, 59, 0, 0, madrid),
		"2027-06-30T23:59:30":       time.Date(2027, 6, 30, 23, 59, 30, 0, madrid),
		"2027-01-01 00:00":          time.Date(2027, 1, 1, 0, 0, 0, 0, madrid),
		"2027-06-30T21:59:00Z":      time.Date(2027, 6, 30, 23, 59, 0, 0, madrid),
		"2027-06-30T23:59:00+02:00": time.Date(2027, 6, 30, 23, 59, 0, 0, madrid),
	} {
		got, err := clocktest.Parse(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "tomorrow", "30/06/2027 23:59", "2027-06-31T10:00"} {
		if _, err := clocktest.Parse(in); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

// New clocks start at the base: the override when it is set, DefaultBase otherwise.
func TestBase(t *testing.T) {
	want := clocktest.DefaultBase
	if v := os.Getenv(clocktest.EnvBase); v != "" {
		var err error
		if want, err = clocktest.Parse(v); err != nil {
			t.Fatal(err)
		}
	}
	if got := clocktest.New().Now(); !got.Equal(want) {
		t.Errorf("new test clock at %v, want %v", got, want)
	}
	t.Logf("test clock base: %v", clocktest.Base())
}

func TestFixtureDatesFollowTheBase(t *testing.T) {
	if os.Getenv(clocktest.EnvBase) == "" {
		if clocktest.D("2026-12-01") != "2026-12-01" || clocktest.ES("01/12/2026") != "01/12/2026" {
			t.Errorf("the default base moves fixtures: %s %s", clocktest.D("2026-12-01"), clocktest.ES("01/12/2026"))
		}
	}
	// Whatever the base: eleven days after DefaultBase stays eleven days after Base.
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	got, err := time.ParseInLocation("2006-01-02", clocktest.D("2026-12-01"), madrid)
	if err != nil {
		t.Fatal(err)
	}
	b := clocktest.Base().In(madrid)
	want := time.Date(b.Year(), b.Month(), b.Day()+11, 0, 0, 0, 0, madrid)
	if !got.Equal(want) {
		t.Errorf("D(2026-12-01) = %s, want %s", got.Format("2006-01-02"), want.Format("2006-01-02"))
	}
	if s := clocktest.Shift(time.Date(2026, 12, 1, 10, 0, 0, 0, madrid)); !s.Equal(clocktest.Day(11, 10, 0)) {
		t.Errorf("Shift = %s, want %s", s, clocktest.Day(11, 10, 0))
	}
}
