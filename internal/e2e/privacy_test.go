package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Privacy rights on a phone: the customer area offers "Descargar mis datos" and
// "Eliminar mi cuenta"; deleting with the password says it is done, and the
// account's data is gone from the database.
func TestDeleteAccountOnPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Registered, "Marta Gil", "marta@example.com", "655123456", "marta-secreta")
	ctx, console := phone(t)

	Do(t, ctx, "log in",
		chromedp.Navigate(a.URL+"/users/login"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "marta@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "marta-secreta"),
		chromedp.Submit(chromedp.CSS("#password")))
	pageWaitJS(t, ctx, "the profile page", `location.pathname === '/users/profile' && `+pageVisible("[data-privacy-card]"))
	if href := pageJS[string](t, ctx, `document.querySelector('[data-export]').getAttribute('href')`); href != "/users/profile/data" {
		t.Errorf("export link = %q", href)
	}
	pageClick(t, ctx, "[data-privacy-card] details summary")
	Do(t, ctx, "type the password", chromedp.SendKeys(chromedp.CSS("#erase-password"), "marta-secreta"))
	Screenshot(t, ctx, "privacy-delete-account")
	pageClick(t, ctx, `[data-erase-form] button[type="submit"]`)
	pageWaitJS(t, ctx, "the confirmation page", `document.querySelector('h1') && document.querySelector('h1').textContent.includes('Cuenta eliminada')`)
	if body := pageText(t, ctx, "main"); !strings.Contains(body, "Sus datos personales se han eliminado") {
		t.Errorf("confirmation page: %q", body)
	}
	var n int
	if err := a.Store.DB().QueryRow(`SELECT COUNT(*) FROM customer WHERE email = 'marta@example.com' OR full_name = 'Marta Gil'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("customers still named Marta or with her email: %d (%v)", n, err)
	}
	noConsoleErrors(t, console())
}
