package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"parking/internal/app"
	"parking/internal/apptest"
)

// Helpers of the public and customer page tests. They wait on conditions in the
// page, never on fixed sleeps, with bounded but generous timeouts: CI runs these
// on a loaded 2-core machine.

const pageTimeout = 45 * time.Second

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pageWaitJS polls a JavaScript condition until it is true; on timeout it saves a
// screenshot and fails, saying what was awaited.
func pageWaitJS(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(pageTimeout)
	var lastErr error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		lastErr = err
		time.Sleep(50 * time.Millisecond)
	}
	Screenshot(t, ctx, "timeout-"+what)
	t.Fatalf("timed out waiting for %s (%s); last error: %v", what, cond, lastErr)
}

// pageJS evaluates an expression (awaiting a promise) and returns its value.
func pageJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	return Get(t, ctx, expr, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// pageVisible is a JavaScript condition: the element exists and is rendered.
func pageVisible(sel string) string {
	return fmt.Sprintf("(function(){var e=document.querySelector(%s);return !!e && e.getClientRects().length>0;})()", jsString(sel))
}

// pageSet sets an input's or select's value the way typing or choosing does for
// the page's scripts: value, then "input" and "change" events. datetime-local
// inputs cannot be typed into reliably across locales, so they are set this way.
func pageSet(t *testing.T, ctx context.Context, sel, value string) {
	t.Helper()
	expr := fmt.Sprintf(`(function(){var e=document.querySelector(%s); if(!e){return false;}
		e.focus(); e.value=%s; e.dispatchEvent(new Event('input',{bubbles:true})); e.dispatchEvent(new Event('change',{bubbles:true})); return e.value===%s;})()`,
		jsString(sel), jsString(value), jsString(value))
	if !pageJS[bool](t, ctx, expr) {
		Screenshot(t, ctx, "set-"+sel)
		t.Fatalf("could not set %s to %q", sel, value)
	}
}

// pageClick scrolls an element to the middle of the screen, clear of the booking
// page's sticky price bar, and clicks it as a finger would.
func pageClick(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if !pageJS[bool](t, ctx, fmt.Sprintf(`(function(){var e=document.querySelector(%s); if(!e){return false;} e.scrollIntoView({block:'center'}); return true;})()`, jsString(sel))) {
		Screenshot(t, ctx, "click-"+sel)
		t.Fatalf("nothing to click at %s", sel)
	}
	Do(t, ctx, "click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// pageValue is the current value of a form control.
func pageValue(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return pageJS[string](t, ctx, fmt.Sprintf("document.querySelector(%s).value", jsString(sel)))
}

// pageText is the trimmed text content of an element.
func pageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return strings.TrimSpace(pageJS[string](t, ctx, fmt.Sprintf("(document.querySelector(%s)||{}).textContent||''", jsString(sel))))
}

// phone starts Chromium as a 390×844 touch phone set to Spanish (dates in the
// inputs read as in Spain) and returns it with its console recorder.
func phone(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	ctx := Browser(t, Phone)
	console := watchConsole(ctx)
	Do(t, ctx, "phone viewport", chromedp.EmulateViewport(Phone[0], Phone[1], chromedp.EmulateMobile))
	if _, err := chromedp.Call(ctx, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: "es-ES"}); err != nil {
		t.Fatalf("Spanish locale: %v", err)
	}
	return ctx, console
}

// watchConsole records the page's console messages and uncaught exceptions.
func watchConsole(ctx context.Context) func() []string {
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
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), messages...)
	}
}

// noConsoleErrors fails on any console message other than the expected refusals
// (a 4xx answer is logged by the browser as a failed resource load).
func noConsoleErrors(t *testing.T, messages []string, allowed ...string) {
	t.Helper()
next:
	for _, m := range messages {
		for _, a := range allowed {
			if strings.Contains(m, a) {
				continue next
			}
		}
		t.Errorf("browser console: %s", m)
	}
}

// apiQuote asks the pricing API directly, as any client would, and returns the total
// as the page's data-total writes it ("51.00").
func apiQuote(t *testing.T, a *app.App, entry, exit, vehicleType string, service int, extras []int) string {
	t.Helper()
	if extras == nil {
		extras = []int{}
	}
	body, _ := json.Marshal(map[string]any{
		"entry_date": entry, "exit_date": exit, "vehicle_type": vehicleType,
		"id_main_service": service, "additional_services": extras,
	})
	res, err := http.Post(a.URL+"/api/pricing/dynamic", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Success    bool        `json:"success"`
		TotalPrice json.Number `json:"total_price"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || !out.Success {
		t.Fatalf("pricing API: status %d, %v %+v", res.StatusCode, err, out)
	}
	f, err := strconv.ParseFloat(out.TotalPrice.String(), 64)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// eurosText is how the pages write an amount given as "1234.50": "1.234,50 €".
func eurosText(amount string) string {
	whole, frac, _ := strings.Cut(amount, ".")
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(d)
	}
	return b.String() + "," + frac + " €"
}

// centsText writes stored cents as data-total does: 5100 → "51.00".
func centsText(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

// localInput is a datetime-local value in the facility's zone, days from today at
// the given hour.
func localInput(a *app.App, days, hour int) string {
	now := apptest.Now(a).In(a.Config.Location)
	d := time.Date(now.Year(), now.Month(), now.Day()+days, hour, 0, 0, 0, a.Config.Location)
	return d.Format("2006-01-02T15:04")
}

// adminToken gets an API token for an administrator through POST /api/auth/token.
func adminToken(t *testing.T, a *app.App, email, password string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	res, err := http.Post(a.URL+"/api/auth/token", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || out.Token == "" {
		t.Fatalf("token: status %d, %v", res.StatusCode, err)
	}
	return out.Token
}

// postJSON sends a JSON body and fails unless the answer has status want.
func postJSON(t *testing.T, url string, body any, want int) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	if res.StatusCode != want {
		t.Fatalf("POST %s: status %d (%v), want %d", url, res.StatusCode, out, want)
	}
	return out
}

// partnerBook books through the partner API with a partner's key and returns the 201 answer.
func partnerBook(t *testing.T, a *app.App, key string, body map[string]any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", a.URL+"/api/partner/bookings", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("partner booking: %d %v %v", res.StatusCode, out, err)
	}
	return out
}
