package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/booking"
	"parking/internal/reservation"
	"parking/internal/store"
)

// textOf is the trimmed text of the first element matching sel.
func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return strings.TrimSpace(Get(t, ctx, "text of "+sel, chromedp.Text(chromedp.CSS(sel))))
}

// evalJS evaluates an expression (awaiting a promise) and returns its value.
func evalJS[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	return Get(t, ctx, js, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// waitUntil polls a JavaScript condition until it holds.
func waitUntil(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	Screenshot(t, ctx, "failed-"+what)
	t.Fatalf("timed out waiting for %s (%s)", what, js)
}

func bookToday(t *testing.T, a *app.App, plate, phone string, entryHour int, exitHour int) {
	t.Helper()
	now := apptest.Now(a).In(a.Config.Location)
	day := func(h int) time.Time {
		return time.Date(now.Year(), now.Month(), now.Day(), h, 0, 0, 0, a.Config.Location)
	}
	in := booking.NewBooking{FullName: "Cliente " + plate, Phone: phone, LicensePlate: plate,
		Brand: "Seat", Color: "Azul", VehicleType: "COCHE", MainService: 1, Entry: day(entryHour)}
	if exitHour > 0 {
		x := day(exitHour)
		in.Exit = &x
	}
	if _, err := a.Booking.Create(context.Background(), booking.WalkIn, in); err != nil {
		t.Fatal(err)
	}
}

// An administrator logs in through the worker tab of the login page on a phone,
// lands on the dashboard, which fetches its token through the session and fills
// the counts and both tables from GET /api/reservations, with links to the
// details; another date empties them; logging out revokes the page's token. A
// customer who tries the worker tab is refused in place. No console errors (the
// content security policy would report inline code there).
func TestAdminLoginAndDashboard(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	apptest.Account(t, a, reservation.Registered, "Carlos Cliente", "carlos@example.com", "600000001", "customer-password")
	bookToday(t, a, "1111AAA", "611111111", 9, 18) // enters and leaves today
	bookToday(t, a, "2222BBB", "622222222", 11, 0) // enters today, no exit date
	ctx := Browser(t, Phone)
	console := watchConsole(ctx)

	Do(t, ctx, "open the login page and choose the worker tab",
		chromedp.EmulateViewport(Phone[0], Phone[1], chromedp.EmulateMobile),
		chromedp.Navigate(a.URL+"/users/login"),
		chromedp.WaitVisible(chromedp.CSS(`[data-login-type="worker"]`)),
		chromedp.Click(chromedp.CSS(`[data-login-type="worker"]`)),
	)
	if got := evalJS[string](t, ctx, `document.querySelector('input[name=loginType]').value`); got != "worker" {
		t.Fatalf("worker tab set loginType = %q", got)
	}
	if got := textOf(t, ctx, "h1"); got != "Acceso de personal" {
		t.Errorf("heading after the worker tab = %q", got)
	}

	// A customer through the worker tab: refused on the page, no session.
	Do(t, ctx, "log in as a customer through the worker tab",
		chromedp.SendKeys(chromedp.CSS("#email"), "carlos@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "customer-password"),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS(".alert-error")),
	)
	if got := textOf(t, ctx, ".alert-error"); !strings.HasPrefix(got, "Acceso denegado") {
		t.Errorf("refusal message = %q", got)
	}
	if got := evalJS[string](t, ctx, `document.querySelector('#email').value + '|' + document.querySelector('#password').value`); got != "carlos@example.com|" {
		t.Errorf("fields after refusal = %q, want the email kept and the password empty", got)
	}
	Screenshot(t, ctx, "login-refused-phone")

	// The administrator.
	Do(t, ctx, "log in as the administrator",
		chromedp.SetValue(chromedp.CSS("#email"), "ana@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "admin-password"),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS("[data-dashboard]")),
	)
	if loc := Get(t, ctx, "location", chromedp.Location()); !strings.HasSuffix(loc, "/admin/dashboard") {
		t.Errorf("after login: %s", loc)
	}
	waitUntil(t, ctx, "the counts", `document.querySelector('[data-stat="total"]').textContent === '3'`)
	if e, x := textOf(t, ctx, `[data-stat="entries"]`), textOf(t, ctx, `[data-stat="exits"]`); e != "2" || x != "1" {
		t.Errorf("counts: entries %s, exits %s; want 2 and 1", e, x)
	}
	if n := evalJS[int](t, ctx, `document.querySelectorAll('[data-list="entries"] tr').length`); n != 2 {
		t.Errorf("entry rows = %d", n)
	}
	href := evalJS[string](t, ctx, `document.querySelector('[data-list="exits"] a').getAttribute('href')`)
	if !strings.HasPrefix(href, "/admin/reservations/details/") {
		t.Errorf("row link = %q", href)
	}
	if got := textOf(t, ctx, `[data-list="exits"] td[data-label="Matrícula"]`); got != "1111AAA" {
		t.Errorf("exit plate = %q", got)
	}
	if w := evalJS[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	Screenshot(t, ctx, "dashboard-phone")

	// Another day through the date picker.
	Do(t, ctx, "choose another date",
		chromedp.SetValue(chromedp.CSS("#date"), "2030-01-01"),
		chromedp.Submit(chromedp.CSS("#date")),
	)
	// The counters and the lists are filled one after the other: wait for both.
	waitUntil(t, ctx, "the empty day", `document.querySelector('[data-stat="total"]').textContent === '0' && (document.querySelector('[data-list="entries"] td')||{}).textContent !== undefined && document.querySelector('[data-list="entries"] td').textContent.trim() !== ''`)
	if got := textOf(t, ctx, `[data-list="entries"] td`); got != "No hay entradas este día." {
		t.Errorf("empty day text = %q", got)
	}
	if loc := Get(t, ctx, "location", chromedp.Location()); !strings.HasSuffix(loc, "/admin/dashboard?date=2030-01-01") {
		t.Errorf("address after choosing a date: %s", loc)
	}
	Do(t, ctx, "back to today on a desktop",
		chromedp.EmulateViewport(Desktop[0], Desktop[1]),
		chromedp.Click(chromedp.CSS("[data-today-link]")),
	)
	waitUntil(t, ctx, "today again", `document.querySelector('[data-stat="total"]').textContent === '3'`)
	Screenshot(t, ctx, "dashboard-desktop")

	for _, m := range console() {
		// The refused login answers 403, which the browser logs as a failed
		// resource load; anything else is a fault of the pages (a script error,
		// or the content security policy refusing inline code).
		if strings.Contains(m, "status of 403") {
			continue
		}
		t.Errorf("console: %s", m)
	}

	// Logout from the header; the page's token dies with the session.
	token := evalJS[string](t, ctx, `JSON.parse(sessionStorage.getItem('parking.dashboardToken')).token`)
	Do(t, ctx, "log out",
		chromedp.Click(chromedp.CSS(".whoami button")),
		chromedp.WaitVisible(chromedp.CSS("[data-login-tabs]")),
	)
	status := evalJS[int](t, ctx, `fetch('/api/reservations', {headers: {Authorization: 'Bearer `+token+`'}}).then(r => r.status)`)
	if status != 401 {
		t.Errorf("the dashboard token after logout: %d, want 401", status)
	}

}
