package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Check-in on a phone with the keys handed over (docs/entry-document.md): the
// clerk opens a walk-in's detail page, ticks "Llaves entregadas" in the start
// dialog and confirms; the page shows the keys and the moment of entry, and its
// link opens the justificante, which names the vehicle, the keys and the time,
// and offers the PDF. The stored reservation agrees, and the console stays clean.
func TestCheckInWithKeysOnPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	other, _ := apptest.Admin(t, a)
	adminCall(t, other, a, "PATCH", "/admin/settings", map[string]any{"name": "Parking Aeropuerto Barajas, S.L.",
		"tax_id": "B12345674", "address": "Avenida de la Hispanidad 1, 28042 Madrid"}, http.StatusOK)
	created := adminCall(t, other, a, "POST", "/admin/reservations/new", map[string]any{
		"phone": "622333444", "full_name": "Jorge Núñez", "license_plate": "7777XYZ", "brand": "Renault", "model": "Clio",
		"vehicle_type": "COCHE", "id_main_service": 1, "entry_date": localInput(a, 0, 0), "exit_date": localInput(a, 2, 12),
		"cod_parking_spot": "C-03",
	}, http.StatusCreated)
	id := int64(created["data"].(map[string]any)["id_reservation"].(float64))
	photos := photoServer(t)
	for i := 1; i <= reservation.MinPhotosToStart; i++ {
		adminCall(t, other, a, "POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("%s/car-%d.png", photos, i)}, http.StatusCreated)
	}

	ctx, console := phone(t)
	workerLogin(t, ctx, a, "ana@example.com", "admin-password")
	detail := fmt.Sprintf("/admin/reservations/details/%d", id)
	Do(t, ctx, "open the detail page", chromedp.Navigate(a.URL+detail), chromedp.WaitVisible(chromedp.CSS("[data-detail]")))
	waitStatus(t, ctx, "PENDIENTE")
	if pageJS[bool](t, ctx, `!!document.querySelector('[data-entry-document-link]')`) {
		t.Error("a PENDIENTE reservation links an entry document")
	}

	pageClick(t, ctx, `[data-action="start"]`)
	pageWaitJS(t, ctx, "the start dialog", `document.querySelector('dialog[data-dialog="start"]').open`)
	if got := pageText(t, ctx, `label[for="start-keys"]`); got != "Llaves entregadas" {
		t.Errorf("keys checkbox label = %q", got)
	}
	pageClick(t, ctx, `#start-keys`)
	pageWaitJS(t, ctx, "the keys ticked", `document.querySelector('#start-keys').checked`)
	Screenshot(t, ctx, "start-dialog-keys")
	pageClick(t, ctx, `dialog[data-dialog="start"] [data-dialog-confirm]`)
	waitStatus(t, ctx, "EN CURSO")
	pageWaitJS(t, ctx, "the keys on the page", pageVisible(`[data-fact="keys"]`))
	if got := pageText(t, ctx, `[data-fact="keys"]`); got != "Entregadas" {
		t.Errorf("keys shown = %q, want Entregadas", got)
	}
	r, err := a.Store.Reservations().Reservation(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !r.KeysHandedOver || r.CheckedInAt == nil || r.Status != reservation.InCourse {
		t.Fatalf("stored after the start: keys %v, checked in %v, %s", r.KeysHandedOver, r.CheckedInAt, r.Status)
	}
	when := r.CheckedInAt.In(a.Config.Location).Format("02/01/2006 15:04")
	if got := pageText(t, ctx, `[data-fact="checked-in"]`); got != when {
		t.Errorf("check-in shown = %q, want %q", got, when)
	}

	pageWaitJS(t, ctx, "the entry document link", pageVisible(`[data-entry-document-link]`))
	pageClick(t, ctx, `[data-entry-document-link]`)
	pageWaitJS(t, ctx, "the entry document", `location.pathname === '`+detail+`/justificante' && `+pageVisible("[data-entry-document]"))
	page := pageText(t, ctx, "[data-entry-document]")
	for _, want := range []string{"Justificante de entrada", "7777XYZ", "Renault Clio", "Sí, el cliente entrega las llaves", when, "C-03", "B12345674"} {
		if !strings.Contains(page, want) {
			t.Errorf("the entry document lacks %q:\n%s", want, page)
		}
	}
	if href := pageJS[string](t, ctx, `document.querySelector('[data-entry-document-pdf]').getAttribute('href')`); href != detail+"/justificante?format=pdf" {
		t.Errorf("PDF link = %q", href)
	}
	noWiderThan(t, ctx, "the entry document", Phone[0])
	Screenshot(t, ctx, "entry-document-phone")
	noConsoleErrors(t, console())
}
