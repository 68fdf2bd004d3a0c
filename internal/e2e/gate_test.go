package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/webtest"
)

// TestGateCameraEvents: staff register a camera on its page and copy the key shown
// once; the camera's "in" marks the booking arrived on the live parking board
// without a reload; "out" stays closed before payment and opens after it; the
// events list shows the three; on a phone the staff's links fold into the menu and
// the search box opens the booking by its plate typed in another form.
func TestGateCameraEvents(t *testing.T) {
	e := webtest.NewAdminEnv(t, store.SQLite)
	a := e.A
	now := apptest.Now(a)
	pending := e.WalkIn(webtest.WalkInFields(1, now.Add(2*time.Hour), 2, "B-1"))
	started := e.StartedReservation(2, "A-1")
	ctx, console := desktop(t)
	workerLogin(t, ctx, a, "admin@example.com", "admin-password")
	src := AxeSource(t)

	Do(t, ctx, "the devices page", chromedp.Navigate(a.URL+"/admin/devices"), chromedp.WaitVisible(chromedp.CSS("#device-name")))
	pageSet(t, ctx, "#device-name", "Barrera norte")
	Do(t, ctx, "register", chromedp.Submit(chromedp.CSS("#device-name")))
	pageWaitJS(t, ctx, "the key", pageVisible("[data-device-token]"))
	token := strings.TrimSpace(pageText(t, ctx, "[data-device-token] code"))
	for _, v := range Axe(t, ctx, src) {
		t.Errorf("devices page: %s", v)
	}

	gate := func(plate, direction string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest("POST", a.URL+"/api/gate/events",
			strings.NewReader(fmt.Sprintf(`{"plate":%q,"direction":%q}`, plate, direction)))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 {
			t.Fatalf("gate %s %s: %d %v", plate, direction, res.StatusCode, err)
		}
		return out
	}

	Do(t, ctx, "the parking board", chromedp.Navigate(a.URL+"/admin/parking"))
	pageWaitJS(t, ctx, "the booked spot", `!!document.querySelector('[data-spot="B-1"]')`)
	pageWaitJS(t, ctx, "the live feed", `document.readyState === 'complete'`)
	if out := gate("0001 bcd", "in"); out["open"] != true {
		t.Fatalf("in: %v", out)
	}
	pageWaitJS(t, ctx, "the arrival on the live board", `!!document.querySelector('[data-spot="B-1"][data-arrived]')`)
	if e.Stored(pending).CheckedInAt != nil {
		t.Error("the arrival started the stay")
	}
	if out := gate("0002-BCD", "out"); out["open"] != false || !strings.Contains(fmt.Sprint(out["message"]), "no está pagada") {
		t.Errorf("out before payment: %v", out)
	}
	if st, body := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", started), map[string]any{"paymentMethod": "EFECTIVO"}); st != 200 {
		t.Fatalf("finalize: %d %v", st, body)
	}
	if out := gate("0002BCD", "out"); out["open"] != true {
		t.Errorf("out after payment: %v", out)
	}

	Do(t, ctx, "the events", chromedp.Navigate(a.URL+"/admin/gate"), chromedp.WaitVisible(chromedp.CSS("[data-gate-event]")))
	if n := pageJS[int](t, ctx, `document.querySelectorAll('[data-gate-event]').length`); n != 3 {
		t.Errorf("%d events listed, want 3", n)
	}
	for _, v := range Axe(t, ctx, src) {
		t.Errorf("events page: %s", v)
	}

	// On a phone: one menu button instead of rows of links; the search box finds
	// the booking by its plate typed with a space.
	Do(t, ctx, "phone viewport", chromedp.EmulateViewport(Phone[0], Phone[1], chromedp.EmulateMobile),
		chromedp.Navigate(a.URL+"/admin/gate"), chromedp.WaitVisible(chromedp.CSS(".nav-menu > summary")))
	Screenshot(t, ctx, "gate-phone")
	// The links were three rows (255 px with the rest of the header); now the menu
	// button shares one row with the search box.
	if h := pageJS[float64](t, ctx, `document.querySelector('.site-nav').getBoundingClientRect().height`); h > 60 {
		t.Errorf("the navigation is %.0f px tall on a phone", h)
	}
	if h := pageJS[float64](t, ctx, `document.querySelector('.site-header').getBoundingClientRect().height`); h >= 255 {
		t.Errorf("the header is %.0f px tall on a phone", h)
	}
	if pageJS[bool](t, ctx, `document.querySelector('.nav-menu a[href="/admin/history"]').checkVisibility()`) {
		t.Error("the menu's links show before it is opened")
	}
	pageClick(t, ctx, ".nav-menu > summary")
	pageWaitJS(t, ctx, "the menu open", `document.querySelector('.nav-menu').open && document.querySelector('.nav-menu a[href="/admin/history"]').checkVisibility()`)
	if h := pageJS[float64](t, ctx, `document.querySelector('.nav-menu a[href="/admin/history"]').getBoundingClientRect().height`); h < 44 {
		t.Errorf("a menu link is %.0f px tall", h)
	}
	for _, v := range Axe(t, ctx, src) {
		t.Errorf("phone menu: %s", v)
	}
	pageSet(t, ctx, "#staff-find-q", "0001 BCD")
	Do(t, ctx, "find", chromedp.Submit(chromedp.CSS("#staff-find-q")))
	pageWaitJS(t, ctx, "the booking found", fmt.Sprintf(`location.pathname === '/admin/reservations/details/%d'`, pending))
	noWiderThan(t, ctx, "detail", Phone[0])
	noConsoleErrors(t, console())
}
