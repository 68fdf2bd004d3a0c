package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Every public, customer, manage-link and staff page, in each of the four
// languages, passes axe-core's WCAG 2.1 A and AA rules with no violation
// (docs/languages.md#accessibility). One browser, one load per page and language;
// the test lists every violation it finds, page by page.
func TestPagesPassAxe(t *testing.T) {
	src := AxeSource(t)
	a := apptest.Start(t, store.SQLite)
	admin := apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	customer := apptest.Account(t, a, reservation.Registered, "Carla Cliente", "carla@example.com", "611222333", "customer-password")
	apptest.VerifyEmail(t, a, customer.ID)
	booked := postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Carla Cliente", "phone": "611222333", "email": "carla@example.com", "license_plate": "1234ABC", "vehicle_type": "COCHE",
		"entry_date": localInput(a, 5, 9), "exit_date": localInput(a, 8, 9), "id_main_service": 1, "privacy_ack": true,
	}, http.StatusCreated)
	data := booked["data"].(map[string]any)
	id := int64(data["id_reservation"].(float64))
	manage := data["manage_url"].(string)
	if i := strings.Index(manage, "/reserva/"); i >= 0 {
		manage = manage[i:]
	}

	public := []string{"/", "/booking", "/booking#paso-2", "/privacidad", "/condiciones", "/accesibilidad", "/reserva", manage,
		"/users/login", "/users/register", "/users/password/forgot", "/users/password/reset?token=x", "/no-such-page"}
	customerPages := []string{"/users/profile"}
	staff := []string{"/admin/dashboard", "/admin/reservations/new", fmt.Sprintf("/admin/reservations/details/%d", id),
		"/admin/history", "/admin/parking", "/admin/audit", "/admin/catalog", "/admin/settings", "/admin/staff"}

	ctx := Browser(t, Desktop)
	var found []string
	check := func(who string, paths []string) {
		for _, lang := range []string{"es", "en", "de", "fr"} {
			for _, p := range paths {
				u := p
				sep := "?"
				if strings.Contains(u, "?") {
					sep = "&"
				}
				if i := strings.Index(u, "#"); i >= 0 {
					u = u[:i] + sep + "lang=" + lang + u[i:]
				} else {
					u += sep + "lang=" + lang
				}
				Do(t, ctx, "open "+u, chromedp.Navigate(a.URL+u), chromedp.WaitReady(chromedp.CSS("main")))
				pageWaitJS(t, ctx, "the page's scripts", `document.readyState === 'complete'`)
				for _, v := range Axe(t, ctx, src) {
					found = append(found, fmt.Sprintf("%s %s %s: %s", who, lang, p, v))
				}
			}
		}
	}
	check("public", public)
	session(t, ctx, a, customer.ID)
	check("customer", customerPages)
	session(t, ctx, a, admin.ID)
	check("staff", staff)
	for _, f := range found {
		t.Error(f)
	}
}

// session gives the browser a signed-in session of user id, as the login page does.
func session(t *testing.T, ctx context.Context, a *app.App, id int64) {
	t.Helper()
	token, err := a.Accounts.StartSession(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: "parking_session", Value: token, URL: a.URL, Path: "/"}); err != nil {
		t.Fatalf("session cookie: %v", err)
	}
}
