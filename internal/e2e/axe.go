package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// AxeVersion is the axe-core release the accessibility tests run (docs/languages.md#accessibility).
// It is a test tool fetched from npm into a cache folder outside the repository,
// never committed.
const AxeVersion = "4.11.0"

var (
	axeOnce sync.Once
	axeJS   string
	axeErr  error
)

// axeDir is where axe-core is installed: $PARKING_AXE_DIR, else the user's cache
// folder (…/parking-e2e); .ci/run installs it there beforehand.
func axeDir() string {
	if d := os.Getenv("PARKING_AXE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "parking-e2e")
	}
	return filepath.Join(os.TempDir(), "parking-e2e")
}

// AxeSource is axe-core's script, installed with npm into axeDir when missing.
// Without npm or the package the test skips, or fails under PARKING_E2E=required.
func AxeSource(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		dir := axeDir()
		file := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(file); err != nil {
			npm, lerr := exec.LookPath("npm")
			if lerr != nil {
				axeErr = fmt.Errorf("axe-core is not installed in %s and npm is missing (apt-get install -y npm)", dir)
				return
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				axeErr = err
				return
			}
			cmd := exec.Command(npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, "axe-core@"+AxeVersion)
			if out, err := cmd.CombinedOutput(); err != nil {
				axeErr = fmt.Errorf("npm install axe-core@%s: %v\n%s", AxeVersion, err, out)
				return
			}
		}
		b, err := os.ReadFile(file)
		axeJS, axeErr = string(b), err
	})
	if axeErr != nil {
		if os.Getenv("PARKING_E2E") == "required" {
			t.Fatalf("PARKING_E2E=required but axe-core is unavailable: %v", axeErr)
		}
		t.Skipf("axe-core unavailable, accessibility test skipped: %v", axeErr)
	}
	return axeJS
}

// axeTags are the rules run: WCAG 2.1 levels A and AA.
const axeRun = `(function(){
  return axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']})
    .then(function (r) {
      return r.violations.map(function (v) {
        return v.id + ' (' + v.impact + '): ' + v.help + ' — ' + v.nodes.slice(0, 6).map(function (n) {
          return n.target.join(' ') + (n.failureSummary ? ' [' + n.failureSummary.replace(/\s+/g, ' ').slice(0, 200) + ']' : '');
        }).join(' | ') + (v.nodes.length > 6 ? ' | … ' + v.nodes.length + ' elements' : '');
      });
    });
})()`

// Axe runs axe-core's WCAG 2.1 A and AA rules on the page loaded in ctx and
// returns its violations, one line each (rule, impact, help, the elements).
func Axe(t *testing.T, ctx context.Context, src string) []string {
	t.Helper()
	if loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!window.axe")); err != nil || !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](src+"\n;!!window.axe")); err != nil {
			t.Fatalf("load axe-core: %v", err)
		}
	}
	return Get(t, ctx, "run axe", chromedp.Evaluate[[]string](axeRun, chromedp.EvalAwaitPromise))
}
