package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/store"
)

// The booking page's script speaks the page's language (docs/languages.md): a
// visitor who picks English or German with the switcher's ?lang= gets the live
// price, its note, the date error and the step title in that language, the
// amount written the language's way, and the choice kept (cookie) on the next page.
func TestBookingPageInOtherLanguages(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	entry, exit := localInput(a, 10, 10), localInput(a, 13, 11)
	want := apiQuote(t, a, entry, exit, "TURISMO", 2, nil)
	for _, c := range []struct {
		lang, price, note, dateError, step, home string
	}{
		{"en", "€" + want, "3 days", "The departure must be after the arrival.", "Step 1 of 3", "Park next to the airport"},
		{"de", eurosText(want), "3 Tage", "Die Abfahrt muss nach der Ankunft liegen.", "Schritt 1 von 3", "Parken Sie direkt am Flughafen"},
	} {
		ctx, console := phone(t)
		Do(t, ctx, "open the booking page in "+c.lang,
			chromedp.Navigate(a.URL+"/booking?lang="+c.lang+"&entrada="+entry+"&salida="+exit),
			chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
		if got := pageJS[string](t, ctx, "document.documentElement.lang"); got != c.lang {
			t.Errorf("%s: <html lang=%q>", c.lang, got)
		}
		pageClick(t, ctx, `input[name="id_main_service"][value="2"]`)
		waitPrice(t, ctx, "[data-price]", want)
		if got := pageText(t, ctx, "[data-price-value]"); got != c.price {
			t.Errorf("%s: price shown %q, want %q", c.lang, got, c.price)
		}
		if note := pageText(t, ctx, "[data-price-note]"); !strings.Contains(note, c.note) {
			t.Errorf("%s: price note %q, want %q", c.lang, note, c.note)
		}
		pageSet(t, ctx, "#exit_date", localInput(a, 9, 10))
		pageWaitJS(t, ctx, "the date error", pageVisible("#dates-error"))
		if got := pageText(t, ctx, "#dates-error"); got != c.dateError {
			t.Errorf("%s: date error %q, want %q", c.lang, got, c.dateError)
		}
		if got := pageJS[string](t, ctx, "document.title"); !strings.Contains(got, c.step) {
			t.Errorf("%s: title %q, want %q", c.lang, got, c.step)
		}
		Do(t, ctx, "open the home page", chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("h1")))
		if got := pageText(t, ctx, "h1"); !strings.HasPrefix(got, c.home) {
			t.Errorf("%s: home after ?lang= = %q: the choice was not kept", c.lang, got)
		}
		for _, m := range console() {
			t.Errorf("%s: console: %s", c.lang, m)
		}
	}
}
