package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/booking"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The other administrator pages on a desktop: the walk-in form (live price equal
// to the pricing API's, a refusal shown at its field, then the new reservation's
// page); the history (filters as a GET form, 15 per page with first/previous/
// next/last, each row linking to its detail, the CSV export link carrying the
// filters); the catalog (a price changed, a bad rate band refused in place, a
// vehicle type added, a rate deleted after confirming). Then the detail and the
// history on a phone: usable, no sideways scrolling.
func TestAdminPagesOnDesktop(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	// A plate on file as a COCHE, and 20 reservations for the history.
	postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Otro", "phone": "699999999", "license_plate": "9999ZZZ", "vehicle_type": "COCHE",
		"entry_date": localInput(a, 30, 9), "exit_date": localInput(a, 31, 9), "id_main_service": 1,
	}, http.StatusCreated)
	loc := a.Config.Location
	for i := range 20 {
		entry := apptest.Now(a).In(loc).AddDate(0, 0, 2+i)
		exit := entry.AddDate(0, 0, 2)
		name := "Cliente Serie"
		if i%4 == 0 {
			name = "Beatriz Ordóñez"
		}
		if _, err := a.Booking.Create(context.Background(), booking.WalkIn, booking.NewBooking{
			FullName: fmt.Sprintf("%s %02d", name, i), Phone: fmt.Sprintf("6100000%02d", i), LicensePlate: fmt.Sprintf("%04dHST", i),
			VehicleType: "COCHE", MainService: 1 + int64(i%3), Entry: entry, Exit: &exit,
		}); err != nil {
			t.Fatal(err)
		}
	}

	ctx, console := desktop(t)
	workerLogin(t, ctx, a, "ana@example.com", "admin-password")

	// Walk-in.
	pageClick(t, ctx, `.site-nav a[href="/admin/reservations/new"]`)
	pageWaitJS(t, ctx, "the walk-in form", `location.pathname === '/admin/reservations/new' && `+pageVisible("[data-walkin]"))
	entry := pageValue(t, ctx, "#entry_date")
	if entry == "" {
		t.Fatal("the entry date must default to now")
	}
	exit := localInput(a, 4, 18)
	pageSet(t, ctx, "#exit_date", exit)
	pageSet(t, ctx, "#vehicle_type", "SUV")
	pageSet(t, ctx, "#id_main_service", "2")
	pageClick(t, ctx, `[data-walkin] input[name="additional_services"][value="2"]`)
	waitPrice(t, ctx, "[data-walkin-price]", apiQuote(t, a, entry, exit, "SUV", 2, []int{2}))
	Do(t, ctx, "type the customer and the vehicle",
		chromedp.SendKeys(chromedp.CSS("#phone"), "644555666"),
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Íñigo Ybarra"),
		chromedp.SendKeys(chromedp.CSS("#license_plate"), "9999zzz"),
		chromedp.SendKeys(chromedp.CSS("#cod_parking_spot"), "d-11"))
	if got := pageValue(t, ctx, "#license_plate") + " " + pageValue(t, ctx, "#cod_parking_spot"); got != "9999ZZZ D-11" {
		t.Errorf("plate and spot as typed = %q, want them upper-cased", got)
	}
	Screenshot(t, ctx, "walkin")
	// The plate is on file as a COCHE: refused, shown at the plate.
	pageClick(t, ctx, "[data-walkin-submit]")
	pageWaitJS(t, ctx, "the plate refusal", pageVisible("#license_plate-error"))
	if got := pageText(t, ctx, "[data-form-error]"); !strings.Contains(got, "9999ZZZ") {
		t.Errorf("walk-in refusal = %q", got)
	}
	Screenshot(t, ctx, "walkin-refused")
	pageSet(t, ctx, "#license_plate", "1357JKL")
	pageClick(t, ctx, "[data-walkin-submit]")
	pageWaitJS(t, ctx, "the new reservation's page", `location.pathname.startsWith('/admin/reservations/details/') && location.search === '?created=true' && `+pageVisible("[data-detail]"))
	if got := pageText(t, ctx, "[data-flash]"); got != "Reserva creada correctamente." {
		t.Errorf("created message = %q", got)
	}
	if got := pageText(t, ctx, `[data-fact="plate"]`) + " " + pageText(t, ctx, `[data-fact="spot"]`) + " " + pageText(t, ctx, `[data-fact="customer"]`); got != "1357JKL D-11 Íñigo Ybarra" {
		t.Errorf("walk-in detail shows %q", got)
	}
	want := apiQuote(t, a, entry, exit, "SUV", 2, []int{2})
	if got := pageText(t, ctx, "[data-detail-total]"); got != eurosText(want) {
		t.Errorf("walk-in total = %q, want %q (the live price)", got, eurosText(want))
	}

	// History: 22 reservations, 15 a page.
	pageClick(t, ctx, `.site-nav a[href="/admin/history"]`)
	pageWaitJS(t, ctx, "the history", `location.pathname === '/admin/history' && `+pageVisible("[data-history-rows]"))
	if n := pageJS[int](t, ctx, `document.querySelectorAll('[data-history-rows] tr').length`); n != 15 {
		t.Errorf("first page has %d rows, want 15", n)
	}
	if got := pageText(t, ctx, "[data-page-pos]"); got != "Página 1 de 2" {
		t.Errorf("pager = %q", got)
	}
	if got := pageText(t, ctx, "[data-result-count]"); got != "Reservas 1–15 de 22" {
		t.Errorf("count = %q", got)
	}
	Screenshot(t, ctx, "history")
	pageClick(t, ctx, `[data-page="last"]`)
	pageWaitJS(t, ctx, "page 2", `location.search === '?page=2' && document.querySelectorAll('[data-history-rows] tr').length === 7`)
	pageClick(t, ctx, `[data-page="first"]`)
	pageWaitJS(t, ctx, "page 1 again", `location.search === '' && document.querySelectorAll('[data-history-rows] tr').length === 15`)
	// Filters: a name with accents, typed without them is not the same text; the
	// search is on the stored text.
	pageSet(t, ctx, "#search", "Ordóñez")
	pageSet(t, ctx, "#status", "PENDIENTE")
	pageClick(t, ctx, `[data-history-filters] button[type="submit"]`)
	pageWaitJS(t, ctx, "the filtered history", `location.search.includes('search=') && document.querySelectorAll('[data-history-rows] tr').length === 5`)
	if loc := pageJS[string](t, ctx, "location.search"); strings.Contains(loc, "dateFrom") {
		t.Errorf("empty filters are left out of the address: %s", loc)
	}
	if got := pageJS[string](t, ctx, `document.querySelector('[data-export]').getAttribute('href')`); got != "/admin/history.csv?search=Ord%C3%B3%C3%B1ez&status=PENDIENTE" {
		t.Errorf("export link = %q, want the filters", got)
	}
	if !pageJS[bool](t, ctx, `!document.querySelector('.pager')`) {
		t.Error("one page of results needs no pager")
	}
	Screenshot(t, ctx, "history-filtered")
	// A reversed pair of booking days is refused in the page, naming the pair.
	pageSet(t, ctx, "#bookedFrom", "2027-01-12")
	pageSet(t, ctx, "#bookedTo", "2027-01-11")
	pageClick(t, ctx, `[data-history-filters] button[type="submit"]`)
	pageWaitJS(t, ctx, "the reversed days refused", `(document.querySelector('[data-filter-error]') || {}).textContent === '«Reservada desde» es posterior a «Reservada hasta».' && document.activeElement.id === 'bookedTo'`)
	if loc := pageJS[string](t, ctx, "location.search"); strings.Contains(loc, "booked") {
		t.Errorf("a refused filter was sent: %s", loc)
	}
	pageClick(t, ctx, `[data-history-rows] tr:first-child a`)
	pageWaitJS(t, ctx, "a row's detail", `location.pathname.startsWith('/admin/reservations/details/') && document.querySelector('[data-fact="customer"]').textContent.includes('Ordóñez')`)

	// Catalog.
	pageClick(t, ctx, `.site-nav a[href="/admin/catalog"]`)
	pageWaitJS(t, ctx, "the catalog", `location.pathname === '/admin/catalog' && `+pageVisible("[data-catalog]"))
	Screenshot(t, ctx, "catalog")
	// An extra's price, written the Spanish way.
	pageSet(t, ctx, "#extra-1-price", "17,50")
	pageClick(t, ctx, `form[data-extra="1"] button[type="submit"]`)
	pageWaitJS(t, ctx, "the extra saved", `(document.querySelector('form[data-extra="1"] [data-cat-msg]')||{}).textContent === 'Servicio adicional actualizado.'`)
	if got := pageValue(t, ctx, "#extra-1-price"); got != "17,50" {
		t.Errorf("extra price after saving = %q", got)
	}
	if q := apiQuote(t, a, localInput(a, 40, 9), localInput(a, 41, 9), "COCHE", 1, []int{1}); q != "29.50" {
		t.Errorf("a quote with the extra after the change = %s, want 29.50 (12 + 17.50)", q)
	}
	// A band whose end is before its start: refused at the fields.
	pageSet(t, ctx, "#rate-1-min", "5")
	pageSet(t, ctx, "#rate-1-max", "2")
	pageClick(t, ctx, `form[data-rate="1"] button[type="submit"]:not([data-delete-rate])`)
	pageWaitJS(t, ctx, "the band refusal", `document.querySelector('form[data-rate="1"] [data-cat-msg]').classList.contains('is-error') && document.querySelector('#rate-1-max').getAttribute('aria-invalid') === 'true'`)
	if got := pageText(t, ctx, `form[data-rate="1"] [data-cat-msg]`); !strings.Contains(got, "«Hasta (días)»") || strings.Contains(got, "max_days") {
		t.Errorf("band refusal = %q, want the field as its form labels it, never max_days", got)
	}
	Screenshot(t, ctx, "catalog-refused")
	// A new vehicle type.
	pageSet(t, ctx, "#type-new-name", "QUAD")
	pageSet(t, ctx, "#type-new-coef", "0,75")
	pageClick(t, ctx, `.type-new button[type="submit"]`)
	pageWaitJS(t, ctx, "the new type", `!!document.querySelector('form[data-type="QUAD"]') && document.querySelector('#type-QUAD-coef').value === '0,75'`)
	// Delete MEET's last band, after confirming.
	pageClick(t, ctx, `form[data-rate="12"] [data-delete-rate]`)
	pageWaitJS(t, ctx, "the delete dialog", `document.querySelector('dialog[data-dialog="delete-rate"]').open`)
	if got := pageText(t, ctx, "[data-dialog-days]"); got != "16 días o más" {
		t.Errorf("delete dialog names %q", got)
	}
	pageClick(t, ctx, `dialog[data-dialog="delete-rate"] [data-dialog-confirm]`)
	pageWaitJS(t, ctx, "the band gone", `!document.querySelector('form[data-rate="12"]') && document.querySelector('#rate-new-3-min').form.querySelector('[data-cat-msg]').textContent === 'Tarifa eliminada.'`)
	noWiderThan(t, ctx, "catalog", Desktop[0])

	// On a phone.
	Do(t, ctx, "phone viewport", chromedp.EmulateViewport(Phone[0], Phone[1], chromedp.EmulateMobile))
	Do(t, ctx, "history on a phone", chromedp.Navigate(a.URL+"/admin/history"), chromedp.WaitVisible(chromedp.CSS("[data-history-rows]")))
	noWiderThan(t, ctx, "history", Phone[0])
	Screenshot(t, ctx, "history-phone")
	pageClick(t, ctx, `[data-history-rows] tr:first-child a`)
	pageWaitJS(t, ctx, "the detail on a phone", pageVisible("[data-detail]"))
	noWiderThan(t, ctx, "detail", Phone[0])
	Screenshot(t, ctx, "detail-phone")
	Do(t, ctx, "walk-in on a phone", chromedp.Navigate(a.URL+"/admin/reservations/new"), chromedp.WaitVisible(chromedp.CSS("[data-walkin]")))
	noWiderThan(t, ctx, "walk-in", Phone[0])
	Do(t, ctx, "catalog on a phone", chromedp.Navigate(a.URL+"/admin/catalog"), chromedp.WaitVisible(chromedp.CSS("[data-catalog]")))
	noWiderThan(t, ctx, "catalog", Phone[0])
	Do(t, ctx, "parking on a phone", chromedp.Navigate(a.URL+"/admin/parking"), chromedp.WaitVisible(chromedp.CSS("[data-parking]")))
	noWiderThan(t, ctx, "parking", Phone[0])
	Screenshot(t, ctx, "parking-phone")

	// The refused walk-in answers 400 and the band 409, which the browser logs as
	// failed resource loads; anything else is a fault of the pages.
	noConsoleErrors(t, console(), "status of 400", "status of 409")
}
