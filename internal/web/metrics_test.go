package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// scrape reads GET /metrics with the token and parses it.
func scrape(t *testing.T, url, token string) map[string]*dto.MetricFamily {
	t.Helper()
	req, _ := http.NewRequest("GET", url+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /metrics = %d", res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// value is the sample of family name whose labels include want (a counter,
// gauge, or a histogram's count); 0 when there is none.
func value(fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	f := fams[name]
	if f == nil {
		return 0
	}
	sum := 0.0
next:
	for _, m := range f.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		for i := 0; i+1 < len(want); i += 2 {
			if labels[want[i]] != want[i+1] {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

// GET /metrics after some traffic: requests by route and status, latency, bookings
// made and refused, a state change, the dispatcher's outcomes, the outbox backlog
// and its oldest row's age, today's occupancy, the connection pools. Behind the
// bearer token.
func TestMetricsMoveWithTraffic(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		var accept atomic.Bool
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !accept.Load() {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(hook.Close)
		cfg, clk := apptest.ConfigClock(t, d)
		cfg.WebhookURL, cfg.MetricsToken, cfg.Capacity = hook.URL, "scrape-secret", 10
		env := webtest.AdminEnvWith(t, cfg)
		a := env.A
		recorded := make(chan struct{}, 64)
		a.Dispatcher.Observe(func(p notify.Progress) {
			if p.Recorded > 0 {
				recorded <- struct{}{}
			}
		})

		// The token is required.
		for _, auth := range []string{"", "Bearer wrong"} {
			req, _ := http.NewRequest("GET", a.URL+"/metrics", nil)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET /metrics with %q = %d, want 401", auth, res.StatusCode)
			}
		}
		before := scrape(t, a.URL, "scrape-secret")

		// Traffic: two quotes, a refused and an accepted public booking, a walk-in
		// for today with a spot, started.
		anon := apptest.Client(t)
		quote := map[string]any{"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00", "vehicle_type": "TURISMO", "id_main_service": 1}
		for range 2 {
			webtest.WantStatus(t, webtest.PostJSON(t, anon, a.URL+"/api/pricing/dynamic", quote), 200)
		}
		webtest.WantStatus(t, webtest.PostJSON(t, anon, a.URL+"/api/reservations/public-new", map[string]any{"full_name": "Sin Teléfono"}), 400)
		webtest.WantStatus(t, webtest.PostJSON(t, anon, a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "Ana Pérez", "email": "ana@example.com", "phone": "600111222", "license_plate": "1234ABC", "vehicle_type": "TURISMO",
			"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00", "id_main_service": 1,
		}), 201)
		walkIn := webtest.WalkInFields(7, apptest.Now(a), 2, "A-01")
		walkIn["email"] = "cliente7@example.com" // notifications go to contacts with an email
		id := env.WalkIn(walkIn)
		env.AddPhotos(id, 5)
		if status, body := env.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); status != 200 {
			t.Fatalf("start: %d %v", status, body)
		}
		webtest.Do(t, anon, "GET", a.URL+"/no-such-page", nil)

		// The three notifications (two confirmations, the vehicle entry) were refused
		// by the receiver (503): each is retried no sooner than 48 s later (1 min
		// −20 %), so moving the clock 30 s leaves them pending and 30 s old.
		waitMetric(t, a.URL, recorded, "three retries recorded", func(f map[string]*dto.MetricFamily) bool {
			return value(f, "parking_notification_deliveries_total", "result", "retry") >= 3
		})
		clk.Advance(30 * time.Second)
		after := scrape(t, a.URL, "scrape-secret")

		moved := func(name string, want float64, labels ...string) {
			t.Helper()
			if got := value(after, name, labels...) - value(before, name, labels...); got != want {
				t.Errorf("%s%v moved by %v, want %v", name, labels, got, want)
			}
		}
		moved("parking_http_requests_total", 2, "route", "POST /api/pricing/dynamic", "status", "200")
		moved("parking_http_requests_total", 1, "route", "POST /api/reservations/public-new", "status", "400")
		moved("parking_http_requests_total", 1, "route", "POST /api/reservations/public-new", "status", "201")
		moved("parking_http_requests_total", 1, "route", "unmatched", "status", "404")
		moved("parking_http_request_duration_seconds", 2, "route", "POST /api/pricing/dynamic")
		moved("parking_bookings_created_total", 1, "channel", "web")
		moved("parking_bookings_created_total", 1, "channel", "counter")
		moved("parking_bookings_refused_total", 1, "channel", "web", "reason", "invalid")
		moved("parking_reservation_transitions_total", 2, "from", "", "to", "PENDIENTE")
		moved("parking_reservation_transitions_total", 1, "from", "PENDIENTE", "to", "EN CURSO")
		if got := value(after, "parking_notifications_pending"); got != 3 {
			t.Errorf("notifications pending = %v, want 3 (two confirmations and the entry, refused by the receiver)", got)
		}
		if got := value(after, "parking_notifications_oldest_pending_age_seconds"); got < 30 {
			t.Errorf("oldest pending age = %v s, want ≥ 30 (the clock moved 30 s)", got)
		}
		if occ, cp, ratio := value(after, "parking_spots_occupied"), value(after, "parking_capacity"), value(after, "parking_occupancy_ratio"); occ != 1 || cp != 10 || ratio != 0.1 {
			t.Errorf("occupancy = %v of %v (ratio %v), want 1 of 10", occ, cp, ratio)
		}
		if _, ok := after["go_sql_open_connections"]; !ok || value(after, "go_sql_max_open_connections", "db_name", "read") == 0 {
			t.Error("the database pool's figures are missing")
		}
		if value(after, "go_goroutines") == 0 {
			t.Error("the Go runtime's figures are missing")
		}

		// The receiver recovers: the due retries are delivered and counted.
		accept.Store(true)
		clk.Advance(10 * time.Minute) // the retries are due
		webtest.WantStatus(t, webtest.PostJSON(t, anon, a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "Eva Gil", "email": "eva@example.com", "phone": "600111333", "license_plate": "5678DEF", "vehicle_type": "TURISMO",
			"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00", "id_main_service": 1,
		}), 201) // wakes the dispatcher, which also finds the retries due
		final := waitMetric(t, a.URL, recorded, "every notification delivered", func(f map[string]*dto.MetricFamily) bool {
			// The counter moves just after the outcomes are written.
			return value(f, "parking_notifications_pending") == 0 &&
				value(f, "parking_notification_deliveries_total", "result", "delivered") == 4
		}) // three confirmations and one entry
		if got := value(final, "parking_notifications_oldest_pending_age_seconds"); got != 0 {
			t.Errorf("oldest pending age with nothing pending = %v", got)
		}
	})
}

// waitMetric scrapes each time the dispatcher records outcomes until ok holds, for
// at most 10 s.
func waitMetric(t *testing.T, url string, recorded <-chan struct{}, what string, ok func(map[string]*dto.MetricFamily) bool) map[string]*dto.MetricFamily {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		f := scrape(t, url, "scrape-secret")
		if ok(f) {
			return f
		}
		select {
		case <-recorded:
		case <-deadline:
			var b strings.Builder
			for _, name := range []string{"parking_notification_deliveries_total", "parking_notifications_pending"} {
				fmt.Fprintf(&b, "%s=%v ", name, value(f, name))
			}
			t.Fatalf("waiting for %s: %s", what, b.String())
		}
	}
}
