package managelink_test

import (
	"strings"
	"testing"
	"time"

	"parking/internal/managelink"
)

// A token is valid for its reference until its expiry, under its key only.
func TestToken(t *testing.T) {
	s := managelink.New([]byte("secret-one-0123456789"), "https://parking.example/")
	exit := time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tok, url := s.Link("K7Q2-M9XD", exit.AddDate(0, 0, -3), &exit, now)
	if url != "https://parking.example/reserva/K7Q2-M9XD?t="+tok {
		t.Errorf("url = %q", url)
	}
	expiry := exit.Add(managelink.Validity)
	for _, c := range []struct {
		name  string
		ref   string
		token string
		at    time.Time
		want  bool
	}{
		{"valid", "K7Q2-M9XD", tok, now, true},
		{"a second before expiry", "K7Q2-M9XD", tok, expiry.Add(-time.Second), true},
		{"at expiry", "K7Q2-M9XD", tok, expiry, false},
		{"another reference", "K7Q2-M9XE", tok, now, false},
		{"expiry changed", "K7Q2-M9XD", "zzzzzz" + tok[strings.Index(tok, "."):], now, false},
		{"mac changed", "K7Q2-M9XD", tok[:len(tok)-1] + "A", now, false},
		{"empty", "K7Q2-M9XD", "", now, false},
		{"no dot", "K7Q2-M9XD", "abc", now, false},
	} {
		if got := s.Valid(c.ref, c.token, c.at); got != c.want {
			t.Errorf("%s: Valid = %v, want %v", c.name, got, c.want)
		}
	}
	other := managelink.New([]byte("secret-two-0123456789"), "https://parking.example")
	if other.Valid("K7Q2-M9XD", tok, now) {
		t.Error("a token is valid under another key")
	}
	// A stay without an exit: 30 days after the later of its entry and now.
	if got := managelink.Expiry(now.Add(-48*time.Hour), nil, now); !got.Equal(now.Add(managelink.Validity)) {
		t.Errorf("open stay expiry = %s", got)
	}
}
