// Package e2e_test drives the real service in Chromium (chromedp), through the
// real login page. Tests skip with a clear message when Chromium is absent,
// unless PARKING_E2E=required (CI), where its absence fails them. Screenshots go
// to internal/e2e/artifacts/ (not versioned).
package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/booking"
	"parking/internal/reservation"
	"parking/internal/store"
)

// browserFor starts a headless Chromium for the test and returns its tab context
// and a function listing the console messages seen so far.
func browserFor(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("PARKING_E2E") == "required" {
			t.Fatal("PARKING_E2E=required but no Chromium found (apt-get install -y chromium)")
		}
		t.Skip("Chromium not found: browser test skipped (set PARKING_E2E=required to make this a failure)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // start the browser now
		t.Fatalf("start Chromium: %v", err)
	}
	var mu sync.Mutex
	var messages []string
	console := chromedp.Console(ctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			mu.Lock()
			messages = append(messages, m.String())
			mu.Unlock()
		}
	}()
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), messages...)
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	dir := filepath.Join("artifacts")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, name), png, 0o644)
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds.
func waitFor(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s (%s)", what, js)
}

func bookToday(t *testing.T, a *app.App, plate, phone string, entryHour int, exitHour int) {
	t.Helper()
	now := time.Now().In(a.Config.Location)
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
	ctx, console := browserFor(t)

	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(a.URL+"/users/login"),
		chromedp.WaitVisible(chromedp.CSS(`[data-login-type="worker"]`)),
		chromedp.Click(chromedp.CSS(`[data-login-type="worker"]`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `document.querySelector('input[name=loginType]').value`); got != "worker" {
		t.Fatalf("worker tab set loginType = %q", got)
	}
	if got := text(t, ctx, "h1"); got != "Acceso de personal" {
		t.Errorf("heading after the worker tab = %q", got)
	}

	// A customer through the worker tab: refused on the page, no session.
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#email"), "carlos@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "customer-password"),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS(".alert-error")),
	); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, ".alert-error"); !strings.HasPrefix(got, "Acceso denegado") {
		t.Errorf("refusal message = %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#email').value + '|' + document.querySelector('#password').value`); got != "carlos@example.com|" {
		t.Errorf("fields after refusal = %q, want the email kept and the password empty", got)
	}
	screenshot(t, ctx, "login-refused-390.png")

	// The administrator.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#email"), "ana@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "admin-password"),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS("[data-dashboard]")),
	); err != nil {
		t.Fatal(err)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(loc, "/admin/dashboard") {
		t.Errorf("after login: %s", loc)
	}
	waitFor(t, ctx, "the counts", `document.querySelector('[data-stat="total"]').textContent === '3'`)
	if e, x := text(t, ctx, `[data-stat="entries"]`), text(t, ctx, `[data-stat="exits"]`); e != "2" || x != "1" {
		t.Errorf("counts: entries %s, exits %s; want 2 and 1", e, x)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-list="entries"] tr').length`); n != 2 {
		t.Errorf("entry rows = %d", n)
	}
	href := eval[string](t, ctx, `document.querySelector('[data-list="exits"] a').getAttribute('href')`)
	if !strings.HasPrefix(href, "/admin/reservations/details/") {
		t.Errorf("row link = %q", href)
	}
	if got := text(t, ctx, `[data-list="exits"] td[data-label="Matrícula"]`); got != "1111AAA" {
		t.Errorf("exit plate = %q", got)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	screenshot(t, ctx, "dashboard-390.png")

	// Another day through the date picker.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#date"), "2030-01-01"),
		chromedp.Submit(chromedp.CSS("#date")),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the empty day", `document.querySelector('[data-stat="total"]').textContent === '0'`)
	if got := text(t, ctx, `[data-list="entries"] td`); got != "No hay entradas este día." {
		t.Errorf("empty day text = %q", got)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(loc, "/admin/dashboard?date=2030-01-01") {
		t.Errorf("address after choosing a date: %s", loc)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("[data-today-link]"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "today again", `document.querySelector('[data-stat="total"]').textContent === '3'`)
	screenshot(t, ctx, "dashboard-1280.png")

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
	token := eval[string](t, ctx, `JSON.parse(sessionStorage.getItem('parking.dashboardToken')).token`)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(".whoami button")),
		chromedp.WaitVisible(chromedp.CSS("[data-login-tabs]")),
	); err != nil {
		t.Fatal(err)
	}
	status := eval[int](t, ctx, `fetch('/api/reservations', {headers: {Authorization: 'Bearer `+token+`'}}).then(r => r.status)`)
	if status != 401 {
		t.Errorf("the dashboard token after logout: %d, want 401", status)
	}

}
