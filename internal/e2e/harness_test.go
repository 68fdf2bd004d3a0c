package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/store"
)

// The harness itself: Chromium starts, reaches the service and reads a page.
func TestBrowserReachesService(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	ctx := Browser(t, Phone)
	Do(t, ctx, "open /api/catalog", chromedp.Navigate(a.URL+"/api/catalog"))
	body := Get(t, ctx, "read body", chromedp.Text(chromedp.CSS("body")))
	if !strings.Contains(body, `"name":"ECO"`) {
		t.Errorf("catalog page text = %.200s", body)
	}
	width := Get(t, ctx, "read viewport", chromedp.Evaluate[int64](`window.innerWidth`))
	if width != Phone[0] {
		t.Errorf("viewport width = %d, want %d", width, Phone[0])
	}
	if f := Screenshot(t, ctx, "catalog"); f == "" {
		t.Error("no screenshot written")
	}
}
