package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The public booking flow on a 390×844 phone, from a link carrying the dates:
// live price equal to the pricing API's for the same input (TURISMO until the
// vehicle type is chosen, then that type), inline date errors, step 2 checks,
// back and forward between steps with the page's button and the browser's
// (values kept, also across a reload), a server refusal shown at the field it
// concerns, and the confirmation number equal to the stored reservation, which
// an administrator then sees on the day's board.
func TestBookingFlowOnPhone(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	apptest.Account(t, a, reservation.Admin, "Ana Admin", "ana@example.com", "", "admin-password")
	// A plate already on file as a COCHE: booking it as an SUV is refused (docs/input-rules.md#plates).
	postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Otro", "phone": "699999999", "license_plate": "9999ZZZ", "vehicle_type": "COCHE",
		"entry_date": localInput(a, 30, 9), "exit_date": localInput(a, 31, 9), "id_main_service": 1,
	}, http.StatusCreated)
	// docs/input-rules.md#phones: the phone typed below is on file under another name; the
	// confirmation shows the name typed, never the stored one.
	postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Titular Guardado", "phone": "612 345 678", "license_plate": "5555AAA", "vehicle_type": "COCHE",
		"entry_date": localInput(a, 40, 9), "exit_date": localInput(a, 41, 9), "id_main_service": 1,
	}, http.StatusCreated)

	ctx, console := phone(t)

	entry, exit := localInput(a, 10, 10), localInput(a, 13, 11) // 3 days and 1 hour: 3 days
	Do(t, ctx, "open the booking link",
		chromedp.Navigate(a.URL+"/booking?entrada="+entry+"&salida="+exit),
		chromedp.WaitVisible(chromedp.CSS(`[data-step="1"]`)))
	if got := pageValue(t, ctx, "#entry_date") + " " + pageValue(t, ctx, "#exit_date"); got != entry+" "+exit {
		t.Fatalf("dates from the link = %q, want %q", got, entry+" "+exit)
	}
	if loc := pageJS[string](t, ctx, "location.pathname + location.search"); loc != "/booking" {
		t.Errorf("address after start = %q: the link's dates should leave the address once applied", loc)
	}
	pageWaitJS(t, ctx, "the prompt to choose a service", `document.querySelector('[data-price-note]').textContent.includes('Elija')`)

	// Service TRANSFER (2) and the first extra: the price follows, for a TURISMO.
	pageClick(t, ctx, `input[name="id_main_service"][value="2"]`)
	pageClick(t, ctx, `input[name="additional_services"][value="1"]`)
	want := apiQuote(t, a, entry, exit, "TURISMO", 2, []int{1})
	waitPrice(t, ctx, "[data-price]", want)
	if got := pageText(t, ctx, "[data-price-value]"); got != eurosText(want) {
		t.Errorf("price shown = %q, want %q", got, eurosText(want))
	}
	if note := pageText(t, ctx, "[data-price-note]"); !strings.Contains(note, "3 días") || !strings.Contains(note, "turismo") {
		t.Errorf("price note = %q, want the days and the type quoted", note)
	}

	// Exit before entry: an inline error, no price; a later exit: a new price.
	pageSet(t, ctx, "#exit_date", localInput(a, 9, 10))
	pageWaitJS(t, ctx, "the date error", pageVisible("#dates-error"))
	if got := pageText(t, ctx, "#dates-error"); got != "La salida debe ser posterior a la entrada." {
		t.Errorf("date error = %q", got)
	}
	if pageJS[string](t, ctx, `document.querySelector('#exit_date').getAttribute('aria-invalid')`) != "true" {
		t.Error("the exit field is not marked invalid")
	}
	pageWaitJS(t, ctx, "no price for wrong dates", `!document.querySelector('[data-price]').hasAttribute('data-total')`)
	exit = localInput(a, 15, 10)
	pageSet(t, ctx, "#exit_date", exit)
	want = apiQuote(t, a, entry, exit, "TURISMO", 2, []int{1})
	waitPrice(t, ctx, "[data-price]", want)
	pageWaitJS(t, ctx, "the date error cleared", `document.querySelector('#dates-error').hidden`)

	// A slow answer to an older request must not overwrite a newer one: the next
	// quote is held back 1.5 s by the network (a wrapped fetch), the one after it
	// is not; the page ends showing the newer price.
	pageJS[bool](t, ctx, `(function(){var orig=window.fetch, n=0; window.slowStarted=false; window.slowDone=false;
		window.fetch=function(u,o){ if(String(u).indexOf('/api/pricing/dynamic')>=0 && n++===0){ window.slowStarted=true;
			return new Promise(function(res){ setTimeout(function(){ res(orig(u,o)); setTimeout(function(){window.slowDone=true;},200); }, 1500); }); }
			return orig(u,o); }; return true;})()`)
	staleExit := localInput(a, 11, 10)
	pageSet(t, ctx, "#exit_date", staleExit)
	pageWaitJS(t, ctx, "the slow request sent", `window.slowStarted`)
	pageSet(t, ctx, "#exit_date", exit)
	waitPrice(t, ctx, "[data-price]", want)
	pageWaitJS(t, ctx, "the slow answer arrived", `window.slowDone`)
	if got := pageJS[string](t, ctx, `document.querySelector('[data-price]').getAttribute('data-total')`); got != want {
		stale := apiQuote(t, a, entry, staleExit, "TURISMO", 2, []int{1})
		t.Errorf("price after the stale answer = %s, want %s (the stale quote was %s)", got, want, stale)
	}
	Screenshot(t, ctx, "booking-step1")

	// Step 2, through the page's button; the address follows.
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2", pageVisible(`[data-step="2"]`)+` && location.hash === '#paso-2'`)
	// Nothing typed yet: each required field says what is missing.
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 2 errors", pageVisible("#full_name-error")+" && "+pageVisible("#phone-error")+" && "+pageVisible("#license_plate-error")+" && "+pageVisible("#vehicle_type-error"))
	if pageJS[string](t, ctx, "location.hash") != "#paso-2" {
		t.Error("an incomplete step 2 moved on")
	}
	Screenshot(t, ctx, "booking-step2-errors")

	Do(t, ctx, "fill step 2",
		chromedp.SendKeys(chromedp.CSS("#full_name"), "Lucía Pérez"),
		chromedp.SendKeys(chromedp.CSS("#phone"), "612 345 678"),
		chromedp.SendKeys(chromedp.CSS("#email"), "lucia@example.com"),
		chromedp.SendKeys(chromedp.CSS("#license_plate"), "9999zzz"),
		chromedp.SendKeys(chromedp.CSS("#brand"), "Seat"),
		chromedp.SendKeys(chromedp.CSS("#model"), "Ateca"))
	if got := pageValue(t, ctx, "#license_plate"); got != "9999ZZZ" {
		t.Errorf("plate as typed = %q, want it upper-cased while typing", got)
	}
	pageSet(t, ctx, "#vehicle_type", "SUV")
	wantSUV := apiQuote(t, a, entry, exit, "SUV", 2, []int{1})
	waitPrice(t, ctx, "[data-price]", wantSUV)
	if wantSUV == want {
		t.Fatalf("test data: the SUV price %s should differ from the TURISMO one", wantSUV)
	}
	pageWaitJS(t, ctx, "step 2 errors cleared", `document.querySelector('#license_plate-error').hidden && document.querySelector('#vehicle_type-error').hidden`)
	Screenshot(t, ctx, "booking-step2")

	// The browser's back button: step 1 with everything as it was, priced as an SUV.
	Do(t, ctx, "browser back", chromedp.NavigateBack())
	pageWaitJS(t, ctx, "step 1 again", pageVisible(`[data-step="1"]`)+` && !location.hash`)
	if got := pageValue(t, ctx, "#exit_date"); got != exit {
		t.Errorf("exit after back = %q, want %q", got, exit)
	}
	if !pageJS[bool](t, ctx, `document.querySelector('input[name="id_main_service"][value="2"]').checked && document.querySelector('input[name="additional_services"][value="1"]').checked`) {
		t.Error("service or extra lost after back")
	}
	waitPrice(t, ctx, "[data-price]", wantSUV)
	// And forward: step 2 as typed.
	Do(t, ctx, "browser forward", chromedp.NavigateForward())
	pageWaitJS(t, ctx, "step 2 again", pageVisible(`[data-step="2"]`))
	if got := pageValue(t, ctx, "#full_name") + "|" + pageValue(t, ctx, "#license_plate") + "|" + pageValue(t, ctx, "#vehicle_type"); got != "Lucía Pérez|9999ZZZ|SUV" {
		t.Errorf("step 2 after forward = %q", got)
	}
	// A reload keeps the step and what was typed (sessionStorage).
	Do(t, ctx, "reload", chromedp.Reload())
	pageWaitJS(t, ctx, "step 2 after reload", pageVisible(`[data-step="2"]`)+` && document.querySelector('#phone').value === '612 345 678'`)
	waitPrice(t, ctx, "[data-price]", wantSUV)

	// Step 3: the summary and the breakdown, equal to the API's total.
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3", pageVisible(`[data-step="3"]`)+` && location.hash === '#paso-3'`)
	pageWaitJS(t, ctx, "the breakdown", `document.querySelector('[data-sum="total"]').textContent === `+jsString(eurosText(wantSUV)))
	summary := pageText(t, ctx, `[data-step="3"]`)
	for _, s := range []string{"9999ZZZ", "Seat Ateca", "Lucía Pérez", "612 345 678", "TRANSFER", "Lavado básico", "5 días", "× 1,25"} {
		if !strings.Contains(summary, s) {
			t.Errorf("summary lacks %q: %s", s, summary)
		}
	}
	if got := pageText(t, ctx, "[data-next]"); got != "Confirmar reserva" {
		t.Errorf("step 3 button = %q", got)
	}
	Screenshot(t, ctx, "booking-step3")
	DocScreenshot(t, ctx, "booking")

	// The page's own back button, then on again.
	pageClick(t, ctx, "[data-back]")
	pageWaitJS(t, ctx, "step 2 from the back button", pageVisible(`[data-step="2"]`)+` && location.hash === '#paso-2'`)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3 again", pageVisible(`[data-step="3"]`))

	// docs/manage-booking.md#pages: the page books only with "He leído la política de privacidad".
	var before, after int
	_ = a.Store.DB().QueryRow(`SELECT COUNT(*) FROM reservation`).Scan(&before)
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the privacy acknowledgement asked for", pageVisible("#privacy_ack-error"))
	if err := a.Store.DB().QueryRow(`SELECT COUNT(*) FROM reservation`).Scan(&after); err != nil || after != before {
		t.Fatalf("a booking without the privacy acknowledgement was sent: %d reservations before, %d after (%v)", before, after, err)
	}
	pageClick(t, ctx, "#privacy_ack") // the box stays ticked for the confirmations below

	// Confirm: the plate is on file as a COCHE, so the server refuses; the page
	// takes the customer to the plate field with the server's message.
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the refusal at the plate", pageVisible(`[data-step="2"]`)+" && "+pageVisible("#license_plate-error"))
	if got := pageText(t, ctx, "#license_plate-error"); !strings.Contains(got, "9999ZZZ ya está registrada con el tipo de vehículo COCHE") {
		t.Errorf("plate error = %q", got)
	}
	if pageJS[string](t, ctx, "document.activeElement.id") != "license_plate" {
		t.Error("focus is not on the plate field after the refusal")
	}
	Screenshot(t, ctx, "booking-server-error")
	pageSet(t, ctx, "#license_plate", "")
	Do(t, ctx, "fix the plate", chromedp.SendKeys(chromedp.CSS("#license_plate"), "1234 abc"))
	if got := pageValue(t, ctx, "#license_plate"); got != "1234 ABC" {
		t.Errorf("plate = %q", got)
	}
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "step 3 once more", pageVisible(`[data-step="3"]`)+` && document.querySelector('[data-sum="total"]').textContent === `+jsString(eurosText(wantSUV)))
	pageClick(t, ctx, "[data-next]")
	pageWaitJS(t, ctx, "the confirmation", pageVisible(`[data-step="done"]`)+` && document.querySelector('[data-done="reference"]').textContent !== ''`)
	Screenshot(t, ctx, "booking-confirmed")

	id, err := strconv.ParseInt(confirmedID(t, ctx, a), 10, 64)
	if err != nil {
		t.Fatalf("confirmation number: %v", err)
	}
	// docs/manage-booking.md#arrival: what the customer needs to arrive, and no internal number.
	for _, sel := range []string{`[data-done="entry"]`, `[data-done="exit"]`, `[data-done="service"]`, `[data-done="total"]`, "[data-arrival-name]"} {
		if pageText(t, ctx, sel) == "" {
			t.Errorf("the confirmation's %s is empty", sel)
		}
	}
	pageWaitJS(t, ctx, "the QR code shown", pageVisible("[data-done-qr]")+` && document.querySelector('[data-done-qr-img]').complete && document.querySelector('[data-done-qr-img]').naturalWidth > 0`)
	if body := pageText(t, ctx, `[data-step="done"]`); strings.Contains(body, "interno") {
		t.Errorf("the confirmation shows an internal number: %s", body)
	}
	var plate, status, phone string
	var cents int64
	err = a.Store.DB().QueryRow(`SELECT v.license_plate, r.status, r.total_price_cents, c.phone FROM reservation r
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle JOIN customer c ON c.id_customer = r.id_customer
		WHERE r.id_reservation = $1`, id).Scan(&plate, &status, &cents, &phone)
	if err != nil {
		t.Fatalf("reservation %d in the database: %v", id, err)
	}
	var acked, marketing int
	if err := a.Store.DB().QueryRow(`SELECT COUNT(privacy_ack_at), COUNT(marketing_consent_at) FROM reservation WHERE id_reservation = $1`, id).Scan(&acked, &marketing); err != nil || acked != 1 || marketing != 0 {
		t.Errorf("consents stored: privacy %d marketing %d (%v), want 1 and 0 (the marketing box was not ticked)", acked, marketing, err)
	}
	if plate != "1234ABC" || status != "PENDIENTE" || centsText(cents) != wantSUV || phone != "+34612345678" {
		t.Errorf("stored: plate %q status %q total %s phone %q; want 1234ABC PENDIENTE %s +34612345678", plate, status, centsText(cents), phone, wantSUV)
	}
	if got := pageText(t, ctx, `[data-done="total"]`); got != eurosText(wantSUV) {
		t.Errorf("confirmed total = %q, want %q", got, eurosText(wantSUV))
	}
	// The page sent an Idempotency-Key with the booking (docs/public-booking.md#retries-idempotency-key): its answer is
	// stored for a retry of the same attempt.
	var keyLen, keyed int
	if err := a.Store.DB().QueryRow(`SELECT COUNT(*), COALESCE(MAX(LENGTH(idem_key)), 0) FROM idempotency_key
		WHERE route = 'public-booking' AND state = 'done' AND body LIKE '%"id_reservation":' || $1 || ',%'`, strconv.FormatInt(id, 10)).
		Scan(&keyed, &keyLen); err != nil || keyed != 1 || keyLen < 32 {
		t.Errorf("stored keys for the booking: %d of length %d (%v), want one random key", keyed, keyLen, err)
	}
	if got := pageText(t, ctx, `[data-done="name"]`); got != "Lucía Pérez" || strings.Contains(pageText(t, ctx, "body"), "Titular Guardado") {
		t.Errorf("confirmation shows holder %q (want the name typed, and never the stored one)", got)
	}
	if pageJS[string](t, ctx, "location.hash") != "#reserva-confirmada" {
		t.Error("the address does not say the booking is confirmed")
	}
	if pageJS[bool](t, ctx, `sessionStorage.getItem('parking.booking') !== null`) {
		t.Error("the typed data outlived the booking")
	}
	// Back from the confirmation starts afresh instead of offering to book twice.
	Do(t, ctx, "browser back after confirming", chromedp.NavigateBack())
	pageWaitJS(t, ctx, "a fresh step 1", pageVisible(`[data-step="1"]`)+` && !document.querySelector('input[name="id_main_service"]:checked')`)

	// The administrator sees it on the entry day's board.
	token := adminToken(t, a, "ana@example.com", "admin-password")
	req, _ := http.NewRequest("GET", a.URL+"/api/reservations?date="+entry[:10], nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var board struct {
		Entries []struct {
			ID           int64  `json:"id_reservation"`
			LicensePlate string `json:"license_plate"`
			CustomerName string `json:"customer_name"`
			Status       string `json:"status"`
		} `json:"entries"`
	}
	if err := json.NewDecoder(res.Body).Decode(&board); err != nil || res.StatusCode != 200 {
		t.Fatalf("board: %d %v", res.StatusCode, err)
	}
	found := false
	for _, e := range board.Entries {
		if e.ID == id {
			found = true
			if e.LicensePlate != "1234ABC" || e.CustomerName != "Lucía Pérez" || e.Status != "PENDIENTE" {
				t.Errorf("board item = %+v", e)
			}
		}
	}
	if !found {
		t.Errorf("reservation %d not on the board of %s: %+v", id, entry[:10], board.Entries)
	}
	if w := pageJS[int](t, ctx, "document.documentElement.scrollWidth"); w > int(Phone[0]) {
		t.Errorf("the page is %d px wide on a %d px screen", w, Phone[0])
	}
	noConsoleErrors(t, console(), "status of 400")
}

// waitPrice waits until the price element sel shows the amount want ("51.00").
func waitPrice(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	pageWaitJS(t, ctx, "price "+want, `document.querySelector(`+jsString(sel)+`).getAttribute('data-total') === `+jsString(want)+
		` && document.querySelector(`+jsString(sel)+`).getAttribute('data-state') === 'ok'`)
}
