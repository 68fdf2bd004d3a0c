package httpx

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"parking/internal/clock"
)

var rateBase = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// docs/public-booking.md#limits-on-anonymous-traffic: PARKING_PUBLIC_RATE requests per minute per address; the 31st is
// refused until the minute is over; addresses count apart; 0 is no limit.
func TestRateLimiterWindow(t *testing.T) {
	clk := clock.NewFake(rateBase)
	l := NewRateLimiter(30, clk.Now)
	for i := range 30 {
		if ok, _ := l.Allow("1.2.3.4"); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	clk.Set(rateBase.Add(20 * time.Second))
	ok, wait := l.Allow("1.2.3.4")
	if ok || wait != 40*time.Second {
		t.Fatalf("31st request: ok=%v retryAfter=%v, want refused for 40s", ok, wait)
	}
	if ok, _ := l.Allow("5.6.7.8"); !ok {
		t.Fatal("another address was refused")
	}
	clk.Set(rateBase.Add(time.Minute))
	if ok, _ := l.Allow("1.2.3.4"); !ok {
		t.Fatal("refused after the minute was over")
	}

	off := NewRateLimiter(0, clk.Now)
	for i := range 1000 {
		if ok, _ := off.Allow("1.2.3.4"); !ok {
			t.Fatalf("PARKING_PUBLIC_RATE=0 refused request %d", i+1)
		}
	}
	if off.Clients() != 0 {
		t.Error("a disabled limiter remembers addresses")
	}
}

// Memory is bounded: closed windows are swept when the table is full.
func TestRateLimiterForgetsIdleAddresses(t *testing.T) {
	clk := clock.NewFake(rateBase)
	l := NewRateLimiter(5, clk.Now)
	for i := range MaxClients {
		l.windows[strconv.Itoa(i)+"x"] = &rateWindow{start: rateBase, count: 1}
	}
	clk.Set(rateBase.Add(2 * time.Minute))
	if ok, _ := l.Allow("new"); !ok {
		t.Fatal("new address refused")
	}
	if n := l.Clients(); n != 1 {
		t.Fatalf("%d addresses remembered after the sweep, want 1", n)
	}
	// Every window open: a tenth is dropped, never more than MaxClients kept.
	for i := range MaxClients {
		l.windows[strconv.Itoa(i)+"y"] = &rateWindow{start: clk.Now(), count: 1}
	}
	l.Allow("newer")
	if n := l.Clients(); n > MaxClients {
		t.Fatalf("%d addresses remembered, more than %d", n, MaxClients)
	}
}

// The middleware answers 429 with Retry-After in the route's shape, per address
// (the connection's peer; X-Forwarded-For is not trusted).
func TestRateLimitMiddleware(t *testing.T) {
	clk := clock.NewFake(rateBase)
	l := NewRateLimiter(2, clk.Now)
	h := l.Limit("route", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
		func(w http.ResponseWriter, r *http.Request, err error) {
			WriteJSON(w, StatusOf(err), map[string]any{"success": false, "message": err.Error()})
		})
	call := func(addr, xff string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/x", nil)
		r.RemoteAddr = addr
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		w := httptest.NewRecorder()
		h(w, r)
		return w
	}
	call("10.0.0.1:1000", "")
	call("10.0.0.1:1001", "")
	clk.Set(rateBase.Add(30*time.Second + 500*time.Millisecond))
	w := call("10.0.0.1:1002", "10.9.9.9")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "30" {
		t.Fatalf("third request: %d Retry-After %q, want 429 and 30", w.Code, w.Header().Get("Retry-After"))
	}
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body["success"] != false ||
		body["message"] != "Demasiadas solicitudes desde su dirección. Inténtelo de nuevo en 30 segundos." {
		t.Fatalf("body %s (%v)", w.Body, err)
	}
	if w := call("10.0.0.2:1000", ""); w.Code != http.StatusNoContent {
		t.Fatalf("another address: %d", w.Code)
	}
	if got := ClientAddr(httptest.NewRequest("GET", "/", nil)); got != "192.0.2.1" {
		t.Errorf("ClientAddr = %q", got)
	}
}
