package money

import (
	"encoding/json"
	"testing"
)

func TestCentsText(t *testing.T) {
	for _, c := range []struct {
		c    Cents
		want string
	}{{0, "0.00"}, {5, "0.05"}, {1234, "12.34"}, {120000, "1200.00"}, {-5, "-0.05"}, {-1234, "-12.34"}} {
		if got := c.c.String(); got != c.want {
			t.Errorf("Cents(%d).String() = %q, want %q", c.c, got, c.want)
		}
		b, _ := json.Marshal(c.c)
		if string(b) != c.want {
			t.Errorf("json(%d) = %s, want %s", c.c, b, c.want)
		}
	}
}

func TestParseCents(t *testing.T) {
	good := map[string]Cents{"12": 1200, "12.3": 1230, "12.34": 1234, "0,5": 50, " 7.05 ": 705, "-1.5": -150, ".5": 50}
	for in, want := range good {
		got, err := ParseCents(in)
		if err != nil || got != want {
			t.Errorf("ParseCents(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "1.234", "1e3", "12.3.4", "--1", "1 2", "."} {
		if _, err := ParseCents(in); err == nil {
			t.Errorf("ParseCents(%q) accepted, want an error", in)
		}
	}
	var c Cents
	if err := json.Unmarshal([]byte(`"15.25"`), &c); err != nil || c != 1525 {
		t.Errorf("unmarshal string: %v %v", c, err)
	}
	if err := json.Unmarshal([]byte(`15.255`), &c); err == nil {
		t.Errorf("unmarshal 15.255 accepted; more than two decimals must be refused")
	}
}

func TestMultiplier(t *testing.T) {
	good := map[string]Multiplier{"1": 10000, "1.25": 12500, "0.5": 5000, "2.0": 20000, "1.3333": 13333}
	for in, want := range good {
		got, err := ParseMultiplier(in)
		if err != nil || got != want {
			t.Errorf("ParseMultiplier(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseMultiplier("1.23456"); err == nil {
		t.Error("five decimals accepted")
	}
	for m, want := range map[Multiplier]string{10000: "1", 12500: "1.25", 5000: "0.5", 13333: "1.3333", 20000: "2", 500: "0.05"} {
		if got := m.String(); got != want {
			t.Errorf("Multiplier(%d) = %q, want %q", m, got, want)
		}
	}
}
