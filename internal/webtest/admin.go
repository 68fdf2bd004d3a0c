package webtest

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

var Madrid, _ = time.LoadLocation("Europe/Madrid")

// AdminEnv is a running service with a logged-in administrator.
type AdminEnv struct {
	T *testing.T
	A *app.App
	C *http.Client
}

func NewAdminEnv(t *testing.T, d store.Dialect) *AdminEnv {
	t.Helper()
	return AdminEnvWith(t, apptest.Config(t, d))
}

func AdminEnvWith(t *testing.T, cfg app.Config) *AdminEnv {
	t.Helper()
	a := apptest.StartWith(t, cfg)
	c, _ := apptest.Admin(t, a)
	return &AdminEnv{T: t, A: a, C: c}
}

// Send makes a request with a raw body of the given content type ("" for none) and
// returns the status, the Location header and the body.
func (e *AdminEnv) Send(method, path, contentType, body string, header ...string) (int, string, string) {
	e.T.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.A.URL+path, r)
	if err != nil {
		e.T.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.C.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), strings.TrimSpace(string(b))
}

// JSON sends a JSON body (v marshalled, or a string taken as is) and decodes the answer.
func (e *AdminEnv) JSON(method, path string, v any) (int, map[string]any) {
	e.T.Helper()
	body := ""
	switch b := v.(type) {
	case nil:
	case string:
		body = b
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			e.T.Fatal(err)
		}
		body = string(raw)
	}
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	status, _, text := e.Send(method, path, ct, body, "Accept", "application/json")
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		e.T.Fatalf("%s %s: %d, body is not a JSON object: %q", method, path, status, text)
	}
	return status, out
}

// Form posts an urlencoded form as a browser would (no JSON Accept).
func (e *AdminEnv) Form(path string, values url.Values) (int, string, string) {
	e.T.Helper()
	return e.Send("POST", path, "application/x-www-form-urlencoded", values.Encode(), "Accept", "text/html")
}

// WalkIn creates a reservation through POST /admin/reservations/new and returns its id.
func (e *AdminEnv) WalkIn(fields map[string]any) int64 {
	e.T.Helper()
	status, body := e.JSON("POST", "/admin/reservations/new", fields)
	if status != http.StatusCreated {
		e.T.Fatalf("walk-in %v: %d %v", fields, status, body)
	}
	return int64(body["data"].(map[string]any)["id_reservation"].(float64))
}

// WalkInFields returns walk-in fields for a new customer and plate, with a spot, from
// entry for the given number of days.
func WalkInFields(n int, entry time.Time, days int, spot string) map[string]any {
	return map[string]any{
		"full_name": fmt.Sprintf("Cliente %d", n), "phone": fmt.Sprintf("6000000%02d", n),
		"license_plate": fmt.Sprintf("%04dBCD", n), "vehicle_type": "COCHE", "id_main_service": 1,
		"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, days).Format(time.RFC3339),
		"cod_parking_spot": spot,
	}
}

// AddPhotos adds n photos to reservation id.
func (e *AdminEnv) AddPhotos(id int64, n int) {
	e.T.Helper()
	for i := 0; i < n; i++ {
		status, body := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("https://fotos.example.com/%d-%d.jpg", id, i)})
		if status != http.StatusCreated {
			e.T.Fatalf("add photo: %d %v", status, body)
		}
	}
}

// StartedReservation walks in a reservation with a spot, adds 5 photos and starts it.
func (e *AdminEnv) StartedReservation(n int, spot string) int64 {
	e.T.Helper()
	id := e.WalkIn(WalkInFields(n, clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, Madrid)), 3, spot))
	e.AddPhotos(id, 5)
	if status, body := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); status != 200 {
		e.T.Fatalf("start: %d %v", status, body)
	}
	return id
}

// Stored reads a reservation from the database.
func (e *AdminEnv) Stored(id int64) reservation.Reservation {
	e.T.Helper()
	r, err := e.A.Store.Reservations().Reservation(context.Background(), id)
	if err != nil {
		e.T.Fatal(err)
	}
	return r
}

// Exec runs raw SQL on the write connection (to shape test data).
func (e *AdminEnv) Exec(query string, args ...any) {
	e.T.Helper()
	if _, err := e.A.Store.WriteDB().Exec(query, args...); err != nil {
		e.T.Fatalf("%s: %v", query, err)
	}
}

func WantMessage(t *testing.T, status int, body map[string]any, wantStatus int, wantMsg string) {
	t.Helper()
	if status != wantStatus || body["message"] != wantMsg || (wantStatus >= 400 && body["success"] != false) {
		t.Errorf("got %d %v\nwant %d {success:false message:%q}", status, body, wantStatus, wantMsg)
	}
}
