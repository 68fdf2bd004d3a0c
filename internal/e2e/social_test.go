package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/oidctest"
	"parking/internal/store"
)

// Social login in the browser on a phone (docs/social-login.md): the login
// page's "Continuar con …" button goes to the provider (a real OpenID provider
// running in the test), which sends the browser back to the service; the customer
// lands on the profile of the account the first login opened.
func TestSocialLoginOnPhone(t *testing.T) {
	e := oidctest.Start(t, store.SQLite)
	e.User("sub-lucia", "lucia@example.com", true)
	ctx := Browser(t, Phone)
	console := watchConsole(ctx)

	Do(t, ctx, "open the login page on a phone",
		chromedp.EmulateViewport(Phone[0], Phone[1], chromedp.EmulateMobile),
		chromedp.Navigate(e.App.URL+"/users/login"),
		chromedp.WaitVisible(chromedp.CSS(`[data-social-provider="mock"]`)),
	)
	if got := textOf(t, ctx, `[data-social-provider="mock"]`); got != "Continuar con "+oidctest.ProviderName {
		t.Fatalf("button text = %q", got)
	}
	Screenshot(t, ctx, "social-login-button-phone")
	Do(t, ctx, "continue with the provider",
		chromedp.Click(chromedp.CSS(`[data-social-provider="mock"]`)),
	)
	waitUntil(t, ctx, "the profile page", `location.pathname === "/users/profile" && document.readyState === "complete"`)
	if body := textOf(t, ctx, "main"); !strings.Contains(body, "lucia") {
		t.Errorf("profile after social login does not show the account: %q", body)
	}
	Screenshot(t, ctx, "social-login-profile-phone")
	noConsoleErrors(t, console())
}
