package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// keyTo presses Tab (Shift+Tab when back) until the focused element matches sel,
// at most 60 times, and checks the focus is visible there: :focus-visible with an
// outline at least 3 px thick (docs/languages.md#accessibility).
func keyTo(t *testing.T, ctx context.Context, sel string, back bool) {
	t.Helper()
	var opts []chromedp.KeyOption
	if back {
		opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
	}
	match := fmt.Sprintf(`(function(){var e=document.activeElement; return !!e && e.matches(%s);})()`, jsString(sel))
	for i := 0; i < 60; i++ {
		if pageJS[bool](t, ctx, match) {
			visible := pageJS[string](t, ctx, `(function(){var e=document.activeElement, s=getComputedStyle(e);
				return e.matches(':focus-visible') && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 3 ? 'ok' : (e.matches(':focus-visible') + ' ' + s.outlineStyle + ' ' + s.outlineWidth);})()`)
			if visible != "ok" {
				t.Errorf("focus on %s is not visible: %s", sel, visible)
			}
			return
		}
		Do(t, ctx, "Tab towards "+sel, chromedp.KeyEvent(kb.Tab, opts...))
	}
	Screenshot(t, ctx, "keyboard-"+sel)
	t.Fatalf("Tab never reached %s (focus on %s)", sel, pageJS[string](t, ctx, `document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : ''`))
}

// keys types text into the focused element, key by key.
func keys(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	Do(t, ctx, "type "+text, chromedp.KeyEvent(text))
}

// The whole booking flow with the keyboard alone: Tab to each control, the arrow
// keys for the service and the vehicle type, Space for the checkboxes, Enter to
// go on; the booking is made, and the focus is visible at every stop.
func TestBookingFlowByKeyboard(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	ctx := Browser(t, Desktop)
	console := watchConsole(ctx)
	entry, exit := localInput(a, 6, 9), localInput(a, 9, 9)
	Do(t, ctx, "open the booking link", chromedp.Navigate(a.URL+"/booking?entrada="+entry+"&salida="+exit), chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))

	keyTo(t, ctx, `input[name="id_main_service"]`, false)
	Do(t, ctx, "the arrow to the next service", chromedp.KeyEvent(kb.ArrowDown))
	pageWaitJS(t, ctx, "a service chosen by keyboard", `!!document.querySelector('input[name="id_main_service"]:checked')`)
	keyTo(t, ctx, `input[name="additional_services"]`, false)
	keys(t, ctx, " ")
	pageWaitJS(t, ctx, "an extra ticked", `!!document.querySelector('input[name="additional_services"]:checked')`)
	keyTo(t, ctx, "[data-next]", false)
	Do(t, ctx, "Enter: step 2", chromedp.KeyEvent(kb.Enter))
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))

	keyTo(t, ctx, "#full_name", false)
	keys(t, ctx, "Lucia Perez")
	keyTo(t, ctx, "#phone", false)
	keys(t, ctx, "612 345 678")
	keyTo(t, ctx, "#license_plate", false)
	keys(t, ctx, "4321JKL")
	keyTo(t, ctx, "#vehicle_type", false)
	Do(t, ctx, "the arrow to a vehicle type", chromedp.KeyEvent(kb.ArrowDown))
	pageWaitJS(t, ctx, "a vehicle type chosen", `document.querySelector('#vehicle_type').value !== ''`)
	keyTo(t, ctx, "[data-next]", false)
	Do(t, ctx, "Enter: step 3", chromedp.KeyEvent(kb.Enter))
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))

	keyTo(t, ctx, "#privacy_ack", false)
	keys(t, ctx, " ")
	pageWaitJS(t, ctx, "the privacy acknowledgement ticked", `document.querySelector('#privacy_ack').checked`)
	keyTo(t, ctx, "[data-next]", false)
	Do(t, ctx, "Enter: confirm", chromedp.KeyEvent(kb.Enter))
	pageWaitJS(t, ctx, "the confirmation", pageVisible(`[data-step="done"]`)+` && document.querySelector('[data-done="reference"]').textContent !== ''`)
	if n := apptestCount(t, a, `SELECT COUNT(*) FROM reservation r JOIN vehicle v ON v.id_vehicle = r.id_vehicle WHERE v.license_plate = '4321JKL'`); n != 1 {
		t.Errorf("reservations booked by keyboard: %d, want 1", n)
	}
	noConsoleErrors(t, console())
}

// The staff's check-in with the keyboard alone: Tab to "Iniciar" on the detail
// page, Enter opens the start dialog, Shift+Tab to the keys checkbox, Space ticks
// it, Tab to the confirmation, Enter starts the stay.
func TestCheckInByKeyboard(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	staff := apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	other, _ := apptest.Admin(t, a)
	created := adminCall(t, other, a, "POST", "/admin/reservations/new", map[string]any{
		"phone": "622333444", "full_name": "Jorge Nunez", "license_plate": "7777XYZ", "brand": "Renault", "model": "Clio",
		"vehicle_type": "COCHE", "id_main_service": 1, "entry_date": localInput(a, 0, 0), "exit_date": localInput(a, 2, 12),
		"cod_parking_spot": "C-03",
	}, http.StatusCreated)
	id := int64(created["data"].(map[string]any)["id_reservation"].(float64))
	photos := photoServer(t)
	for i := 1; i <= reservation.MinPhotosToStart; i++ {
		adminCall(t, other, a, "POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("%s/car-%d.png", photos, i)}, http.StatusCreated)
	}
	ctx := Browser(t, Desktop)
	console := watchConsole(ctx)
	session(t, ctx, a, staff.ID)
	Do(t, ctx, "open the detail page", chromedp.Navigate(fmt.Sprintf("%s/admin/reservations/details/%d", a.URL, id)), chromedp.WaitVisible(chromedp.CSS("[data-detail]")))
	waitStatus(t, ctx, "PENDIENTE")

	keyTo(t, ctx, `[data-action="start"]`, false)
	Do(t, ctx, "Enter: the start dialog", chromedp.KeyEvent(kb.Enter))
	pageWaitJS(t, ctx, "the start dialog", `document.querySelector('dialog[data-dialog="start"]').open`)
	keyTo(t, ctx, "#start-keys", true)
	keys(t, ctx, " ")
	pageWaitJS(t, ctx, "the keys ticked", `document.querySelector('#start-keys').checked`)
	keyTo(t, ctx, `dialog[data-dialog="start"] [data-dialog-confirm]`, false)
	Do(t, ctx, "Enter: start", chromedp.KeyEvent(kb.Enter))
	waitStatus(t, ctx, "EN CURSO")
	r, err := a.Store.Reservations().Reservation(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !r.KeysHandedOver || r.Status != reservation.InCourse {
		t.Errorf("stored after the keyboard start: keys %v, %s", r.KeysHandedOver, r.Status)
	}
	noConsoleErrors(t, console())
}

// apptestCount counts rows in the service's database.
func apptestCount(t *testing.T, a *app.App, q string) int {
	t.Helper()
	var n int
	if err := a.Store.DB().QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
