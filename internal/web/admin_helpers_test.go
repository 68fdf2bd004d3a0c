package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"parking/internal/clock/clocktest"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

var madrid, _ = time.LoadLocation("Europe/Madrid")

// adminEnv is a running service with a logged-in administrator.
type adminEnv struct {
	t *testing.T
	a *app.App
	c *http.Client
}

func newAdminEnv(t *testing.T, d store.Dialect) *adminEnv {
	t.Helper()
	return adminEnvWith(t, apptest.Config(t, d))
}

func adminEnvWith(t *testing.T, cfg app.Config) *adminEnv {
	t.Helper()
	a := apptest.StartWith(t, cfg)
	c, _ := apptest.Admin(t, a)
	return &adminEnv{t: t, a: a, c: c}
}

// send makes a request with a raw body of the given content type ("" for none) and
// returns the status, the Location header and the body.
func (e *adminEnv) send(method, path, contentType, body string, header ...string) (int, string, string) {
	e.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.a.URL+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), strings.TrimSpace(string(b))
}

// json sends a JSON body (v marshalled, or a string taken as is) and decodes the answer.
func (e *adminEnv) json(method, path string, v any) (int, map[string]any) {
	e.t.Helper()
	body := ""
	switch b := v.(type) {
	case nil:
	case string:
		body = b
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			e.t.Fatal(err)
		}
		body = string(raw)
	}
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	status, _, text := e.send(method, path, ct, body, "Accept", "application/json")
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		e.t.Fatalf("%s %s: %d, body is not a JSON object: %q", method, path, status, text)
	}
	return status, out
}

// form posts an urlencoded form as a browser would (no JSON Accept).
func (e *adminEnv) form(path string, values url.Values) (int, string, string) {
	e.t.Helper()
	return e.send("POST", path, "application/x-www-form-urlencoded", values.Encode(), "Accept", "text/html")
}

// walkIn creates a reservation through POST /admin/reservations/new and returns its id.
func (e *adminEnv) walkIn(fields map[string]any) int64 {
	e.t.Helper()
	status, body := e.json("POST", "/admin/reservations/new", fields)
	if status != http.StatusCreated {
		e.t.Fatalf("walk-in %v: %d %v", fields, status, body)
	}
	return int64(body["data"].(map[string]any)["id_reservation"].(float64))
}

// walkInFields returns walk-in fields for a new customer and plate, with a spot, from
// entry for the given number of days.
func walkInFields(n int, entry time.Time, days int, spot string) map[string]any {
	return map[string]any{
		"full_name": fmt.Sprintf("Cliente %d", n), "phone": fmt.Sprintf("6000000%02d", n),
		"license_plate": fmt.Sprintf("%04dBCD", n), "vehicle_type": "COCHE", "id_main_service": 1,
		"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, days).Format(time.RFC3339),
		"cod_parking_spot": spot,
	}
}

// addPhotos adds n photos to reservation id.
func (e *adminEnv) addPhotos(id int64, n int) {
	e.t.Helper()
	for i := 0; i < n; i++ {
		status, body := e.json("POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("https://fotos.example.com/%d-%d.jpg", id, i)})
		if status != http.StatusCreated {
			e.t.Fatalf("add photo: %d %v", status, body)
		}
	}
}

// startedReservation walks in a reservation with a spot, adds 5 photos and starts it.
func (e *adminEnv) startedReservation(n int, spot string) int64 {
	e.t.Helper()
	id := e.walkIn(walkInFields(n, clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, madrid)), 3, spot))
	e.addPhotos(id, 5)
	if status, body := e.json("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); status != 200 {
		e.t.Fatalf("start: %d %v", status, body)
	}
	return id
}

// stored reads a reservation from the database.
func (e *adminEnv) stored(id int64) reservation.Reservation {
	e.t.Helper()
	r, err := e.a.Store.Reservation(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// exec runs raw SQL on the write connection (to shape test data).
func (e *adminEnv) exec(query string, args ...any) {
	e.t.Helper()
	if _, err := e.a.Store.WriteDB().Exec(query, args...); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
}

func wantMessage(t *testing.T, status int, body map[string]any, wantStatus int, wantMsg string) {
	t.Helper()
	if status != wantStatus || body["message"] != wantMsg || (wantStatus >= 400 && body["success"] != false) {
		t.Errorf("got %d %v\nwant %d {success:false message:%q}", status, body, wantStatus, wantMsg)
	}
}
