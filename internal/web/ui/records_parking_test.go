package ui_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/localtime"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// GET /admin/parking: occupied spots now (EN CURSO) with their reservation and
// vehicle, spots reserved for today, and the counts (docs/admin.md#parking-board).
func TestAdminParkingBoard(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.Capacity = 10
		e := webtest.AdminEnvWith(t, cfg)
		today, tomorrow := localtime.DayRange(cfg.Clock(), webtest.Madrid)
		in := e.StartedReservation(1, "A-1")                                              // occupied (its dates are in 2027)
		laterToday := e.WalkIn(webtest.WalkInFields(2, today.Add(time.Minute), 2, "a-1")) // waits for A-1
		reserved := e.WalkIn(webtest.WalkInFields(3, today.Add(-48*time.Hour), 3, "B-2")) // overlaps today
		e.WalkIn(webtest.WalkInFields(4, tomorrow, 2, "C-3"))                             // not today
		e.WalkIn(webtest.WalkInFields(5, today.Add(time.Minute), 1, ""))                  // no spot
		gone := e.WalkIn(webtest.WalkInFields(6, today.Add(time.Minute), 1, "D-4"))
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", gone), nil)

		status, body := e.JSON("GET", "/admin/parking", nil)
		if status != 200 || body["occupied"] != 1.0 || body["reserved"] != 1.0 || body["free"] != 9.0 || body["capacity"] != 10.0 ||
			body["day"] != today.Format("2006-01-02") || body["updated_at"] == nil {
			t.Fatalf("board: %d %v", status, body)
		}
		spots := body["spots"].([]any)
		if len(spots) != 2 {
			t.Fatalf("spots = %v, want A-1 and B-2", spots)
		}
		a1, b2 := spots[0].(map[string]any), spots[1].(map[string]any)
		ra1 := a1["reservation"].(map[string]any)
		up := a1["upcoming"].([]any)
		if a1["code"] != "A-1" || a1["status"] != "occupied" || ra1["id_reservation"] != float64(in) || ra1["license_plate"] != "0001BCD" ||
			ra1["customer_name"] != "Cliente 1" || ra1["status"] != "EN CURSO" || len(up) != 1 || up[0].(map[string]any)["id_reservation"] != float64(laterToday) {
			t.Errorf("A-1 = %v", a1)
		}
		if b2["code"] != "B-2" || b2["status"] != "reserved" || b2["reservation"].(map[string]any)["id_reservation"] != float64(reserved) ||
			len(b2["upcoming"].([]any)) != 0 {
			t.Errorf("B-2 = %v", b2)
		}
	})
	t.Run("no capacity", func(t *testing.T) {
		e := webtest.NewAdminEnv(t, store.SQLite)
		status, body := e.JSON("GET", "/admin/parking", nil)
		if status != 200 || body["free"] != nil || body["capacity"] != nil || body["occupied"] != 0.0 || len(body["spots"].([]any)) != 0 {
			t.Errorf("board without capacity: %d %v", status, body)
		}
	})
}

// The live feed (GET /admin/parking/events) pushes an event when a reservation
// starts, finishes, is cancelled or changes spot, sends heartbeats, and ends when
// the server shuts down.
func TestAdminParkingEvents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.FeedHeartbeat = 50 * time.Millisecond
		e := webtest.AdminEnvWith(t, cfg)
		pending := e.WalkIn(webtest.WalkInFields(1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "A-1"))
		e.AddPhotos(pending, 5)

		// The page says the feed's position it was drawn at (data-seq)...
		pageSeq := func() string {
			t.Helper()
			m := regexp.MustCompile(`data-seq="(\d+)"`).FindStringSubmatch(e.Page("/admin/parking").Body)
			if m == nil {
				t.Fatal("the board page has no data-seq")
			}
			return m[1]
		}
		drawnAt := pageSeq()

		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", e.A.URL+"/admin/parking/events", nil)
		resp, err := e.C.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		lines := make(chan string, 100)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		// next returns the data of the next "parking" event, counting heartbeats.
		heartbeats := 0
		next := func() map[string]any {
			t.Helper()
			event := ""
			for {
				select {
				case line, ok := <-lines:
					if !ok {
						t.Fatal("stream ended before the event")
					}
					switch {
					case line == ": heartbeat":
						heartbeats++
					case strings.HasPrefix(line, "event: "):
						event = strings.TrimPrefix(line, "event: ")
					case strings.HasPrefix(line, "data: ") && event == "parking":
						var v map[string]any
						if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &v); err != nil {
							t.Fatal(err)
						}
						return v
					}
				case <-ctx.Done():
					t.Fatal("no event in time")
				}
			}
		}
		// The stream is open once its first comment arrived. Before it, the hello
		// event gives the feed's position: the same as the page's when nothing
		// happened in between, so the page need not read the board again.
		hello := ""
		for line := range lines {
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				hello = data
			}
			if line == ": connected" {
				break
			}
		}
		if hello != `{"seq":`+drawnAt+`}` {
			t.Errorf("hello %q, page drawn at %s with nothing in between", hello, drawnAt)
		}

		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", pending), nil)
		if ev := next(); ev["type"] != "started" || ev["id_reservation"] != float64(pending) || ev["status"] != "EN CURSO" || ev["cod_parking_spot"] != "A-1" {
			t.Errorf("start event: %v", ev)
		}
		e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", pending), map[string]any{"cod_parking_spot": "b-2"})
		if ev := next(); ev["type"] != "spot_changed" || ev["cod_parking_spot"] != "B-2" || ev["previous_spot"] != "A-1" {
			t.Errorf("spot event: %v", ev)
		}
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", pending), map[string]any{"paymentMethod": "TARJETA"})
		if ev := next(); ev["type"] != "finalized" || ev["status"] != "FINALIZADA" || ev["cod_parking_spot"] != "B-2" {
			t.Errorf("finalize event: %v", ev)
		}
		other := e.WalkIn(webtest.WalkInFields(2, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "C-3"))
		if ev := next(); ev["type"] != "spot_changed" || ev["id_reservation"] != float64(other) || ev["previous_spot"] != nil {
			t.Errorf("walk-in event: %v", ev)
		}
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", other), nil)
		if ev := next(); ev["type"] != "cancelled" || ev["cod_parking_spot"] != nil || ev["previous_spot"] != "C-3" {
			t.Errorf("cancel event: %v", ev)
		}
		// ...and a page drawn after the changes is at another position.
		if now := pageSeq(); now == drawnAt {
			t.Errorf("page position %s unchanged after five events", now)
		}
		// Heartbeats flow while nothing happens: wait for the next one.
	heartbeat:
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatal("stream ended before a heartbeat")
				}
				if line == ": heartbeat" {
					break heartbeat
				}
			case <-ctx.Done():
				t.Fatalf("no heartbeat with a 50 ms interval (%d seen before)", heartbeats)
			}
		}

		// Shutdown ends the stream (and does not wait for it).
		done := make(chan struct{})
		go func() {
			e.A.Close()
			close(done)
		}()
		for range lines {
		}
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("shutdown waited for the open stream")
		}
	})
}

// A non-administrator never reaches the administrator routes (docs/errors.md#without-a-session).
func TestAdminRoutesNeedAdmin(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	customer, _ := apptest.Customer(t, a, "c@example.com", "699000000")
	anonymous := apptest.Client(t)
	routes := [][2]string{
		{"GET", "/admin/reservations/new"}, {"POST", "/admin/reservations/new"}, {"GET", "/admin/reservations/details/1"},
		{"POST", "/admin/reservations/1/edit"}, {"PATCH", "/admin/reservations/1/start"}, {"PATCH", "/admin/reservations/1/finalize"},
		{"PATCH", "/admin/reservations/1/cancel"}, {"POST", "/admin/reservations/1/photos"}, {"GET", "/admin/history"},
		{"GET", "/admin/parking"}, {"GET", "/admin/parking/events"}, {"GET", "/admin/catalog"},
		{"POST", "/admin/catalog/main-services"}, {"PATCH", "/admin/catalog/rates/1"}, {"DELETE", "/admin/catalog/rates/1"},
		{"POST", "/admin/catalog/vehicle-types"}, {"PATCH", "/admin/catalog/additional-services/1"},
		{"GET", "/admin/history.csv"}, {"GET", "/admin/reservations/details/1/receipt"}, {"POST", "/admin/reservations/1/invoice"},
	}
	for _, c := range []*http.Client{anonymous, customer} {
		for _, rt := range routes {
			req, _ := http.NewRequest(rt[0], a.URL+rt[1], strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 303 || resp.Header.Get("Location") != "/users/login" {
				t.Errorf("%s %s: %d %s, want 303 to /users/login", rt[0], rt[1], resp.StatusCode, resp.Header.Get("Location"))
			}
			req, _ = http.NewRequest(rt[0], a.URL+rt[1], nil)
			req.Header.Set("Accept", "application/json")
			resp, err = c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 401 {
				t.Errorf("%s %s as JSON: %d, want 401", rt[0], rt[1], resp.StatusCode)
			}
		}
	}
	if webtest.Count(t, a, "reservation") != 0 || webtest.Count(t, a, "main_service") != 3 {
		t.Error("a refused request changed data")
	}
}
