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

// An English-speaking traveller books on a phone (docs/languages.md): the home page
// in English from the switcher's ?lang=en, the home page's quick quote to the
// booking page, a UK mobile typed with its country code, the English confirmation
// with its manage link, the manage page in English, and the booking stored with
// language en, its confirmation's payload carrying idioma en for the English email.
func TestEnglishBookingOnPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	ctx, console := phone(t)
	entry, exit := localInput(a, 10, 10), localInput(a, 13, 11)

	Do(t, ctx, "open the home page in English",
		chromedp.Navigate(a.URL+"/?lang=en"),
		chromedp.WaitVisible(chromedp.CSS("form[data-quick-quote]")))
	if got := pageJS[string](t, ctx, "document.documentElement.lang"); got != "en" {
		t.Fatalf("<html lang=%q> on the home page", got)
	}
	pageSet(t, ctx, "#entrada", entry)
	pageSet(t, ctx, "#salida", exit)
	pageClick(t, ctx, `form[data-quick-quote] button[type="submit"]`)
	pageWaitJS(t, ctx, "the booking page", pageVisible(`[data-step="1"]`)+` && document.documentElement.lang === 'en'`)
	if got := pageValue(t, ctx, "#entry_date") + " " + pageValue(t, ctx, "#exit_date"); got != entry+" "+exit {
		t.Fatalf("dates from the home page = %q, want %q", got, entry+" "+exit)
	}

	pageClick(t, ctx, `input[name="id_main_service"][value="2"]`)
	want := apiQuote(t, a, entry, exit, "TURISMO", 2, nil)
	waitPrice(t, ctx, "[data-price]", want)
	if got := pageText(t, ctx, "[data-price-value]"); got != "€"+want {
		t.Errorf("price shown %q, want €%s", got, want)
	}
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))
	Do(t, ctx, "fill step 2",
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Oliver Smith"),
		chromedp.SendKeys(chromedp.CSS("#phone"), "+44 7911 123456"),
		chromedp.SendKeys(chromedp.CSS("#email"), "oliver@example.co.uk"),
		chromedp.SendKeys(chromedp.CSS("#license_plate"), "AB12 CDE"))
	pageSet(t, ctx, "#vehicle_type", "TURISMO")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))
	if got := pageText(t, ctx, "[data-next]"); got != "Confirm booking" {
		t.Errorf("step 3 button = %q, want it in English", got)
	}
	pageClick(t, ctx, "#privacy_ack")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the confirmation", pageVisible(`[data-step="done"]`)+` && document.querySelector('[data-done="reference"]').textContent !== ''`)
	if got := pageText(t, ctx, `[data-done="total"]`); got != "€"+want {
		t.Errorf("confirmed total %q, want €%s", got, want)
	}
	done := pageText(t, ctx, `[data-step="done"]`)
	for _, s := range []string{"Oliver Smith", "AB12CDE", "Booking reference"} {
		if !strings.Contains(done, s) {
			t.Errorf("confirmation lacks %q: %s", s, done)
		}
	}
	reference := pageText(t, ctx, `[data-done="reference"]`)
	var lang, payload string
	if err := a.Store.DB().QueryRow(`SELECT r.language, n.payload FROM reservation r
		JOIN notification n ON n.id_reservation = r.id_reservation AND n.type = 'booking_confirmation'
		WHERE r.reference = $1`, strings.ReplaceAll(reference, "-", "")).Scan(&lang, &payload); err != nil {
		t.Fatalf("booking %s in the database: %v", reference, err)
	}
	if lang != "en" || !strings.Contains(payload, `"idioma":"en"`) {
		t.Errorf("stored language %q, payload %s: want en and idioma en", lang, payload)
	}

	// The manage link, followed from the confirmation: the booking in English.
	pageClick(t, ctx, "[data-done-manage]")
	pageWaitJS(t, ctx, "the manage page", `location.pathname.indexOf('/reserva') === 0 && document.querySelector('h1') !== null`)
	if got := pageJS[string](t, ctx, "document.documentElement.lang"); got != "en" {
		t.Errorf("<html lang=%q> on the manage page", got)
	}
	manage := pageText(t, ctx, "main")
	for _, s := range []string{"Change the booking", "AB12CDE", "€" + want} {
		if !strings.Contains(manage, s) {
			t.Errorf("manage page lacks %q: %s", s, manage)
		}
	}
	for _, m := range console() {
		t.Errorf("console: %s", m)
	}
}
