package occupancy

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var madrid, _ = time.LoadLocation("Europe/Madrid")

func TestDayOfIsTheLocalDay(t *testing.T) {
	for _, c := range []struct {
		at   string
		want string
	}{
		{"2027-03-12T22:30:00Z", "2027-03-12"}, // 23:30 in Madrid
		{"2027-03-12T23:30:00Z", "2027-03-13"}, // 00:30 the next day in Madrid
		{"2027-03-28T01:30:00Z", "2027-03-28"}, // the spring DST change
		{"2027-10-31T00:30:00Z", "2027-10-31"}, // the autumn one
	} {
		at, _ := time.Parse(time.RFC3339, c.at)
		if got := DayOf(at, madrid).String(); got != c.want {
			t.Errorf("DayOf(%s) = %s, want %s", c.at, got, c.want)
		}
		d, err := ParseDay(c.want)
		if err != nil || d != DayOf(at, madrid) || !d.Start(madrid).Equal(time.Date(at.In(madrid).Year(), at.In(madrid).Month(), at.In(madrid).Day(), 0, 0, 0, 0, madrid)) {
			t.Errorf("ParseDay(%s) = %v, %v", c.want, d, err)
		}
	}
}

func TestSpanMinus(t *testing.T) {
	s := Span{10, 20}
	for _, c := range []struct {
		t    Span
		want string
	}{
		{Span{1, 0}, "[{10 20}]"},
		{Span{1, 5}, "[{10 20}]"},
		{Span{25, 30}, "[{10 20}]"},
		{Span{5, 12}, "[{13 20}]"},
		{Span{18, 30}, "[{10 17}]"},
		{Span{12, 14}, "[{10 11} {15 20}]"},
		{Span{10, 20}, "[]"},
		{Span{0, 40}, "[]"},
	} {
		var parts [][2]int64
		for _, x := range s.Minus(c.t) {
			parts = append(parts, [2]int64{int64(x.First), int64(x.Last)})
		}
		if got := strings.NewReplacer("[[", "[{", "]]", "}]", "] [", "} {").Replace(fmt.Sprint(parts)); got != c.want {
			t.Errorf("%v minus %v = %s, want %s", s, c.t, got, c.want)
		}
	}
}

func TestWhereAStayCounts(t *testing.T) {
	at := func(s string) time.Time { v, _ := time.ParseInLocation("2006-01-02 15:04", s, madrid); return v }
	ptr := func(v time.Time) *time.Time { return &v }
	today, _ := ParseDay("2027-03-15")
	d := func(s string) Day { v, _ := ParseDay(s); return v }
	for _, c := range []struct {
		name         string
		s            Stay
		ledger, open Span
	}{
		{"pending with an exit: entry to exit, both included", Stay{Active: true, Entry: at("2027-03-20 22:00"), Exit: ptr(at("2027-03-22 06:00"))},
			Span{d("2027-03-20"), d("2027-03-22")}, Span{1, 0}},
		{"cancelled or finalized: nowhere", Stay{Entry: at("2027-03-20 22:00"), Exit: ptr(at("2027-03-22 06:00"))}, Span{1, 0}, Span{1, 0}},
		{"no exit: entry day to today, not the ledger", Stay{Active: true, Entry: at("2027-03-13 09:00")}, Span{1, 0}, Span{d("2027-03-13"), today}},
		{"no exit, entering in the future: nowhere yet", Stay{Active: true, Entry: at("2027-03-18 09:00")}, Span{1, 0}, Span{d("2027-03-18"), today}},
		{"in the car park past its exit: the ledger, then up to today", Stay{Active: true, InCar: true, Entry: at("2027-03-10 09:00"), Exit: ptr(at("2027-03-12 09:00"))},
			Span{d("2027-03-10"), d("2027-03-12")}, Span{d("2027-03-13"), today}},
		{"in the car park before its exit: the ledger only", Stay{Active: true, InCar: true, Entry: at("2027-03-10 09:00"), Exit: ptr(at("2027-03-19 09:00"))},
			Span{d("2027-03-10"), d("2027-03-19")}, Span{d("2027-03-20"), today}},
	} {
		if got := Ledgered(c.s, madrid); got != c.ledger && !(got.Empty() && c.ledger.Empty()) {
			t.Errorf("%s: ledger %v, want %v", c.name, got, c.ledger)
		}
		if got := Open(c.s, madrid, today); got != c.open && !(got.Empty() && c.open.Empty()) {
			t.Errorf("%s: open %v, want %v", c.name, got, c.open)
		}
	}
}

func TestStatusOf(t *testing.T) {
	for _, c := range []struct {
		booked, limit int
		want          Status
	}{
		{0, 0, Available}, {500, 0, Available}, // unlimited
		{89, 100, Available}, {90, 100, Available}, // exactly 10 % free is not under 10 %
		{91, 100, Few}, {99, 100, Few}, {100, 100, Full}, {104, 100, Full},
		{0, 1, Available}, {1, 1, Full}, {10, 11, Few}, {9, 11, Available},
	} {
		if got := StatusOf(c.booked, c.limit); got != c.want {
			t.Errorf("StatusOf(%d, %d) = %s, want %s", c.booked, c.limit, got, c.want)
		}
	}
}

func TestSpanishNamesTheDays(t *testing.T) {
	a, _ := ParseDay("2027-03-12")
	if got := Spanish([]Day{a}); got != "12/03/2027" {
		t.Errorf("one day: %q", got)
	}
	if got := Spanish([]Day{a, a + 1, a + 2}); got != "12/03/2027, 13/03/2027 y 14/03/2027" {
		t.Errorf("three days: %q", got)
	}
}
