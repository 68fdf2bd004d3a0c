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
	bookedID := int64(data["id_reservation"].(float64))
	manage := data["manage_url"].(string)
	if i := strings.Index(manage, "/reserva/"); i >= 0 {
		manage = manage[i:]
	}

	// A walk-in with its spot and the photos a start needs, so the detail page
	// offers its start dialog.
	other, _ := apptest.Admin(t, a)
	walkIn := adminCall(t, other, a, "POST", "/admin/reservations/new", map[string]any{
		"phone": "622333444", "full_name": "Jorge Núñez", "license_plate": "7777XYZ", "brand": "Renault", "model": "Clio",
		"vehicle_type": "COCHE", "id_main_service": 1, "entry_date": localInput(a, 0, 0), "exit_date": localInput(a, 2, 12),
		"cod_parking_spot": "C-03",
	}, http.StatusCreated)
	id := int64(walkIn["data"].(map[string]any)["id_reservation"].(float64))
	photos := photoServer(t)
	for i := 1; i <= reservation.MinPhotosToStart; i++ {
		adminCall(t, other, a, "POST", fmt.Sprintf("/admin/reservations/%d/photos", id),
			map[string]any{"file_path": fmt.Sprintf("%s/car-%d.png", photos, i)}, http.StatusCreated)
	}

	// A partner with a key and one booking of its own, for the partners page, its
	// statement and a partner booking's detail (docs/partners.md).
	partner := adminCall(t, other, a, "POST", "/admin/partners", map[string]any{"name": "Vuelos SA", "commission_percent": 10, "active": true}, http.StatusCreated)
	pid := int64(partner["partner"].(map[string]any)["id"].(float64))
	key := adminCall(t, other, a, "POST", fmt.Sprintf("/admin/partners/%d/keys", pid), nil, http.StatusCreated)["key"].(string)
	sold := partnerBook(t, a, key, map[string]any{
		"partner_reference": "VS-0001", "full_name": "Luis Viajero", "phone": "633444555", "email": "luis@example.com", "license_plate": "5555BCD",
		"vehicle_type": "COCHE", "entry_date": localInput(a, 6, 9), "exit_date": localInput(a, 9, 9), "id_main_service": 1,
	})
	soldID := int64(sold["data"].(map[string]any)["id_reservation"].(float64))

	public := []string{"/", "/booking", "/booking#paso-2", "/privacidad", "/condiciones", "/accesibilidad", "/reserva", manage,
		"/users/login", "/users/register", "/users/password/forgot", "/users/password/reset?token=x", "/no-such-page"}
	customerPages := []string{"/users/profile"}
	staff := []string{"/admin/dashboard", "/admin/reservations/new", fmt.Sprintf("/admin/reservations/details/%d", id), fmt.Sprintf("/admin/reservations/details/%d", bookedID),
		"/admin/history", "/admin/parking", "/admin/audit", "/admin/catalog", "/admin/settings", "/admin/staff", "/admin/reports",
		"/admin/partners", fmt.Sprintf("/admin/partners/%d/statement?month=%s", pid, localInput(a, 6, 9)[:7]), fmt.Sprintf("/admin/reservations/details/%d", soldID)}

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
	// The booking's later steps and its refusals, as a visitor sees them.
	entry, exit := localInput(a, 10, 10), localInput(a, 13, 11)
	for _, lang := range []string{"es", "en", "de", "fr"} {
		// A fresh visit: nothing typed before (the page keeps it in sessionStorage).
		pageJS[bool](t, ctx, `(function(){ try { sessionStorage.clear(); } catch (e) {} return true; })()`)
		Do(t, ctx, "open the booking in "+lang, chromedp.Navigate(a.URL+"/booking?lang="+lang+"&entrada="+entry+"&salida="+exit),
			chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
		pageClick(t, ctx, `input[name="id_main_service"][value="1"]`)
		pageClick(t, ctx, "[data-next]")
		pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))
		pageClick(t, ctx, "[data-next]")
		pageWaitJS(t, ctx, "step 2's errors", pageVisible("#phone-error"))
		for _, v := range Axe(t, ctx, src) {
			found = append(found, fmt.Sprintf("public %s /booking step 2 with errors: %s", lang, v))
		}
		pageSet(t, ctx, "#full_name", "Lucía Pérez")
		pageSet(t, ctx, "#phone", "612 345 678")
		pageSet(t, ctx, "#license_plate", "4321JKL")
		pageSet(t, ctx, "#vehicle_type", "TURISMO") // each kind once: COCHE is not offered (docs/pricing.md#vehicle-types)
		pageClick(t, ctx, "[data-next]")
		pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))
		for _, v := range Axe(t, ctx, src) {
			found = append(found, fmt.Sprintf("public %s /booking step 3: %s", lang, v))
		}
	}
	session(t, ctx, a, customer.ID)
	check("customer", customerPages)
	session(t, ctx, a, admin.ID)
	check("staff", staff)
	// The detail page's start dialog, open.
	for _, lang := range []string{"es", "en", "de", "fr"} {
		Do(t, ctx, "open the detail in "+lang, chromedp.Navigate(fmt.Sprintf("%s/admin/reservations/details/%d?lang=%s", a.URL, id, lang)),
			chromedp.WaitVisible(chromedp.CSS("[data-detail]")))
		pageClick(t, ctx, `[data-action="start"]`)
		pageWaitJS(t, ctx, "the start dialog", `document.querySelector('dialog[data-dialog="start"]').open`)
		for _, v := range Axe(t, ctx, src) {
			found = append(found, fmt.Sprintf("staff %s start dialog: %s", lang, v))
		}
	}
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
