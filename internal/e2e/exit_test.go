package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/catalog"
	"parking/internal/money"
	"parking/internal/store"
	"parking/internal/webtest"
)

// A late car checked out on a phone (docs/exit.md): the clerk opens the finalize
// dialog and sees what is due now — the real stay, the booked price and the excess
// — chooses cash and confirms. When the amount changes between the dialog and the
// confirmation (here today's rate goes up), the finalize is refused, the dialog
// shows the new amount, and the next confirmation charges it. The receipt shows the
// booked stay and the excess.
func TestLateCheckOutOnPhone(t *testing.T) {
	cfg, clk := apptest.ConfigClock(t, store.SQLite)
	e := webtest.AdminEnvWith(t, cfg)
	// ECO, COCHE, 3 days (12 €/day): 36 €; collected 3 days and 3 hours late:
	// 7 days at 8 € = 56 €, 20 € over the booked price.
	id := e.StartedReservation(1, "A-1")
	clk.Set(e.Stored(id).Exit.Add(3*24*time.Hour + 3*time.Hour))

	ctx, console := phone(t)
	workerLogin(t, ctx, e.A, "admin@example.com", "admin-password")
	Do(t, ctx, "open the detail page", chromedp.Navigate(fmt.Sprintf("%s/admin/reservations/details/%d", e.A.URL, id)),
		chromedp.WaitVisible(chromedp.CSS("[data-detail]")))
	if got := pageText(t, ctx, "[data-detail-due]"); !strings.Contains(got, "56,00 €") || !strings.Contains(got, "exceso 20,00 €") {
		t.Errorf("amount due on the page = %q", got)
	}

	dlg := `dialog[data-dialog="finalize"]`
	pageClick(t, ctx, `[data-action="finalize"]`)
	pageWaitJS(t, ctx, "the finalize dialog with the preview", `document.querySelector('`+dlg+`').open && document.querySelector('`+dlg+`').hasAttribute('data-checkout-ready')`)
	for sel, want := range map[string]string{
		dlg + " [data-dialog-total]": "56,00 €", dlg + " [data-checkout-booked]": "36,00 €", dlg + " [data-checkout-excess]": "20,00 €",
	} {
		if got := pageText(t, ctx, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	if !pageJS[bool](t, ctx, pageVisible(dlg+" [data-checkout-excess-row]")+" && "+pageVisible(dlg+" [data-checkout-overdue]")) {
		t.Error("the excess line and the overdue note must show")
	}
	noWiderThan(t, ctx, "the finalize dialog", Phone[0])
	Screenshot(t, ctx, "phone-late-checkout")

	// Today's rate goes up while the dialog is open: 7 days at 9 € = 63 €.
	nine := money.Cents(900)
	if _, err := e.A.CatalogOps.UpdateRate(context.Background(), 2, catalog.RateInput{DailyPrice: &nine}); err != nil {
		t.Fatal(err)
	}
	pageClick(t, ctx, dlg+` input[value="EFECTIVO"]`)
	pageClick(t, ctx, dlg+" [data-dialog-confirm]")
	pageWaitJS(t, ctx, "the refusal and the new amount", pageVisible(dlg+" [data-dialog-error]")+
		` && document.querySelector('`+dlg+` [data-dialog-total]').textContent === '63,00 €'`)
	if got := pageText(t, ctx, dlg+" [data-dialog-error]"); !strings.Contains(got, "63,00 €") {
		t.Errorf("refusal = %q", got)
	}
	if r := e.Stored(id); r.Status != "EN CURSO" || r.IsPaid {
		t.Fatalf("the refused finalize changed the reservation: %+v", r)
	}
	pageClick(t, ctx, dlg+" [data-dialog-confirm]")
	waitStatus(t, ctx, "FINALIZADA")
	if r := e.Stored(id); r.TotalPrice != 6300 || r.BookedPrice == nil || *r.BookedPrice != 3600 {
		t.Errorf("charged %v (booked %v), want 63.00 over the booked 36.00", r.TotalPrice, r.BookedPrice)
	}

	pageClick(t, ctx, "[data-receipt-link]")
	pageWaitJS(t, ctx, "the receipt", pageVisible("[data-receipt]"))
	for sel, want := range map[string]string{
		"[data-receipt-excess]": "27,00 €", "[data-receipt-booked-price]": "36,00 €", "[data-receipt-total]": "63,00 €",
	} {
		if got := pageText(t, ctx, sel); got != want {
			t.Errorf("receipt %s = %q, want %q", sel, got, want)
		}
	}
	if got := pageText(t, ctx, ".receipt-lines tbody"); !strings.Contains(got, "Exceso de estancia") {
		t.Errorf("receipt lines = %q", got)
	}
	noWiderThan(t, ctx, "the receipt", Phone[0])
	Screenshot(t, ctx, "phone-late-receipt")
	// The 409 is the refusal above; the photos' addresses do not resolve here.
	noConsoleErrors(t, console(), "409", "ERR_NAME_NOT_RESOLVED")
}
