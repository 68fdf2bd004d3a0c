package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"parking/internal/app"
)

// Helpers of the administrator page tests.

// desktop starts Chromium as the counter's 1280×900 desktop set to Spanish (dates
// in the inputs read as in Spain) and returns it with its console recorder.
func desktop(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	ctx := Browser(t, Desktop)
	console := watchConsole(ctx)
	if _, err := chromedp.Call(ctx, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: "es-ES"}); err != nil {
		t.Fatalf("Spanish locale: %v", err)
	}
	return ctx, console
}

// workerLogin logs in through the real login page's worker tab and waits for the
// dashboard.
func workerLogin(t *testing.T, ctx context.Context, a *app.App, email, password string) {
	t.Helper()
	Do(t, ctx, "open the login page and choose the worker tab",
		chromedp.Navigate(a.URL+"/users/login"),
		chromedp.WaitVisible(chromedp.CSS(`[data-login-type="worker"]`)),
		chromedp.Click(chromedp.CSS(`[data-login-type="worker"]`)),
	)
	pageWaitJS(t, ctx, "the worker tab", `document.querySelector('input[name=loginType]').value === 'worker'`)
	Do(t, ctx, "log in as "+email,
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Submit(chromedp.CSS("#password")),
	)
	pageWaitJS(t, ctx, "the dashboard", `location.pathname === '/admin/dashboard' && `+pageVisible("[data-dashboard]"))
}

// photoServer serves small PNG pictures at /car-N.png, standing in for the
// facility's photo storage; the pages show them as the gallery's thumbnails.
func photoServer(t *testing.T) string {
	t.Helper()
	palette := []color.RGBA{{0x2f, 0x6f, 0xb5, 255}, {0xb5, 0x3a, 0x2f, 255}, {0x3a, 0x8f, 0x55, 255}, {0x8a, 0x6d, 0x2f, 255}, {0x5b, 0x4b, 0x9a, 255}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/car-%d.png", &n); err != nil {
			http.NotFound(w, r)
			return
		}
		img := image.NewRGBA(image.Rect(0, 0, 320, 240))
		base := palette[n%len(palette)]
		for y := 0; y < 240; y++ {
			for x := 0; x < 320; x++ {
				c := base
				switch {
				case y > 150 && y < 185 && x > 40 && x < 280: // the body of a car
					c = color.RGBA{0x22, 0x22, 0x28, 255}
				case y > 110 && y <= 150 && x > 90 && x < 230: // its cabin
					c = color.RGBA{0x44, 0x48, 0x55, 255}
				case y >= 185 && y < 210 && ((x-85)*(x-85)+(y-185)*(y-185) < 600 || (x-235)*(x-235)+(y-185)*(y-185) < 600):
					c = color.RGBA{0x11, 0x11, 0x11, 255}
				default:
					c.R, c.G, c.B = c.R+uint8(y/12), c.G+uint8(y/12), c.B+uint8(y/12)
				}
				img.SetRGBA(x, y, c)
			}
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(buf.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// confirmDialog waits for the dialog of an action to open and clicks its confirm
// button.
func confirmDialog(t *testing.T, ctx context.Context, action string) {
	t.Helper()
	dlg := `dialog[data-dialog="` + action + `"]`
	pageWaitJS(t, ctx, "the "+action+" dialog", `document.querySelector('`+dlg+`').open`)
	pageClick(t, ctx, dlg+" [data-dialog-confirm]")
}

// waitStatus waits until the detail page shows the reservation in state status.
func waitStatus(t *testing.T, ctx context.Context, status string) {
	t.Helper()
	pageWaitJS(t, ctx, "status "+status, `(document.querySelector('[data-detail-status]')||{}).getAttribute && document.querySelector('[data-detail-status]').getAttribute('data-detail-status') === `+jsString(status))
}

// noWiderThan fails when the page scrolls sideways on a screen of width w.
func noWiderThan(t *testing.T, ctx context.Context, what string, w int64) {
	t.Helper()
	if got := pageJS[int64](t, ctx, "document.documentElement.scrollWidth"); got > w {
		Screenshot(t, ctx, "too-wide-"+what)
		t.Errorf("%s is %d px wide on a %d px screen", what, got, w)
	}
}

// hasText reports whether the element's text contains want.
func hasText(t *testing.T, ctx context.Context, sel, want string) bool {
	t.Helper()
	return strings.Contains(pageText(t, ctx, sel), want)
}
