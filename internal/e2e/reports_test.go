package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The reports page (docs/reports.md#page) in a real browser, on a phone and on the
// counter's desktop: the figures and the four charts drawn, each chart's table opened
// from its disclosure, nothing wider than a phone's screen, no axe violation, and the
// link in the staff's navigation.
func TestReportsOnPhoneAndDesktop(t *testing.T) {
	src := AxeSource(t)
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	staff, _ := apptest.Admin(t, a)
	walkIn := adminCall(t, staff, a, "POST", "/admin/reservations/new", map[string]any{
		"phone": "622333445", "full_name": "Jorge Núñez", "license_plate": "7778XYZ", "vehicle_type": "COCHE", "id_main_service": 1,
		"entry_date": localInput(a, 0, 0), "exit_date": localInput(a, 2, 12), "cod_parking_spot": "C-04",
	}, http.StatusCreated)
	id := int64(walkIn["data"].(map[string]any)["id_reservation"].(float64))
	photos := photoServer(t)
	for i := 1; i <= reservation.MinPhotosToStart; i++ {
		adminCall(t, staff, a, "POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("%s/car-%d.png", photos, i)}, http.StatusCreated)
	}
	adminCall(t, staff, a, "PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil, http.StatusOK)
	adminCall(t, staff, a, "PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": "TARJETA"}, http.StatusOK)

	for _, c := range []struct {
		name  string
		open  func(*testing.T) (context.Context, func() []string)
		width int64
	}{{"phone", phone, Phone[0]}, {"desktop", desktop, Desktop[0]}} {
		t.Run(c.name, func(t *testing.T) {
			ctx, console := c.open(t)
			workerLogin(t, ctx, a, "ana@example.com", "admin-password")
			if n := pageJS[int](t, ctx, `document.querySelectorAll('a[href="/admin/reports"]').length`); n < 1 {
				t.Errorf("no link to the reports in the navigation")
			}
			Do(t, ctx, "open the reports", chromedp.Navigate(a.URL+"/admin/reports"))
			pageWaitJS(t, ctx, "the charts", pageVisible(`[data-chart="revenue-day"] svg`))
			if n := pageJS[int](t, ctx, `document.querySelectorAll('figure[data-chart] svg[role=img]').length`); n != 4 {
				t.Errorf("%d charts, want 4", n)
			}
			if n := pageJS[int](t, ctx, `document.querySelectorAll('[data-chart="revenue-channel"] rect').length`); n != 1 {
				t.Errorf("%d channel bars, want 1 (the counter)", n)
			}
			if got := pageText(t, ctx, `[data-figure="receipts"]`); got != "1" {
				t.Errorf("receipts figure %q, want 1", got)
			}
			if !pageJS[bool](t, ctx, `(function(){var d=document.querySelector('[data-chart-table="revenue-channel"]').closest('details');
				d.querySelector('summary').click(); return d.open;})()`) {
				t.Errorf("the channel table did not open")
			}
			if got := pageText(t, ctx, `[data-chart-table="revenue-channel"] tbody th`); got != "Mostrador" {
				t.Errorf("channel row %q, want Mostrador", got)
			}
			noWiderThan(t, ctx, "the reports", c.width)
			for _, v := range Axe(t, ctx, src) {
				t.Errorf("axe on the reports (%s): %s", c.name, v)
			}
			Screenshot(t, ctx, "reports-"+c.name)
			noConsoleErrors(t, console())
		})
	}
}
