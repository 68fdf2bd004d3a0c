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
	"parking/internal/webtest"
)

// A small facility, filled: on a phone, the booking page says at the date step that
// a day is full, before any personal data is typed, and will not go on; a nearly
// full stay is announced ("Quedan pocas plazas") at the date step and in the quote;
// and a place taken by someone else while the customer confirms is refused with the
// full day named, back at the date step.
func TestBookingPageRefusesAFullDayOnPhone(t *testing.T) {
	cfg := apptest.Config(t, store.SQLite)
	cfg.Capacity = 11 // seeds the facility settings: 11 places, all sold online
	a := apptest.StartWith(t, cfg)
	book := func(n, from, to int) {
		postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": fmt.Sprintf("Cliente %d", n), "phone": fmt.Sprintf("6%08d", 30000000+n), "license_plate": fmt.Sprintf("%04dKKK", n),
			"vehicle_type": "TURISMO", "entry_date": localInput(a, from, 10), "exit_date": localInput(a, to, 18), "id_main_service": 1,
		}, http.StatusCreated)
	}
	for n := range 11 { // day +10 full
		book(n, 10, 10)
	}
	for n := range 10 { // day +20: one place left of 11 (under 10 % free)
		book(100+n, 20, 20)
	}
	fullDay := localInput(a, 10, 10)[:10]
	fullES := fullDay[8:10] + "/" + fullDay[5:7] + "/" + fullDay[0:4]

	ctx, console := phone(t)
	Do(t, ctx, "open the booking page with a full day",
		chromedp.Navigate(a.URL+"/booking?entrada="+localInput(a, 9, 10)+"&salida="+localInput(a, 10, 18)),
		chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
	pageWaitJS(t, ctx, "the full-day warning", pageVisible("[data-availability]"))
	if got := pageText(t, ctx, "[data-availability]"); got != "No quedan plazas libres el día "+fullES+". Elija otras fechas." {
		t.Errorf("warning = %q", got)
	}
	if !pageJS[bool](t, ctx, `document.querySelector('[data-next]').disabled`) {
		t.Error("the button to go on is enabled for a full stay")
	}
	pageClick(t, ctx, `input[name="id_main_service"][value="1"]`)
	pageWaitJS(t, ctx, "the quote says the stay is full", `!!document.querySelector('[data-price-availability="full"]')`)
	// Even a submit by other means stays on the date step.
	pageJS[bool](t, ctx, `(document.querySelector('[data-booking-form]').requestSubmit(), true)`)
	if pageJS[string](t, ctx, "location.hash") != "" || !pageJS[bool](t, ctx, `!document.querySelector('[data-step="2"]').checkVisibility()`) {
		t.Fatal("a full stay moved on to the personal data")
	}
	Screenshot(t, ctx, "booking-full-day")

	// Other dates: one place left, announced at the date step and in the quote.
	pageSet(t, ctx, "#entry_date", localInput(a, 20, 10))
	pageSet(t, ctx, "#exit_date", localInput(a, 20, 18))
	pageWaitJS(t, ctx, "the nearly-full warning", `document.querySelector('[data-booking]').getAttribute('data-availability-status') === 'few'`)
	if got := pageText(t, ctx, "[data-availability]"); !strings.Contains(got, "Quedan pocas plazas") {
		t.Errorf("warning = %q", got)
	}
	pageWaitJS(t, ctx, "the quote says few places", `!!document.querySelector('[data-price-availability="few"]')`)
	if note := pageText(t, ctx, "[data-price-note]"); !strings.Contains(note, "Quedan pocas plazas") {
		t.Errorf("price note = %q", note)
	}
	if pageJS[bool](t, ctx, `document.querySelector('[data-next]').disabled`) {
		t.Fatal("the button is disabled for a stay with a place left")
	}
	Screenshot(t, ctx, "booking-few-places")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))
	pageSet(t, ctx, "#full_name", "Lucía Pérez")
	pageSet(t, ctx, "#phone", "612 345 600")
	pageSet(t, ctx, "#license_plate", "4321JJJ")
	pageSet(t, ctx, "#vehicle_type", "TURISMO")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))

	// Someone else takes the last place meanwhile: the confirmation is refused, the
	// page goes back to the dates with the full day named, and cannot go on.
	book(200, 20, 20)
	day20 := localInput(a, 20, 10)[:10]
	pageClick(t, ctx, "#privacy_ack") // the privacy notice read (docs/privacy.md#consents)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "back at the dates with the refusal", pageVisible(`[data-step="1"]`)+" && "+pageVisible("#dates-error"))
	if got := pageText(t, ctx, "#dates-error"); !strings.Contains(got, "No quedan plazas libres el día "+day20[8:10]+"/"+day20[5:7]+"/"+day20[0:4]) {
		t.Errorf("refusal = %q", got)
	}
	pageWaitJS(t, ctx, "the button disabled", `document.querySelector('[data-next]').disabled`)
	Screenshot(t, ctx, "booking-refused-full")
	if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM vehicle WHERE license_plate = '4321JJJ'`); n != 0 {
		t.Errorf("%d reservations for the refused booking", n)
	}
	noConsoleErrors(t, console(), "409")
}

// The dashboard's occupancy chart in a real browser: 15 bars, the two full days
// marked, the chart named for assistive technology, and on a phone the parking
// board's chart does not make the page scroll sideways.
func TestOccupancyChartInTheBrowser(t *testing.T) {
	cfg := apptest.Config(t, store.SQLite)
	cfg.Capacity = 2
	a := apptest.StartWith(t, cfg)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	for n := range 2 {
		postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": fmt.Sprintf("Cliente %d", n), "phone": fmt.Sprintf("6%08d", 40000000+n), "license_plate": fmt.Sprintf("%04dLLL", n),
			"vehicle_type": "TURISMO", "entry_date": localInput(a, 3, 10), "exit_date": localInput(a, 4, 18), "id_main_service": 1,
		}, http.StatusCreated)
	}
	ctx, console := desktop(t)
	workerLogin(t, ctx, a, "ana@example.com", "admin-password")
	pageWaitJS(t, ctx, "the chart", pageVisible(`[data-occupancy-chart] svg`))
	if n := pageJS[int](t, ctx, `document.querySelectorAll('[data-occupancy-chart] rect').length`); n != 15 {
		t.Errorf("%d bars, want 15", n)
	}
	if n := pageJS[int](t, ctx, `document.querySelectorAll('[data-occupancy-chart] [data-full]').length`); n != 2 {
		t.Errorf("%d full days marked, want 2", n)
	}
	label := pageJS[string](t, ctx, `(function(){var s=document.querySelector('[data-occupancy-chart] svg');
		return s.getAttribute('aria-labelledby').split(' ').map(function(id){return document.getElementById(id).textContent;}).join(' ');})()`)
	if !strings.Contains(label, "Ocupación de hoy y los próximos 14 días") || !strings.Contains(label, "Días completos: "+localInput(a, 3, 0)[8:10]+"/") {
		t.Errorf("the chart's accessible name and description = %q", label)
	}
	Screenshot(t, ctx, "dashboard-occupancy")
	noConsoleErrors(t, console())

	pctx, _ := phone(t)
	workerLogin(t, pctx, a, "ana@example.com", "admin-password")
	Do(t, pctx, "the parking board", chromedp.Navigate(a.URL+"/admin/parking"), chromedp.WaitVisible(chromedp.CSS(`[data-occupancy-chart] svg`)))
	noWiderThan(t, pctx, "the parking board with its chart", Phone[0])
	Screenshot(t, pctx, "parking-occupancy-phone")
}
