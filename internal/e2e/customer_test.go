package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/store"
)

// A customer on a phone: registers through the register page, starts from the
// home page's quick quote, books with the same phone (name, phone and email
// already filled in), finds the booking in the profile page, edits it (the new
// price shown live equals the pricing API's for the reservation's vehicle type,
// and is what gets stored), cancels it after a confirmation dialog, and changes
// personal data and password, with the refusals shown in place.
func TestCustomerFlowOnPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	ctx, console := phone(t)

	// Register.
	Do(t, ctx, "open the register page",
		chromedp.Navigate(a.URL+"/users/register"),
		chromedp.WaitVisible(chromedp.CSS("#full_name")),
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Marta Gil"),
		chromedp.SendKeys(chromedp.CSS("#email"), "marta@example.com"),
		chromedp.SendKeys(chromedp.CSS("#phone"), "655 123 456"),
		chromedp.SendKeys(chromedp.CSS("#password"), "marta-secreta"),
		chromedp.SendKeys(chromedp.CSS("#confirmPassword"), "marta-secreta"),
		chromedp.Click(chromedp.CSS("#privacy_ack")),
		chromedp.Submit(chromedp.CSS("#confirmPassword")))
	pageWaitJS(t, ctx, "the profile page", `location.pathname === '/users/profile' && `+pageVisible("[data-profile]"))
	if got := pageText(t, ctx, `[data-empty="active"]`); !strings.HasPrefix(got, "No tiene reservas activas") {
		t.Errorf("empty profile says %q", got)
	}
	// A new account's email is unverified: the banner says so, with the address
	// and a button for another link (docs/accounts.md#email-verification).
	if got := pageText(t, ctx, "[data-verify-banner]"); !strings.Contains(got, "Verifique su correo electrónico") ||
		!strings.Contains(got, "marta@example.com") || !strings.Contains(got, "Enviar otro enlace") {
		t.Errorf("verification banner = %q", got)
	}
	if got := pageText(t, ctx, ".site-nav"); !strings.Contains(got, "Mi cuenta") || !strings.Contains(got, "Reservar") {
		t.Errorf("customer navigation = %q", got)
	}
	Screenshot(t, ctx, "profile-empty")

	// The home page's quick quote opens the booking flow with the dates.
	entry, exit := localInput(a, 20, 8), localInput(a, 24, 20) // 4 days 12 h: 5 days
	Do(t, ctx, "open the home page", chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("[data-quick-quote]")))
	Screenshot(t, ctx, "home")
	DocScreenshot(t, ctx, "home")
	pageSet(t, ctx, "#entrada", entry)
	pageSet(t, ctx, "#salida", localInput(a, 19, 8))
	pageClick(t, ctx, `[data-quick-quote] button[type="submit"]`)
	pageWaitJS(t, ctx, "the quick quote's date error", pageVisible("#quote-error"))
	pageSet(t, ctx, "#salida", exit)
	pageClick(t, ctx, `[data-quick-quote] button[type="submit"]`)
	pageWaitJS(t, ctx, "the booking page", `location.pathname === '/booking' && `+pageVisible(`[data-step="1"]`))
	if got := pageValue(t, ctx, "#entry_date") + " " + pageValue(t, ctx, "#exit_date"); got != entry+" "+exit {
		t.Fatalf("booking dates = %q, want %q", got, entry+" "+exit)
	}
	pageClick(t, ctx, `input[name="id_main_service"][value="1"]`)
	waitPrice(t, ctx, "[data-price]", apiQuote(t, a, entry, exit, "TURISMO", 1, nil))
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`))
	if got := pageValue(t, ctx, "#full_name") + "|" + pageValue(t, ctx, "#phone") + "|" + pageValue(t, ctx, "#email"); got != "Marta Gil|+34655123456|marta@example.com" {
		t.Errorf("step 2 prefilled with %q, want the account's details", got)
	}
	Do(t, ctx, "vehicle", chromedp.SendKeys(chromedp.CSS("#license_plate"), "5678def"))
	pageSet(t, ctx, "#vehicle_type", "TURISMO") // each kind once: COCHE is not offered (docs/pricing.md#vehicle-types)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`))
	pageClick(t, ctx, "#privacy_ack")
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the confirmation", pageVisible(`[data-step="done"]`))
	id := confirmedID(t, ctx, a)

	// The profile lists it.
	pageClick(t, ctx, `a[href="/users/profile"].btn`)
	card := `[data-list="active"] [data-reservation="` + id + `"]`
	pageWaitJS(t, ctx, "the reservation in the profile", pageVisible(card))
	var storedCents int64
	if err := a.Store.DB().QueryRow(`SELECT total_price_cents FROM reservation WHERE id_reservation = $1`, id).Scan(&storedCents); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, card+` [data-res="total"]`); got != eurosText(centsText(storedCents)) {
		t.Errorf("card total = %q, want %q", got, eurosText(centsText(storedCents)))
	}
	if got := pageText(t, ctx, card+` [data-res-status]`); got != "PENDIENTE" {
		t.Errorf("card status = %q", got)
	}
	if got := pageText(t, ctx, card); !strings.Contains(got, "5678DEF") || !strings.Contains(got, "ECO") {
		t.Errorf("card = %q", got)
	}
	Screenshot(t, ctx, "profile-booked")

	// Edit: two more days, service MEET, an extra. The live price is the API's
	// for the reservation's own vehicle type (COCHE).
	pageClick(t, ctx, card+" [data-edit-toggle]")
	form := card + " [data-edit-form]"
	pageWaitJS(t, ctx, "the edit form", pageVisible(form))
	newExit := localInput(a, 26, 20)
	pageSet(t, ctx, form+` [name="exit_date"]`, newExit)
	pageSet(t, ctx, form+` [name="id_main_service"]`, "3")
	pageClick(t, ctx, form+` input[name="additional_services"][value="2"]`)
	want := apiQuote(t, a, entry, newExit, "COCHE", 3, []int{2})
	if want == centsText(storedCents) {
		t.Fatalf("test data: the edit should change the price (%s)", want)
	}
	waitPrice(t, ctx, form+" [data-edit-price]", want)
	if got := pageText(t, ctx, form+" [data-edit-total]"); got != eurosText(want) {
		t.Errorf("live edit price = %q, want %q", got, eurosText(want))
	}
	Screenshot(t, ctx, "profile-edit")
	pageClick(t, ctx, form+" [data-edit-save]")
	pageWaitJS(t, ctx, "the saved edit", pageVisible(card+" [data-res-message]")+" && !"+pageVisible(form))
	if got := pageText(t, ctx, card+` [data-res="total"]`); got != eurosText(want) {
		t.Errorf("card total after the edit = %q, want %q", got, eurosText(want))
	}
	if got := pageText(t, ctx, card+` [data-res="service"]`) + "|" + pageText(t, ctx, card+` [data-res="extras"]`); got != "MEET|Lavado interior" {
		t.Errorf("card service|extras after the edit = %q", got)
	}
	if err := a.Store.DB().QueryRow(`SELECT total_price_cents FROM reservation WHERE id_reservation = $1`, id).Scan(&storedCents); err != nil {
		t.Fatal(err)
	}
	if centsText(storedCents) != want {
		t.Errorf("stored total after the edit = %s, want %s", centsText(storedCents), want)
	}
	// A reload shows the same (the server's view of it).
	Do(t, ctx, "reload the profile", chromedp.Reload())
	pageWaitJS(t, ctx, "the profile again", pageVisible(card))
	if got := pageText(t, ctx, card+` [data-res="total"]`); got != eurosText(want) {
		t.Errorf("card total after reload = %q, want %q", got, eurosText(want))
	}

	// Cancel, through the confirmation dialog: first dismissed, then accepted.
	pageClick(t, ctx, card+" [data-cancel]")
	pageWaitJS(t, ctx, "the dialog", `document.querySelector('[data-cancel-dialog]').open`)
	if got := pageText(t, ctx, "[data-cancel-id]"); got != id {
		t.Errorf("dialog names reservation %q, want %s", got, id)
	}
	Screenshot(t, ctx, "profile-cancel-dialog")
	pageClick(t, ctx, "[data-cancel-dismiss]")
	pageWaitJS(t, ctx, "the dialog closed", `!document.querySelector('[data-cancel-dialog]').open`)
	var status string
	if err := a.Store.DB().QueryRow(`SELECT status FROM reservation WHERE id_reservation = $1`, id).Scan(&status); err != nil || status != "PENDIENTE" {
		t.Fatalf("after dismissing: status %q (%v), want PENDIENTE", status, err)
	}
	pageClick(t, ctx, card+" [data-cancel]")
	pageWaitJS(t, ctx, "the dialog again", `document.querySelector('[data-cancel-dialog]').open`)
	pageClick(t, ctx, "[data-cancel-confirm]")
	past := `[data-list="past"] [data-reservation="` + id + `"]`
	pageWaitJS(t, ctx, "the cancelled reservation in the history", pageVisible(past)+` && !document.querySelector('[data-cancel-dialog]').open`)
	if got := pageText(t, ctx, past+" [data-res-status]"); got != "CANCELADA" {
		t.Errorf("status shown = %q", got)
	}
	if got := pageText(t, ctx, "[data-flash]"); !strings.Contains(got, "cancelada") {
		t.Errorf("flash = %q", got)
	}
	if pageJS[bool](t, ctx, `!!document.querySelector('`+past+` [data-cancel], `+past+` [data-edit-toggle]')`) {
		t.Error("a cancelled reservation still offers actions")
	}
	var spot *string
	if err := a.Store.DB().QueryRow(`SELECT status, cod_parking_spot FROM reservation WHERE id_reservation = $1`, id).Scan(&status, &spot); err != nil {
		t.Fatal(err)
	}
	if status != "CANCELADA" || spot != nil {
		t.Errorf("stored status %q spot %v, want CANCELADA and no spot", status, spot)
	}
	Screenshot(t, ctx, "profile-cancelled")

	// Personal data: the new name in the header; a wrong current password refused
	// at its field.
	pageSet(t, ctx, "#nombre", "Marta Gil Ruiz")
	pageClick(t, ctx, `[data-account-form="profile"] button[type="submit"]`)
	pageWaitJS(t, ctx, "the saved data", pageVisible(`[data-account-form="profile"] [data-form-message]`))
	if got := pageText(t, ctx, ".whoami-name"); got != "Marta Gil Ruiz" {
		t.Errorf("header name = %q", got)
	}
	Do(t, ctx, "wrong current password",
		chromedp.SendKeys(chromedp.CSS("#currentPassword"), "no-es-esta"),
		chromedp.SendKeys(chromedp.CSS("#newPassword"), "otra-secreta"),
		chromedp.SendKeys(chromedp.CSS("#confirmPassword"), "otra-secreta"))
	pageClick(t, ctx, `[data-account-form="password"] button[type="submit"]`)
	pageWaitJS(t, ctx, "the password refusal", pageVisible("#currentPassword-error"))
	if got := pageText(t, ctx, "#currentPassword-error"); got != "La contraseña actual no es correcta." {
		t.Errorf("password error = %q", got)
	}
	pageSet(t, ctx, "#currentPassword", "marta-secreta")
	pageClick(t, ctx, `[data-account-form="password"] button[type="submit"]`)
	pageWaitJS(t, ctx, "the password changed", pageVisible(`[data-account-form="password"] [data-form-message]`)+` && document.querySelector('#currentPassword-error').hidden`)
	if pageValue(t, ctx, "#newPassword") != "" {
		t.Error("the password form kept the new password after success")
	}
	Screenshot(t, ctx, "profile-account")
	if w := pageJS[int](t, ctx, "document.documentElement.scrollWidth"); w > int(Phone[0]) {
		t.Errorf("the profile is %d px wide on a %d px screen", w, Phone[0])
	}
	noConsoleErrors(t, console(), "status of 401")
}
