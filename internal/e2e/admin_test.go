package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The counter clerk's whole day with one reservation, on a desktop: a customer
// books through the public API; the clerk logs in through the login page's worker
// tab, finds the booking on the day's dashboard and opens its detail page; adds
// the 5 photos through the page's form (a bad address refused in place, the
// counter reaching 5 of 5); assigns a spot through the update form (a 303 back with
// the success message); starts the reservation and finalizes it paid by card, each
// after a confirmation dialog (finalizing without a payment method is refused in
// the dialog); opens the receipt, which shows the total and TARJETA, and prints
// without the navigation. The stored reservation matches at every step, and the
// browser console stays clean.
func TestAdminFlowOnDesktop(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	photos := photoServer(t)

	// Booked for tomorrow (a public booking cannot start in the past, docs/dates.md#past-entries),
	// then moved to today at 9:00 for the day's dashboard; the price depends on the
	// length of the stay only.
	booked := postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Lucía Peñalver", "phone": "611222333", "email": "lucia@example.com",
		"license_plate": "4321KLM", "brand": "Seat", "model": "León", "vehicle_type": "COCHE",
		"entry_date": localInput(a, 1, 9), "exit_date": localInput(a, 4, 9), "id_main_service": 1, "additional_services": []int{1},
	}, http.StatusCreated)
	data := booked["data"].(map[string]any)
	id := strconv.FormatInt(int64(data["id_reservation"].(float64)), 10)
	entry, _ := time.ParseInLocation("2006-01-02T15:04", localInput(a, 0, 9), a.Config.Location)
	if err := a.Store.InTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Exec(context.Background(), `UPDATE reservation SET entry_date = $2, exit_date = $3 WHERE id_reservation = $1`,
			data["id_reservation"], entry.UTC(), entry.AddDate(0, 0, 3).UTC())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	total := fmt.Sprintf("%.2f", data["total_price"].(float64))

	ctx, console := desktop(t)
	workerLogin(t, ctx, a, "ana@example.com", "admin-password")

	// The dashboard lists today's entry with a link to its detail.
	link := `[data-list="entries"] a[href="/admin/reservations/details/` + id + `"]`
	pageWaitJS(t, ctx, "the booking on the dashboard", pageVisible(link))
	if got := pageText(t, ctx, ".site-nav"); !strings.Contains(got, "Nueva reserva") || !strings.Contains(got, "Catálogo") || !strings.Contains(got, "Parking") {
		t.Errorf("administrator navigation = %q", got)
	}
	Screenshot(t, ctx, "dashboard")
	DocScreenshot(t, ctx, "dashboard")
	pageClick(t, ctx, link)
	pageWaitJS(t, ctx, "the detail page", `location.pathname === '/admin/reservations/details/`+id+`' && `+pageVisible("[data-detail]"))
	waitStatus(t, ctx, "PENDIENTE")
	for sel, want := range map[string]string{
		`[data-fact="customer"]`: "Lucía Peñalver", `[data-fact="plate"]`: "4321KLM", `[data-detail-total]`: eurosText(total),
		`[data-photo-count]`: "0 de 5", `#start-why`: "Faltan 5 fotos",
	} {
		if got := pageText(t, ctx, sel); !strings.Contains(got, want) {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	// docs/reservations.md#check-in-on-a-phone: start opens the dialog that takes what is missing.
	if !pageJS[bool](t, ctx, `!document.querySelector('[data-action="start"]').disabled && document.querySelector('[data-action="finalize"]').disabled && !document.querySelector('[data-action="cancel"]').disabled`) {
		t.Error("a PENDIENTE reservation without photos: start (the dialog) and cancel enabled, finalize disabled")
	}
	if !pageJS[bool](t, ctx, `document.querySelector('#e-plate').disabled && !document.querySelector('#e-entry_date').disabled`) {
		t.Error("the plate must be read-only and the entry date editable while PENDIENTE")
	}
	Screenshot(t, ctx, "detail-pending")

	// A bad address is refused in place, before any request.
	pageSet(t, ctx, "#file_path", "ftp://fotos/1.jpg")
	pageClick(t, ctx, "[data-photo-form] button[type=submit]")
	pageWaitJS(t, ctx, "the photo address error", pageVisible("#file_path-error"))
	// Five photos through the form: the counter follows.
	for i := 1; i <= 5; i++ {
		pageSet(t, ctx, "#file_path", fmt.Sprintf("%s/car-%d.png", photos, i))
		pageSet(t, ctx, "#description", fmt.Sprintf("Vista %d", i))
		pageClick(t, ctx, "[data-photo-form] button[type=submit]")
		pageWaitJS(t, ctx, fmt.Sprintf("photo %d counted", i), `document.querySelector('[data-photo-count]').getAttribute('data-photo-count') === '`+strconv.Itoa(i)+`'`)
	}
	if got := pageText(t, ctx, "[data-photo-count]"); got != "5 de 5" {
		t.Errorf("photo counter = %q, want 5 de 5", got)
	}
	if got := pageText(t, ctx, "[data-photo-msg]"); !strings.Contains(got, "5 de 5") {
		t.Errorf("photo message = %q", got)
	}
	pageWaitJS(t, ctx, "the thumbnails loaded", `Array.from(document.querySelectorAll('[data-gallery] img')).filter(i => i.complete && i.naturalWidth > 0).length === 5`)
	if got := pageText(t, ctx, "#start-why"); !strings.Contains(got, "plaza") {
		t.Errorf("with 5 photos and no spot, start explains %q", got)
	}

	// Assign the spot through the update form: 303 back with the success message.
	Do(t, ctx, "type the spot", chromedp.SendKeys(chromedp.CSS("#e-cod_parking_spot"), "b-07"))
	if got := pageValue(t, ctx, "#e-cod_parking_spot"); got != "B-07" {
		t.Errorf("spot typed as b-07 shows %q, want it upper-cased", got)
	}
	pageClick(t, ctx, "[data-edit-save]")
	pageWaitJS(t, ctx, "the update's message", `location.search === '?updated=true' && `+pageVisible("[data-flash]"))
	if got := pageText(t, ctx, "[data-flash]"); got != "Reserva actualizada correctamente." {
		t.Errorf("update message = %q", got)
	}
	if got := pageText(t, ctx, `[data-fact="spot"]`); got != "B-07" {
		t.Errorf("spot shown = %q, want B-07", got)
	}
	Screenshot(t, ctx, "detail-ready")

	// Start, confirmed in the dialog.
	pageClick(t, ctx, `[data-action="start"]`)
	Screenshot(t, ctx, "start-dialog")
	confirmDialog(t, ctx, "start")
	waitStatus(t, ctx, "EN CURSO")
	pageWaitJS(t, ctx, "the start message", `document.querySelector('[data-flash]').textContent.includes('iniciada')`)
	if !pageJS[bool](t, ctx, `document.querySelector('#e-entry_date').disabled && document.querySelector('#e-cod_parking_spot').required && !document.querySelector('[data-action="finalize"]').disabled && document.querySelector('[data-action="cancel"]').disabled`) {
		t.Error("EN CURSO: the entry date must be disabled, the spot required, finalize enabled and cancel disabled")
	}
	if got := storedStatus(t, a, id); got != "EN CURSO" {
		t.Errorf("stored status after start = %q", got)
	}
	Screenshot(t, ctx, "detail-in-course")

	// Finalize: no payment method chosen is refused in the dialog; then TARJETA.
	pageClick(t, ctx, `[data-action="finalize"]`)
	confirmDialog(t, ctx, "finalize")
	pageWaitJS(t, ctx, "the payment method refusal", pageVisible(`dialog[data-dialog="finalize"] [data-dialog-error]`))
	pageClick(t, ctx, `dialog[data-dialog="finalize"] input[value="TARJETA"]`)
	Screenshot(t, ctx, "finalize-dialog")
	pageClick(t, ctx, `dialog[data-dialog="finalize"] [data-dialog-confirm]`)
	waitStatus(t, ctx, "FINALIZADA")
	if got := pageText(t, ctx, ".paid-badge"); got != "Pagada · TARJETA" {
		t.Errorf("paid badge = %q", got)
	}
	if !pageJS[bool](t, ctx, `document.querySelector('.edit-all').disabled && !document.querySelector('[data-edit-save]') && document.querySelector('[data-photo-form]') === null`) {
		t.Error("FINALIZADA: the update form must be disabled and photos closed")
	}
	pageWaitJS(t, ctx, "the invoice in the notification history", `Array.from(document.querySelectorAll('[data-region="notifications"] td[data-label="Aviso"]')).some(td => td.textContent === 'Factura')`)
	Screenshot(t, ctx, "detail-finalized")

	// A manual invoice: a message and one more row in the history.
	rows := pageJS[int](t, ctx, `document.querySelectorAll('[data-region="notifications"] tbody tr').length`)
	pageClick(t, ctx, `[data-action="invoice"]`)
	pageWaitJS(t, ctx, "the invoice message", `document.querySelector('[data-flash]').textContent.includes('Factura solicitada')`)
	pageWaitJS(t, ctx, "the new history row", `document.querySelectorAll('[data-region="notifications"] tbody tr').length === `+strconv.Itoa(rows+1))

	// A full invoice (docs/receipts.md#full-invoice-factura-completa): the dialog takes the customer's tax id and
	// address; the receipt becomes the full invoice that replaces the simplified one.
	pageClick(t, ctx, `[data-action="fullinvoice"]`)
	pageWaitJS(t, ctx, "the full-invoice dialog", `document.querySelector('dialog[data-dialog="fullinvoice"]').open`)
	pageSet(t, ctx, "#inv-tax", "12345678A")
	pageSet(t, ctx, "#inv-addr", "Calle Mayor 1, Madrid")
	pageClick(t, ctx, `dialog[data-dialog="fullinvoice"] [data-dialog-confirm]`)
	// The refusal names the field as the dialog labels it, never "tax_id" (docs/languages.md#what-remains).
	pageWaitJS(t, ctx, "the tax id refused", `(function (t) { return t.includes('campo «NIF') && !t.includes('tax_id'); })(document.querySelector('dialog[data-dialog="fullinvoice"] [data-dialog-error]').textContent)`)
	pageSet(t, ctx, "#inv-tax", "12345678Z")
	pageClick(t, ctx, `dialog[data-dialog="fullinvoice"] [data-dialog-confirm]`)
	pageWaitJS(t, ctx, "the full invoice message", `document.querySelector('[data-flash]').textContent.includes('Factura completa solicitada')`)

	// The receipt.
	pageClick(t, ctx, "[data-receipt-link]")
	pageWaitJS(t, ctx, "the receipt", pageVisible("[data-receipt]"))
	if got := pageText(t, ctx, "#receipt-title"); !strings.HasPrefix(got, "Factura (en sustitución de factura simplificada) nº F") {
		t.Errorf("receipt title = %q", got)
	}
	if got := pageText(t, ctx, "[data-receipt-recipient]"); !strings.Contains(got, "NIF 12345678Z") || !strings.Contains(got, "Calle Mayor 1, Madrid") {
		t.Errorf("receipt customer = %q", got)
	}
	if !pageJS[bool](t, ctx, `(function(){var i=document.querySelector('[data-receipt-verifactu] img'); return i.complete && i.naturalWidth > 0;})()`) {
		t.Error("the receipt's QR code is not shown")
	}
	if got := pageText(t, ctx, "[data-receipt-total]"); got != eurosText(total) {
		t.Errorf("receipt total = %q, want %q", got, eurosText(total))
	}
	if got := pageText(t, ctx, "[data-receipt-payment]"); !strings.Contains(got, "TARJETA") {
		t.Errorf("receipt payment = %q", got)
	}
	if got := pageText(t, ctx, "[data-receipt-status]"); got != "PAGADA" {
		t.Errorf("receipt status = %q", got)
	}
	if got := pageText(t, ctx, "[data-receipt-days]"); got != "3" {
		t.Errorf("receipt days = %q", got)
	}
	Screenshot(t, ctx, "receipt")
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	if !pageJS[bool](t, ctx, `getComputedStyle(document.querySelector('.site-header')).display === 'none' && getComputedStyle(document.querySelector('.receipt-tools')).display === 'none'`) {
		t.Error("the print stylesheet must hide the navigation and the buttons")
	}
	Screenshot(t, ctx, "receipt-print")
	// The one refusal the flow provokes on purpose: the wrong tax id (400).
	noConsoleErrors(t, console(), "status of 400 (Bad Request)")
}

// storedStatus reads a reservation's status from the database.
func storedStatus(t *testing.T, a *app.App, id string) string {
	t.Helper()
	var status string
	if err := a.Store.DB().QueryRow(`SELECT status FROM reservation WHERE id_reservation = $1`, id).Scan(&status); err != nil {
		t.Fatal(err)
	}
	return status
}
