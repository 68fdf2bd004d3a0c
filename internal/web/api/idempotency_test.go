package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

func idemBooking(phone string) map[string]any {
	return map[string]any{
		"full_name": "Lucía Idem", "phone": phone, "license_plate": "1234BBB", "vehicle_type": "COCHE",
		"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00",
		"id_main_service": 1,
	}
}

func bookingID(t *testing.T, res webtest.Response) float64 {
	t.Helper()
	webtest.WantStatus(t, res, http.StatusCreated)
	return webtest.Decode(t, res)["data"].(map[string]any)["id_reservation"].(float64)
}

// docs/public-booking.md#retries-idempotency-key: the same Idempotency-Key and body answer the first result (same
// status and body, no new row, no second notification); another body is 422; the
// key is scoped to the route (both public paths share it); a failed booking leaves
// no key; after 24 h the key is new again and the sweep deletes it; a malformed key is 400.
func TestPublicBookingIdempotencyKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		cl := apptest.Client(t)
		url := a.URL + "/api/reservations/public-new"
		rows := func() (int, int) {
			return webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation`),
				webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification WHERE type = 'booking_confirmation'`)
		}

		first := webtest.PostJSON(t, cl, url, idemBooking("600111222"), "Idempotency-Key: k-1")
		id := bookingID(t, first)
		again := webtest.PostJSON(t, cl, a.URL+"/api/reservations/public", idemBooking("600111222"), "Idempotency-Key: k-1")
		if bookingID(t, again) != id || again.Body != first.Body || again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
			t.Fatalf("retry answered %s, first %s", again.Body, first.Body)
		}
		if r, n := rows(); r != 1 || n != 1 {
			t.Fatalf("%d reservations and %d notifications after a retry, want 1 and 1", r, n)
		}

		other := webtest.PostJSON(t, cl, url, idemBooking("600111333"), "Idempotency-Key: k-1")
		webtest.WantStatus(t, other, http.StatusUnprocessableEntity)
		if b := webtest.Decode(t, other); b["success"] != false || !strings.Contains(b["message"].(string), "Idempotency-Key") {
			t.Errorf("other body: %v", b)
		}

		// A refused booking frees its key: corrected, the same key books.
		bad := idemBooking("600111444")
		bad["exit_date"] = bad["entry_date"]
		webtest.WantStatus(t, webtest.PostJSON(t, cl, url, bad, "Idempotency-Key: k-2"), http.StatusBadRequest)
		id2 := bookingID(t, webtest.PostJSON(t, cl, url, idemBooking("600111444"), "Idempotency-Key: k-2"))
		if id2 == id {
			t.Fatal("a new key answered an old booking")
		}
		// Without a key, every request books.
		bookingID(t, webtest.PostJSON(t, cl, url, idemBooking("600111222")))
		if r, n := rows(); r != 3 || n != 3 {
			t.Fatalf("%d reservations, %d notifications, want 3 and 3", r, n)
		}

		for _, key := range []string{"", strings.Repeat("k", 256), "tab\tkey"} {
			res := webtest.PostJSON(t, cl, url, idemBooking("600111555"), "Idempotency-Key: "+key)
			webtest.WantStatus(t, res, http.StatusBadRequest)
			if b := webtest.Decode(t, res); !strings.Contains(b["message"].(string), "Idempotency-Key") {
				t.Errorf("key %q: %v", key, b)
			}
		}

		// After 24 h the key counts no more.
		clk.Set(clk.Now().Add(24*time.Hour + time.Second))
		if bookingID(t, webtest.PostJSON(t, cl, url, idemBooking("600111222"), "Idempotency-Key: k-1")) == id {
			t.Error("a key older than 24 h answered its first booking")
		}
		// The hourly sweep deletes the expired key k-2 (k-1 was written anew).
		if n, err := a.Booking.PruneIdempotencyKeys(context.Background()); n != 1 || err != nil {
			t.Errorf("swept %d keys (%v), want the expired one", n, err)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM idempotency_key`); n != 1 {
			t.Errorf("%d keys stored after the sweep, want 1", n)
		}
	})
}

// Concurrent requests with one key make one booking: each answer is the booking (201,
// the same id) or 409 while the first still runs.
func TestPublicBookingIdempotencyConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		body, _ := json.Marshal(idemBooking("600222333"))
		var wg sync.WaitGroup
		results := make([]webtest.Response, 8)
		for i := range results {
			wg.Go(func() {
				results[i] = webtest.Do(t, apptest.Client(t), "POST", a.URL+"/api/reservations/public-new", strings.NewReader(string(body)),
					"Content-Type: application/json", "Idempotency-Key: same")
			})
		}
		wg.Wait()
		var ids = map[float64]bool{}
		for _, r := range results {
			switch r.StatusCode {
			case http.StatusCreated:
				ids[bookingID(t, r)] = true
			case http.StatusConflict:
			default:
				t.Fatalf("status %d: %s", r.StatusCode, r.Body)
			}
		}
		if len(ids) != 1 {
			t.Fatalf("%d distinct bookings, want 1", len(ids))
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation`); n != 1 {
			t.Fatalf("%d reservations, want 1", n)
		}
	})
}
