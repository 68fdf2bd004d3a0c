package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Staff accounts and the audit trail in the browser: an administrator reaches the
// staff page from the navigation, creates an account with the form, disables it
// (the page shows it disabled and the other administrator cannot be disabled: the
// last one stays), then reads the changes on the audit page, filtered by the new
// account's email.
func TestStaffAndAuditPages(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	ctx, console := desktop(t)
	workerLogin(t, ctx, a, "ana@example.com", "admin-password")

	pageClick(t, ctx, `.site-nav a[href="/admin/staff"]`)
	pageWaitJS(t, ctx, "the staff page", `location.pathname === '/admin/staff' && `+pageVisible("[data-staff-new]"))
	pageSet(t, ctx, "#staff-name", "Luis Mora")
	pageSet(t, ctx, "#staff-email", "luis@example.com")
	pageSet(t, ctx, "#staff-password", "luis-pass-1")
	pageSet(t, ctx, "#staff-password2", "luis-pass-1")
	pageClick(t, ctx, `[data-staff-new] button[type=submit]`)
	pageWaitJS(t, ctx, "the new account in the list", `location.search.startsWith('?ok=') && document.body.textContent.includes('luis@example.com')`)
	if got := pageText(t, ctx, "[data-flash]"); got != "Cuenta de personal creada." {
		t.Errorf("flash = %q", got)
	}

	id := pageJS[string](t, ctx, `[...document.querySelectorAll('tr[data-staff]')].find(r => r.textContent.includes('luis@example.com')).dataset.staff`)
	pageClick(t, ctx, `tr[data-staff="`+id+`"] form[action$="/disable"] button`)
	pageWaitJS(t, ctx, "the account disabled", `!!document.querySelector('tr[data-staff="`+id+`"] form[action$="/enable"]')`)
	if row := pageText(t, ctx, `tr[data-staff="`+id+`"]`); !strings.Contains(row, "Desactivada") {
		t.Errorf("row = %q", row)
	}
	// Ana is now the only active administrator.
	me := pageJS[string](t, ctx, `[...document.querySelectorAll('tr[data-staff]')].find(r => r.textContent.includes('ana@example.com')).dataset.staff`)
	pageClick(t, ctx, `tr[data-staff="`+me+`"] form[action$="/disable"] button`)
	pageWaitJS(t, ctx, "the refusal", pageVisible("[data-flash-error]"))
	if got := pageText(t, ctx, "[data-flash-error]"); got != "No se puede desactivar la última cuenta de administrador activa." {
		t.Errorf("error = %q", got)
	}

	pageClick(t, ctx, `.site-nav a[href="/admin/audit"]`)
	pageWaitJS(t, ctx, "the audit page", `location.pathname === '/admin/audit' && `+pageVisible("[data-audit]"))
	pageSet(t, ctx, "#person", "ana@example.com")
	Do(t, ctx, "filter", chromedp.Submit(chromedp.CSS("#person")))
	pageWaitJS(t, ctx, "the filtered trail", `location.search.includes('person=ana%40example.com') && document.querySelectorAll('[data-audit-entry]').length === 2`)
	first := pageText(t, ctx, "[data-audit-entry]")
	if !strings.Contains(first, "Cuenta desactivada") || !strings.Contains(first, "Ana Admin") || !strings.Contains(first, "sí → no") {
		t.Errorf("newest entry = %q", first)
	}
	noWiderThan(t, ctx, "audit", Desktop[0])

	// Both pages on a phone: usable, no sideways scrolling.
	Do(t, ctx, "phone viewport", chromedp.EmulateViewport(Phone[0], Phone[1], chromedp.EmulateMobile))
	Do(t, ctx, "staff on a phone", chromedp.Navigate(a.URL+"/admin/staff"), chromedp.WaitVisible(chromedp.CSS("[data-staff-new]")))
	noWiderThan(t, ctx, "staff", Phone[0])
	Screenshot(t, ctx, "staff-phone")
	Do(t, ctx, "audit on a phone", chromedp.Navigate(a.URL+"/admin/audit"), chromedp.WaitVisible(chromedp.CSS("[data-audit]")))
	noWiderThan(t, ctx, "audit", Phone[0])
	Screenshot(t, ctx, "audit-phone")
	noConsoleErrors(t, console())
}
