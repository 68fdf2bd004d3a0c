package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/store"
)

// A British visitor types their mobile as at home (docs/input-rules.md#phones):
// the booking page, in English, asks for the country code at the phone before
// the last step, with the number as it should be typed, and never names an
// internal field. When the check cannot answer, the booking's own refusal is shown
// the same way, in the page's language.
func TestForeignPhoneAskedBeforeLastStep(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	ctx, console := phone(t)
	entry, exit := localInput(a, 10, 10), localInput(a, 13, 11)
	Do(t, ctx, "open the booking page in English",
		chromedp.Navigate(a.URL+"/booking?lang=en&entrada="+entry+"&salida="+exit),
		chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
	pageClick(t, ctx, `input[name="id_main_service"][value="1"]`)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))
	Do(t, ctx, "fill step 2 with a British mobile typed as at home",
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Oliver Smith"),
		chromedp.SendKeys(chromedp.CSS("#phone"), "07911 123456"),
		chromedp.SendKeys(chromedp.CSS("#license_plate"), "AB12CDE"))
	pageSet(t, ctx, "#vehicle_type", "TURISMO") // each kind once: COCHE is not offered (docs/pricing.md#vehicle-types)
	pageClick(t, ctx, "[data-next]")
	const want = "This phone number is not valid without its country code: type it with the code, for example +44 7911 123456."
	pageWaitJS(t, ctx, "the country code asked for", pageVisible("#phone-error"))
	if got := pageText(t, ctx, "#phone-error"); got != want {
		t.Errorf("phone message = %q, want %q", got, want)
	}
	if pageJS[string](t, ctx, "location.hash") != "#paso-2" || pageJS[bool](t, ctx, pageVisible(`[data-step="3"]`)) {
		t.Error("the page moved to the last step with a phone the booking refuses")
	}
	if got := pageJS[string](t, ctx, "document.activeElement.id"); got != "phone" {
		t.Errorf("focus on %q, want the phone", got)
	}
	Screenshot(t, ctx, "foreign-phone")

	// With the country code the page moves on.
	pageSet(t, ctx, "#phone", "+44 7911 123456")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))

	// Back, the phone as at home again, and the check unreachable: the booking
	// refuses it, and the page shows that refusal at the phone, in English (the API
	// speaks the language the page's request names).
	pageClick(t, ctx, "[data-back]")
	pageWaitJS(t, ctx, "step 2 again", pageVisible(`[data-step="2"]`))
	pageSet(t, ctx, "#phone", "07911 123456")
	pageJS[bool](t, ctx, `(function(){var orig=window.fetch; window.fetch=function(u,o){
		if(String(u).indexOf('/booking/check-phone')>=0){ return Promise.reject(new TypeError('offline')); } return orig(u,o); }; return true;})()`)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3 without the check", pageVisible(`[data-step="3"]`))
	pageClick(t, ctx, "#privacy_ack")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the booking's refusal at the phone", pageVisible(`[data-step="2"]`)+" && "+pageVisible("#phone-error"))
	// The booking's own refusal, said in the page's language by the API.
	if got := pageText(t, ctx, "#phone-error"); !strings.Contains(got, "country code") || !strings.Contains(got, "+44 7911 123456") {
		t.Errorf("booking refusal shown as %q, want it in English with the number as it should be typed", got)
	}
	if body := pageText(t, ctx, "main"); strings.Contains(body, "campo") || strings.Contains(body, "(field") || strings.Contains(body, "phone)") {
		t.Errorf("the page names an internal field: %s", body)
	}
	noConsoleErrors(t, console(), "/api/reservations/public-new", "400")
}
