// Package e2e drives Debian's Chromium with chromedp against the real service on a
// temporary database, the way a customer or a clerk uses it. Tests skip, saying
// why, when Chromium is not installed, unless PARKING_E2E=required (CI), where its
// absence fails them.
package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds the browser: $PARKING_CHROMIUM, then Debian's names.
func chromiumPath() string {
	if p := os.Getenv("PARKING_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Viewport sizes used by the tests: a phone and a counter desktop.
var (
	Phone   = [2]int64{390, 844}
	Desktop = [2]int64{1280, 900}
)

// Browser starts a headless Chromium for the test and returns a context to run
// chromedp actions in. size is Phone or Desktop. Everything stops when the test ends.
func Browser(t *testing.T, size [2]int64) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("PARKING_E2E") == "required" {
			t.Fatal("PARKING_E2E=required but Chromium is not installed (apt-get install -y chromium)")
		}
		t.Skip("Chromium not installed: browser test skipped (apt-get install -y chromium, or set PARKING_E2E=required to fail instead)")
	}
	// Flags from DESIGN.md: without the background-networking ones Chromium keeps
	// trying to reach Google's hosts, which this network refuses.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// A Spanish visitor's browser: pages follow Accept-Language
		// (docs/languages.md), and these tests read the Spanish texts.
		chromedp.Flag("lang", "es-ES"),
		chromedp.Flag("accept-lang", "es-ES,es"),
		chromedp.WindowSize(int(size[0]), int(size[1])),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx, chromedp.WithErrorf(t.Logf))
	ctx, cancelTimeout := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])); err != nil {
		t.Fatalf("start Chromium (%s): %v", path, err)
	}
	return ctx
}

// Do runs chromedp steps in order and, on error, saves a screenshot and fails the
// test saying what was being done.
func Do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		Screenshot(t, ctx, "failed-"+what)
		t.Fatalf("%s: %v", what, err)
	}
}

// Get runs one chromedp action that returns a value (Text, Evaluate, Value…).
func Get[T any](t *testing.T, ctx context.Context, what string, action chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		Screenshot(t, ctx, "failed-"+what)
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// ArtifactsDir is where screenshots go: $PARKING_E2E_ARTIFACTS, or
// internal/e2e/artifacts (ignored by git).
func ArtifactsDir() string {
	if d := os.Getenv("PARKING_E2E_ARTIFACTS"); d != "" {
		return d
	}
	return "artifacts"
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// Screenshot saves a full-page PNG named after the test and name. It never fails
// the test: a missing screenshot must not hide the real failure.
func Screenshot(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 gives PNG; less gives JPEG
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	dir := ArtifactsDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("screenshot dir: %v", err)
		return ""
	}
	file := filepath.Join(dir, unsafeName.ReplaceAllString(t.Name()+"-"+name, "_")+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Logf("write screenshot: %v", err)
		return ""
	}
	return file
}

// DocScreenshot saves the page as docs/img/<name>.png for the README, only when
// PARKING_SCREENSHOTS names the directory to write to (normally docs/img from the
// repository root, given as an absolute path): by default tests write nothing
// into the repository.
func DocScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("PARKING_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 gives PNG
	if err != nil {
		t.Errorf("documentation screenshot %s: %v", name, err)
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Errorf("documentation screenshot dir: %v", err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Errorf("write documentation screenshot: %v", err)
	}
}
