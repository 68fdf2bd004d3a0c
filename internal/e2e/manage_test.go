package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/store"
)

// A guest on a phone manages a booking without an account (docs/manage-booking.md): the
// booking confirmation page offers "Gestionar mi reserva"; /reserva finds the
// booking by its reference (typed in lower case, without the dash) and phone; the
// page shows it without sideways scrolling; a change of dates and extras shows the
// new price live (the pricing API's answer for that booking and token) and saves
// exactly it; the booking is cancelled after ticking the confirmation.
func TestManageBookingOnPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	ctx, console := phone(t)

	// Booked online without an account, through the booking page.
	entry, exit := localInput(a, 10, 9), localInput(a, 13, 18)
	Do(t, ctx, "open the booking page", chromedp.Navigate(a.URL+"/booking"), chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
	pageSet(t, ctx, "#entry_date", entry)
	pageSet(t, ctx, "#exit_date", exit)
	pageClick(t, ctx, `input[name="id_main_service"][value="1"]`)
	waitPrice(t, ctx, "[data-price]", apiQuote(t, a, entry, exit, "TURISMO", 1, nil))
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))
	Do(t, ctx, "contact and vehicle",
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Lucía Ruiz"),
		chromedp.SendKeys(chromedp.CSS("#phone"), "633 444 555"),
		chromedp.SendKeys(chromedp.CSS("#email"), "lucia@example.com"),
		chromedp.SendKeys(chromedp.CSS("#license_plate"), "4321 ghj"))
	pageSet(t, ctx, "#vehicle_type", "TURISMO") // each kind once: COCHE is not offered (docs/pricing.md#vehicle-types)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))
	pageClick(t, ctx, "#privacy_ack")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the confirmation", pageVisible(`[data-step="done"]`))
	ref := pageText(t, ctx, `[data-done="reference"]`)
	if len(ref) != 9 || ref[4] != '-' {
		t.Fatalf("confirmation reference %q", ref)
	}
	href := pageJS[string](t, ctx, `document.querySelector('[data-done-manage]').getAttribute('href')`)
	if !strings.HasPrefix(href, "/reserva/"+ref+"?t=") {
		t.Errorf("Gestionar mi reserva links to %q", href)
	}
	Screenshot(t, ctx, "manage-confirmation")

	// Later, from the lookup form: a wrong phone first, then the right one.
	Do(t, ctx, "open /reserva", chromedp.Navigate(a.URL+"/reserva"), chromedp.WaitVisible(chromedp.CSS("#reference")))
	Do(t, ctx, "a wrong pair",
		chromedp.SendKeys(chromedp.CSS("#reference"), strings.ToLower(strings.ReplaceAll(ref, "-", ""))),
		chromedp.SendKeys(chromedp.CSS("#contact"), "600 000 000"),
		chromedp.Submit(chromedp.CSS("#contact")))
	pageWaitJS(t, ctx, "the refusal", pageVisible("#form-error"))
	if got := pageText(t, ctx, "#form-error"); !strings.HasPrefix(got, "No encontramos ninguna reserva") {
		t.Errorf("refusal = %q", got)
	}
	pageSet(t, ctx, "#contact", "633444555")
	Do(t, ctx, "the right pair", chromedp.Submit(chromedp.CSS("#contact")))
	pageWaitJS(t, ctx, "the booking", `location.pathname === '/reserva/`+ref+`' && `+pageVisible("[data-manage]"))
	if got := pageText(t, ctx, "[data-manage-status]"); got != "Confirmada" { // the state in the customer's words
		t.Errorf("status = %q", got)
	}
	if wide := pageJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`); wide {
		t.Error("the page scrolls sideways on a phone")
	}
	if !pageJS[bool](t, ctx, pageVisible("[data-print]")) {
		t.Error("no print button")
	}
	Screenshot(t, ctx, "manage-page")

	// Change: two more days and an extra; the live price is the API's for this booking.
	token := pageJS[string](t, ctx, `new URL(location.href).searchParams.get('t')`)
	newExit := localInput(a, 15, 18)
	pageSet(t, ctx, `[data-manage-edit] [name="exit_date"]`, newExit)
	pageClick(t, ctx, `[data-manage-edit] input[name="additional_services"][value="1"]`)
	want := manageQuote(t, a, ref, token, map[string]any{"entry_date": entry, "exit_date": newExit, "vehicle_type": "COCHE",
		"id_main_service": 1, "additional_services": []int{1}})
	pageWaitJS(t, ctx, "the live price", pageVisible("[data-manage-quote]")+
		` && document.querySelector('[data-manage-quote-value]').textContent.replace(/\s/g,' ') === `+jsString(eurosText(want)))
	Screenshot(t, ctx, "manage-edit")
	pageClick(t, ctx, `[data-manage-edit] button[type="submit"]`)
	pageWaitJS(t, ctx, "the saved change", pageVisible("[data-manage-flash]"))
	if got := pageText(t, ctx, "[data-manage-flash]"); got != "Reserva modificada correctamente." {
		t.Errorf("flash = %q", got)
	}
	var cents int64
	if err := a.Store.DB().QueryRow(`SELECT total_price_cents FROM reservation WHERE reference = $1`, strings.ReplaceAll(ref, "-", "")).Scan(&cents); err != nil {
		t.Fatal(err)
	}
	if centsText(cents) != want {
		t.Errorf("stored total %s, want the quoted %s", centsText(cents), want)
	}
	if got := strings.ReplaceAll(pageText(t, ctx, "[data-manage-total]"), "\u00a0", " "); got != eurosText(want) {
		t.Errorf("total shown %q, want %q", got, eurosText(want))
	}

	// Cancel: the box must be ticked first.
	pageClick(t, ctx, "[data-manage-cancel-confirm]")
	pageClick(t, ctx, "[data-manage-cancel-button]")
	pageWaitJS(t, ctx, "the cancellation", pageVisible("[data-manage-flash]")+` && document.querySelector('[data-manage-status]').textContent === 'Cancelada'`)
	if pageJS[bool](t, ctx, `!!document.querySelector('[data-manage-edit], [data-manage-cancel]')`) {
		t.Error("a cancelled booking still offers to change or cancel")
	}
	Screenshot(t, ctx, "manage-cancelled")
	// The wrong pair's page is itself a 404 (the lookup's one answer), which
	// Chromium logs once; any other failed load would be a second message.
	msgs := console()
	n404 := 0
	for _, m := range msgs {
		if strings.Contains(m, "status of 404") {
			n404++
		}
	}
	if n404 > 1 {
		t.Errorf("%d resources answered 404, want only the refused lookup", n404)
	}
	noConsoleErrors(t, msgs, "status of 404")
}

// manageQuote is POST /api/pricing/dynamic for a managed booking (its reference
// and token, as the page sends them), the total as "51.00".
func manageQuote(t *testing.T, a *app.App, ref, token string, body map[string]any) string {
	t.Helper()
	body["reference"] = ref
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", a.URL+"/api/pricing/dynamic", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Manage-Token", token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Success    bool        `json:"success"`
		TotalPrice json.Number `json:"total_price"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || !out.Success {
		t.Fatalf("manage quote: status %d, %v %+v", res.StatusCode, err, out)
	}
	f, err := strconv.ParseFloat(out.TotalPrice.String(), 64)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}
