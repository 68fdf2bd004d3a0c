package ui_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/localtime"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// gateEvent posts a camera event with token and decodes the answer.
func gateEvent(t *testing.T, a string, token string, body any) (int, http.Header, map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", a+"/api/gate/events", strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := apptest.Client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("gate event %v: %d %q", body, res.StatusCode, b)
	}
	return res.StatusCode, res.Header, out
}

// TestGateCameras: staff register a camera (its token shown once, stored only as
// a hash); the camera's "in" marks the PENDIENTE booking of the plate arrived
// without starting it; "out" stays closed while the stay is open (not paid), opens
// after the finalize within the exit grace, and closes after it; bad tokens, plates
// and directions are refused; a camera over 120 events a minute gets 429 with
// Retry-After; every event is listed at /admin/gate and swept after 90 days; a
// removed camera's token stops working.
func TestGateCameras(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		a := e.A
		loc := cfg.Location

		for _, name := range []string{"", "   ", "a\x01b"} {
			if st, body := e.JSON("POST", "/admin/devices", map[string]any{"name": name}); st != 400 || body["success"] != false {
				t.Errorf("device name %q: %d %v", name, st, body)
			}
		}
		st, body := e.JSON("POST", "/admin/devices", map[string]any{"name": "Entrada norte"})
		token, _ := body["token"].(string)
		if st != 201 || body["success"] != true || body["name"] != "Entrada norte" || len(token) < 32 {
			t.Fatalf("register: %d %v", st, body)
		}
		devID := int64(body["id"].(float64))
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM gate_device WHERE token_hash = $1`, token); n != 0 {
			t.Fatal("the token is stored as it is")
		}
		st, body = e.JSON("GET", "/admin/devices", nil)
		devs := body["devices"].([]any)
		if st != 200 || len(devs) != 1 || devs[0].(map[string]any)["name"] != "Entrada norte" || devs[0].(map[string]any)["token"] != nil {
			t.Fatalf("devices: %d %v", st, body)
		}

		now := apptest.Now(a)
		f := webtest.WalkInFields(1, now.Add(2*time.Hour), 2, "")
		f["license_plate"] = "1234 BCD"
		pending := e.WalkIn(f)

		// Refusals: nothing kept.
		if st, _, body := gateEvent(t, a.URL, "", map[string]any{"plate": "1234BCD", "direction": "in"}); st != 401 || body["success"] != false {
			t.Errorf("no token: %d %v", st, body)
		}
		if st, _, body := gateEvent(t, a.URL, "wrong", map[string]any{"plate": "1234BCD", "direction": "in"}); st != 401 {
			t.Errorf("bad token: %d %v", st, body)
		}
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"plate": "!!", "direction": "in"}, "plate"},
			{map[string]any{"direction": "in"}, "plate"},
			{map[string]any{"plate": "1234BCD", "direction": "up"}, "direction"},
			{map[string]any{"plate": "1234BCD", "direction": "in", "at": "ayer"}, "campo at"},
		} {
			st, _, body := gateEvent(t, a.URL, token, c.body)
			if msg, _ := body["message"].(string); st != 400 || !strings.Contains(msg, c.field) {
				t.Errorf("%v: %d %v, want 400 naming %s", c.body, st, body, c.field)
			}
		}
		if n := webtest.Count(t, a, "gate_event"); n != 0 {
			t.Fatalf("refused events kept: %d", n)
		}

		_, tok := e.JSON("POST", "/admin/api-token", nil)
		bearer := "Authorization: Bearer " + fmt.Sprint(tok["token"])
		boardArrived := func() any {
			day := now.Add(2 * time.Hour).In(loc).Format("2006-01-02")
			board := webtest.Decode(t, webtest.Do(t, apptest.Client(t), "GET", a.URL+"/api/reservations?date="+day, nil, bearer))
			for _, it := range board["entries"].([]any) {
				if m := it.(map[string]any); m["id_reservation"] == float64(pending) {
					return m["arrived_at"]
				}
			}
			return "not on the board"
		}
		if got := boardArrived(); got != nil {
			t.Errorf("board arrived_at before the camera = %v, want none", got)
		}

		// in: the booking is marked arrived, still PENDIENTE.
		st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": "1234-bcd", "direction": "in"})
		res, _ := body["reservation"].(map[string]any)
		if st != 200 || body["success"] != true || body["open"] != true || res == nil ||
			res["id_reservation"] != float64(pending) || res["status"] != "PENDIENTE" || res["license_plate"] != "1234BCD" ||
			res["reference"] != reservation.ShowReference(e.Stored(pending).Reference) || body["message"] == "" {
			t.Fatalf("in: %d %v", st, body)
		}
		stored := e.Stored(pending)
		if stored.Status != reservation.Pending || stored.ArrivedAt == nil || !stored.ArrivedAt.Equal(now) || stored.CheckedInAt != nil {
			t.Errorf("after in: %+v", stored)
		}
		_, detail := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", pending), nil)
		if got := detail["reservation"].(map[string]any)["arrived_at"]; got != localtime.JSON(now, loc) {
			t.Errorf("detail arrived_at = %v", got)
		}
		// The day's board (the dashboard's list) shows the arrival on the entry, past the
		// board's cache (read before the event: the board version counts arrived_at).
		if got := boardArrived(); got != localtime.JSON(now, loc) {
			t.Errorf("board arrived_at = %v, want %s", got, localtime.JSON(now, loc))
		}
		// An unknown plate, and a plate whose booking is days away: closed, no reservation.
		f = webtest.WalkInFields(2, now.Add(72*time.Hour), 2, "")
		later := e.WalkIn(f)
		for _, plate := range []string{"9999ZZZ", f["license_plate"].(string)} {
			st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": plate, "direction": "in"})
			if st != 200 || body["open"] != false || body["reservation"] != nil {
				t.Errorf("in %s: %d %v", plate, st, body)
			}
		}
		if e.Stored(later).ArrivedAt != nil {
			t.Error("a booking 3 days away was marked arrived")
		}
		// With at: the same booking read 70 h later is within 24 h of its entry.
		st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": f["license_plate"], "direction": "in",
			"at": localtime.JSON(now.Add(70*time.Hour), loc)})
		if st != 200 || body["open"] != true || e.Stored(later).ArrivedAt == nil {
			t.Errorf("in with at: %d %v", st, body)
		}

		// out: open stay → closed, not paid; finalized → open; past the grace → closed.
		started := e.StartedReservation(3, "A-1")
		outPlate := webtest.WalkInFields(3, now, 1, "")["license_plate"]
		st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": outPlate, "direction": "out"})
		res, _ = body["reservation"].(map[string]any)
		if msg, _ := body["message"].(string); st != 200 || body["open"] != false || res == nil || res["status"] != "EN CURSO" ||
			!strings.Contains(msg, "no está pagada") {
			t.Errorf("out before payment: %d %v", st, body)
		}
		if st, body := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", started), map[string]any{"paymentMethod": "TARJETA"}); st != 200 {
			t.Fatalf("finalize: %d %v", st, body)
		}
		clk.Advance(29 * time.Minute)
		st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": outPlate, "direction": "out"})
		res, _ = body["reservation"].(map[string]any)
		if st != 200 || body["open"] != true || res == nil || res["status"] != "FINALIZADA" {
			t.Errorf("out after payment: %d %v", st, body)
		}
		clk.Advance(2 * time.Minute)
		st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": outPlate, "direction": "out"})
		if st != 200 || body["open"] != false || body["reservation"] != nil {
			t.Errorf("out past the grace: %d %v", st, body)
		}
		// The grace is a setting.
		if st, body := e.JSON("POST", "/admin/settings", map[string]any{"exit_grace_minutes": 60}); st != 200 ||
			body["settings"].(map[string]any)["exit_grace_minutes"] != 60.0 {
			t.Fatalf("settings: %d %v", st, body)
		}
		if st, body := e.JSON("POST", "/admin/settings", map[string]any{"exit_grace_minutes": 5000}); st != 400 {
			t.Errorf("grace 5000: %d %v", st, body)
		}
		st, _, body = gateEvent(t, a.URL, token, map[string]any{"plate": outPlate, "direction": "out"})
		if st != 200 || body["open"] != true {
			t.Errorf("out within a 60-minute grace: %d %v", st, body)
		}

		// The list.
		st, body = e.JSON("GET", "/admin/gate", nil)
		events := body["events"].([]any)
		if st != 200 || len(events) != 8 {
			t.Fatalf("events: %d %v", st, body)
		}
		newest := events[0].(map[string]any)
		if newest["plate"] != outPlate || newest["direction"] != "out" || newest["open"] != true ||
			newest["id_reservation"] != float64(started) || newest["at"] != localtime.JSON(apptest.Now(a), loc) {
			t.Errorf("newest event: %v", newest)
		}
		if page := e.Page("/admin/gate"); page.StatusCode != 200 || !strings.Contains(page.Body, outPlate.(string)) {
			t.Errorf("events page: %d", page.StatusCode)
		}

		// Over 120 events in a minute: 429 with Retry-After, nothing kept.
		// With the 2 events of this minute: 120.
		for i := 0; i < 118; i++ {
			e.Exec(`INSERT INTO gate_event (id_device, plate, direction, at, open, received_at) VALUES ($1, 'X1', 'in', $2, false, $2)`,
				devID, store.Time(apptest.Now(a).Add(-30*time.Second)))
		}
		st, hdr, body := gateEvent(t, a.URL, token, map[string]any{"plate": "1234BCD", "direction": "in"})
		if st != 429 || body["success"] != false || hdr.Get("Retry-After") != "30" {
			t.Errorf("121st event: %d %v Retry-After %q", st, body, hdr.Get("Retry-After"))
		}

		// The sweep keeps 90 days.
		e.Exec(`UPDATE gate_event SET received_at = $1 WHERE plate = 'X1'`, store.Time(apptest.Now(a).Add(-91*24*time.Hour)))
		if n, err := a.Gate.SweepEvents(t.Context()); err != nil || n != 118 {
			t.Errorf("sweep: %d %v", n, err)
		}
		if n := webtest.Count(t, a, "gate_event"); n != 8 {
			t.Errorf("after the sweep %d events", n)
		}

		// Removed: the token stops working; removing again is 404.
		if st, _, text := e.Send("DELETE", fmt.Sprintf("/admin/devices/%d", devID), "", ""); st != 204 || text != "" {
			t.Fatalf("delete: %d %q", st, text)
		}
		if st, _, body := gateEvent(t, a.URL, token, map[string]any{"plate": "1234BCD", "direction": "in"}); st != 401 {
			t.Errorf("removed camera: %d %v", st, body)
		}
		if st, body := e.JSON("DELETE", fmt.Sprintf("/admin/devices/%d", devID), nil); st != 404 || body["success"] != false {
			t.Errorf("delete again: %d %v", st, body)
		}
	})
}

// TestGateDevicesPage: the page registers a camera and shows its token once, in
// every language; its delete form sends the browser back.
func TestGateDevicesPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		r := e.BrowserPost("/admin/devices", map[string][]string{"name": {"Salida sur"}})
		if r.StatusCode != 201 || !strings.Contains(r.Body, "Salida sur") || !strings.Contains(r.Body, "data-device-token") {
			t.Fatalf("register on the page: %d", r.StatusCode)
		}
		webtest.CheckPage(t, r)
		for _, lang := range []string{"es", "en", "de", "fr"} {
			st, _, body := e.Send("GET", "/admin/devices", "", "", "Accept-Language", lang)
			if st != 200 || strings.Contains(body, "data-device-token") || !strings.Contains(body, "Salida sur") {
				t.Errorf("%s: %d, or the token is shown again", lang, st)
			}
		}
		var id int64
		if err := e.A.Store.DB().QueryRow(`SELECT id_device FROM gate_device`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		st, loc, _ := e.Form(fmt.Sprintf("/admin/devices/%d/delete", id), nil)
		if st != 303 || !strings.HasPrefix(loc, "/admin/devices?ok=") {
			t.Errorf("delete form: %d %s", st, loc)
		}
		if n := webtest.Count(t, e.A, "gate_device"); n != 0 {
			t.Errorf("%d devices left", n)
		}
	})
}
