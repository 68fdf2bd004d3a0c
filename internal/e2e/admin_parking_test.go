package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The parking board updating live: a clerk has /admin/parking open (logged in
// through the login page) when another client — a second administrator session
// over plain HTTP — walks in a reservation with a spot for today, adds its 5
// photos and starts it. The board shows the spot reserved, then occupied, with
// the counts, without reloading the page (a marker set in the page survives).
// When the server ends the stream (as at shutdown), the page shows that it is
// reconnecting, still without reloading.
func TestParkingBoardLive(t *testing.T) {
	cfg := apptest.Config(t, store.SQLite)
	cfg.Capacity = 40
	a := apptest.StartWith(t, cfg)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	other, _ := apptest.Admin(t, a)

	ctx, console := desktop(t)
	workerLogin(t, ctx, a, "ana@example.com", "admin-password")
	pageClick(t, ctx, `.site-nav a[href="/admin/parking"]`)
	pageWaitJS(t, ctx, "the board connected", `location.pathname === '/admin/parking' && document.querySelector('[data-live]').getAttribute('data-live') === 'open'`)
	if got := pageText(t, ctx, `[data-count="free"]`); got != "40" {
		t.Errorf("free places on an empty board = %q, want 40", got)
	}
	if !pageJS[bool](t, ctx, `!document.querySelector('[data-spots-empty]').hidden`) {
		t.Error("an empty board must say so")
	}
	Screenshot(t, ctx, "parking-empty")
	pageJS[bool](t, ctx, `window.boardMarker = true`)

	// Another client: a walk-in for today on spot C-03 (reserved), then photos and start (occupied).
	entry, exit := localInput(a, 0, 0), localInput(a, 2, 12)
	created := adminCall(t, other, a, "POST", "/admin/reservations/new", map[string]any{
		"phone": "622333444", "full_name": "Jorge Núñez", "license_plate": "7777XYZ", "brand": "Renault", "model": "Clio",
		"vehicle_type": "COCHE", "id_main_service": 1, "entry_date": entry, "exit_date": exit, "cod_parking_spot": "C-03",
	}, http.StatusCreated)
	id := int64(created["data"].(map[string]any)["id_reservation"].(float64))
	spot := `[data-spot="C-03"]`
	pageWaitJS(t, ctx, "the spot reserved, live", pageVisible(spot)+` && document.querySelector('`+spot+`').getAttribute('data-status') === 'reserved'`)
	for i := 1; i <= reservation.MinPhotosToStart; i++ {
		adminCall(t, other, a, "POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("https://fotos.example.com/%d-%d.jpg", id, i)}, http.StatusCreated)
	}
	adminCall(t, other, a, "PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil, http.StatusOK)
	pageWaitJS(t, ctx, "the spot occupied, live", `document.querySelector('`+spot+`').getAttribute('data-status') === 'occupied'`)
	if !pageJS[bool](t, ctx, `window.boardMarker === true`) {
		t.Fatal("the page was reloaded: the board must update in place")
	}
	pageWaitJS(t, ctx, "the counts", `document.querySelector('[data-count="occupied"]').textContent === '1' && document.querySelector('[data-count="free"]').textContent === '39'`)
	if got := pageText(t, ctx, spot); !strings.Contains(got, "7777XYZ") || !strings.Contains(got, "Jorge Núñez") || !strings.Contains(got, "Ocupada") {
		t.Errorf("occupied spot shows %q", got)
	}
	if href := pageJS[string](t, ctx, `document.querySelector('`+spot+` .spot-link').getAttribute('href')`); href != fmt.Sprintf("/admin/reservations/details/%d", id) {
		t.Errorf("spot links to %q", href)
	}
	Screenshot(t, ctx, "parking-live")

	// The server ends every stream (shutdown): the page shows the lost connection.
	pageJS[bool](t, ctx, `(window.boardMarker = 'before-reconnect', true)`)
	a.Booking.ParkingFeed().Close()
	pageWaitJS(t, ctx, "the lost connection shown", `document.querySelector('[data-live]').getAttribute('data-live') !== 'open'`)
	noConsoleErrors(t, console(), "/admin/parking/events")
	if !pageJS[bool](t, ctx, `window.boardMarker === 'before-reconnect'`) {
		t.Error("the page reloaded when the stream ended")
	}
}

// adminCall sends a JSON request with an administrator's session client and fails
// unless the answer has status want.
func adminCall(t *testing.T, c *http.Client, a *app.App, method, path string, body any, want int) map[string]any {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, a.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %v, want %d", method, path, res.StatusCode, out, want)
	}
	return out
}
