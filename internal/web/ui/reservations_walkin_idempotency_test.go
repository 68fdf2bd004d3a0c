package ui_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/public-booking.md#retries-idempotency-key: the walk-in takes an Idempotency-Key like public booking: the same
// key and body answer the first result (JSON 201 or the browser's 303), another
// body is 422, and the key is scoped to the route (a public booking with the same
// key is a booking of its own).
func TestWalkInIdempotencyKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		fields := webtest.WalkInFields(1, clocktest.Day(1, 10, 0), 2, "")
		raw, _ := json.Marshal(fields)
		send := func(body, key string) (int, string) {
			status, _, text := e.Send("POST", "/admin/reservations/new", "application/json", body,
				"Accept", "application/json", "Idempotency-Key", key)
			return status, text
		}
		s1, b1 := send(string(raw), "w-1")
		s2, b2 := send(string(raw), "w-1")
		if s1 != http.StatusCreated || s2 != s1 || b2 != b1 {
			t.Fatalf("first %d %s, retry %d %s", s1, b1, s2, b2)
		}
		fields["phone"] = "600999888"
		other, _ := json.Marshal(fields)
		if s, b := send(string(other), "w-1"); s != http.StatusUnprocessableEntity || !strings.Contains(b, "Idempotency-Key") {
			t.Fatalf("other body: %d %s", s, b)
		}

		// A browser's form post: 303 to the new reservation, the same on retry.
		form := url.Values{"phone": {"600777666"}, "license_plate": {"7777XYZ"}, "vehicle_type": {"COCHE"},
			"id_main_service": {"1"}, "entry_date": {clocktest.D("2026-12-01") + "T10:00"}}.Encode()
		fs1, loc1, _ := e.Send("POST", "/admin/reservations/new", "application/x-www-form-urlencoded", form, "Accept", "text/html", "Idempotency-Key", "w-2")
		fs2, loc2, _ := e.Send("POST", "/admin/reservations/new", "application/x-www-form-urlencoded", form, "Accept", "text/html", "Idempotency-Key", "w-2")
		if fs1 != http.StatusSeeOther || fs2 != fs1 || loc1 == "" || loc2 != loc1 {
			t.Fatalf("form: %d %q, retry %d %q", fs1, loc1, fs2, loc2)
		}

		// Scoped to the route: the public booking's key w-1 is another key.
		pub := `{"full_name":"Eva","phone":"600555444","license_plate":"5555KKK","vehicle_type":"COCHE","id_main_service":1,` +
			`"entry_date":"` + clocktest.D("2026-12-01") + `T10:00","exit_date":"` + clocktest.D("2026-12-02") + `T10:00"}`
		if s, _, b := e.Send("POST", "/api/reservations/public-new", "application/json", pub, "Idempotency-Key", "w-1"); s != http.StatusCreated {
			t.Fatalf("public booking with a walk-in's key: %d %s", s, b)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM reservation`); n != 3 {
			t.Fatalf("%d reservations, want 3", n)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM notification WHERE type = 'booking_confirmation'`); n != 3 {
			t.Fatalf("%d booking notifications, want 3", n)
		}
	})
}
