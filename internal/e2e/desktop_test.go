package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The public and customer pages on a desktop, used from the keyboard alone: the
// booking flow's step 1 is completed with Tab, the arrow keys, Space and Enter.
// Screenshots of each page at 1280 px; no page is wider than the window.
func TestCustomerPagesOnDesktopByKeyboard(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Registered, "Pablo Ruiz", "pablo@example.com", "611222333", "pablo-secreta")
	ctx := Browser(t, Desktop)
	console := watchConsole(ctx)

	Do(t, ctx, "home", chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("[data-quick-quote]")))
	Screenshot(t, ctx, "home-desktop")

	entry, exit := localInput(a, 5, 9), localInput(a, 7, 9)
	Do(t, ctx, "booking", chromedp.Navigate(a.URL+"/booking?entrada="+entry+"&salida="+exit), chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
	// Keyboard: focus the first service, move to the second with the arrow key
	// (which checks it), Tab to the first extra and tick it with Space, then Enter
	// in a date field submits the step.
	Do(t, ctx, "focus the first service", chromedp.Focus(chromedp.CSS(`input[name="id_main_service"][value="1"]`)))
	Do(t, ctx, "arrow to the next service", chromedp.KeyEvent(kb.ArrowDown))
	pageWaitJS(t, ctx, "the second service checked by keyboard", `document.querySelector('input[name="id_main_service"][value="2"]').checked`)
	Do(t, ctx, "tab to the extras", chromedp.KeyEvent(kb.Tab))
	if got := pageJS[string](t, ctx, `document.activeElement.name + '=' + document.activeElement.value`); got != "additional_services=1" {
		t.Fatalf("focus after Tab = %s, want the first extra", got)
	}
	Do(t, ctx, "tick it with Space", chromedp.KeyEvent(" "))
	pageWaitJS(t, ctx, "the extra ticked", `document.querySelector('input[name="additional_services"][value="1"]').checked`)
	waitPrice(t, ctx, "[data-price]", apiQuote(t, a, entry, exit, "TURISMO", 2, []int{1}))
	Screenshot(t, ctx, "booking-desktop")
	Do(t, ctx, "Enter in the exit field", chromedp.Focus(chromedp.CSS("#exit_date")), chromedp.KeyEvent(kb.Enter))
	pageWaitJS(t, ctx, "step 2 by keyboard", pageVisible(`[data-step="2"]`)+` && document.activeElement.id === 'step2-title'`)
	if w := pageJS[int](t, ctx, "document.documentElement.scrollWidth"); w > int(Desktop[0]) {
		t.Errorf("booking is %d px wide", w)
	}

	// Log in through the login page; the profile, and the booking page filled in.
	Do(t, ctx, "login",
		chromedp.Navigate(a.URL+"/users/login"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "pablo@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "pablo-secreta"),
		chromedp.Submit(chromedp.CSS("#password")))
	pageWaitJS(t, ctx, "the profile", `location.pathname === '/users/profile' && `+pageVisible("[data-profile]"))
	Screenshot(t, ctx, "profile-desktop")
	if w := pageJS[int](t, ctx, "document.documentElement.scrollWidth"); w > int(Desktop[0]) {
		t.Errorf("profile is %d px wide", w)
	}
	Do(t, ctx, "booking as a customer", chromedp.Navigate(a.URL+"/booking"), chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
	if got := pageValue(t, ctx, "#full_name") + "|" + pageValue(t, ctx, "#phone") + "|" + pageValue(t, ctx, "#email"); got != "Pablo Ruiz|+34611222333|pablo@example.com" {
		t.Errorf("customer's details in the booking form = %q", got)
	}
	if !pageJS[bool](t, ctx, `document.querySelector('[data-phone-account-note]').hidden`) {
		t.Error("the other-phone note shows for the account's own phone")
	}
	pageSet(t, ctx, "#phone", "699000000")
	pageWaitJS(t, ctx, "the other-phone note", `!document.querySelector('[data-phone-account-note]').hidden`)
	noConsoleErrors(t, console())
}
