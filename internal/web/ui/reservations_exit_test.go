package ui_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/localtime"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The exit through the routes (docs/exit.md): the checkout preview, the finalize
// that charges a late car its real stay with expected_total, the detail record,
// the receipt (JSON, page, PDF) and the invoice notification.
func TestExitRoutes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		c, admin := apptest.Admin(t, a)
		e := &webtest.AdminEnv{T: t, A: a, C: c}
		facility(t, e, "21")
		// ECO, COCHE, 3 days from 1 March 10:00 (12 €/day): 36 €.
		id := e.StartedReservation(1, "A-1")
		r := e.Stored(id)
		bookedExit := *r.Exit
		loc := cfg.Location
		preview := fmt.Sprintf("/admin/reservations/%d/checkout", id)
		fin := fmt.Sprintf("/admin/reservations/%d/finalize", id)

		st, body := e.JSON("GET", preview, nil)
		want := fmt.Sprint(map[string]any{"success": true, "total_price": 36.0, "booked_price": 36.0, "excess": 0.0,
			"exit_date": localtime.JSON(bookedExit, loc), "booked_exit_date": localtime.JSON(bookedExit, loc), "days": 3.0, "overdue": false})
		if st != 200 || fmt.Sprint(body) != want {
			t.Errorf("preview before the exit: %d %v\nwant %s", st, body, want)
		}

		// Collected 3 days 3 hours late: 6 days 3 h, 7 days at 8 € = 56 €.
		out := bookedExit.Add(3*24*time.Hour + 3*time.Hour)
		clk.Set(out)
		e.C = apptest.LoggedIn(t, a, admin) // days later: a new session
		st, body = e.JSON("GET", preview, nil)
		want = fmt.Sprint(map[string]any{"success": true, "total_price": 56.0, "booked_price": 36.0, "excess": 20.0,
			"exit_date": localtime.JSON(out, loc), "booked_exit_date": localtime.JSON(bookedExit, loc), "days": 7.0, "overdue": true})
		if st != 200 || fmt.Sprint(body) != want {
			t.Errorf("preview of a late car: %d %v\nwant %s", st, body, want)
		}

		// The detail page shows the amount due now, and the dialog carries it.
		page := e.Page(fmt.Sprintf("/admin/reservations/details/%d", id))
		webtest.WantAll(t, "detail page", page.Body, "A cobrar si sale ahora: <strong>56,00 €</strong> (exceso 20,00 €)",
			`<strong data-dialog-total>56,00 €</strong>`, `<dd data-checkout-excess>20,00 €</dd>`,
			`name="expected_total" value="56.00" data-checkout-expected`)

		// Refusals, nothing changed: the amount shown was the booked one (409 naming
		// the amount due), expected_total not a number, checked_out_at not a date or
		// in the future.
		st, body = e.JSON("PATCH", fin, map[string]any{"paymentMethod": "TARJETA", "expected_total": 36})
		if st != 409 || body["success"] != false || body["total_price"] != 56.0 || !strings.Contains(body["message"].(string), "56,00 €") {
			t.Errorf("expected_total 36 with 56 due: %d %v", st, body)
		}
		for field, v := range map[string]any{"expected_total": "treinta", "checked_out_at": "ayer"} {
			st, body = e.JSON("PATCH", fin, map[string]any{"paymentMethod": "TARJETA", field: v})
			if msg, _ := body["message"].(string); st != 400 || !strings.Contains(msg, field) {
				t.Errorf("%s %v: %d %v, want 400 naming the field", field, v, st, body)
			}
		}
		st, body = e.JSON("PATCH", fin, map[string]any{"paymentMethod": "TARJETA", "checked_out_at": localtime.JSON(out.Add(time.Hour), loc)})
		if msg, _ := body["message"].(string); st != 400 || !strings.Contains(msg, "checked_out_at") {
			t.Errorf("checked_out_at in the future: %d %v", st, body)
		}
		if s := e.Stored(id); s.Status != reservation.InCourse || s.TotalPrice != 3600 || s.CheckedOutAt != nil {
			t.Fatalf("a refused finalize changed the reservation: %+v", s)
		}

		// The form post with the amount shown (Spanish decimal comma) checks it out.
		st, _, text := e.Send("PATCH", fin, "application/x-www-form-urlencoded", "paymentMethod=EFECTIVO&expected_total=56%2C00")
		if st != 200 || !strings.Contains(text, `"total_price":56`) {
			t.Fatalf("finalize with the amount due: %d %s", st, text)
		}

		_, detail := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", id), nil)
		res := detail["reservation"].(map[string]any)
		if res["checked_out_at"] != localtime.JSON(out, loc) || res["booked_exit_date"] != localtime.JSON(bookedExit, loc) ||
			res["booked_price"] != 36.0 || res["total_price"] != 56.0 || res["exit_date"] != localtime.JSON(out, loc) {
			t.Errorf("detail record: %v", res)
		}

		// The receipt: the booked stay at its booked price, then the excess.
		rp := fmt.Sprintf("/admin/reservations/details/%d/receipt", id)
		_, rec := e.JSON("GET", rp, nil)
		lines := fmt.Sprint(rec["lines"])
		if rec["excess"] != 20.0 || rec["total"] != 56.0 || !strings.Contains(lines, "ECO · 3 días de estancia reservada total:36") ||
			!strings.Contains(lines, "Exceso de estancia: salida el "+out.In(loc).Format("02/01/2006 15:04")+" (7 días en total) total:20") {
			t.Errorf("receipt JSON: excess %v total %v lines %s", rec["excess"], rec["total"], lines)
		}
		html := e.Page(rp)
		webtest.WantAll(t, "receipt page", html.Body, `<dd data-receipt-excess>20,00 €</dd>`, `<dd data-receipt-booked-price>36,00 €</dd>`, "Exceso de estancia: salida el")
		pdf := webtest.Do(t, e.C, "GET", e.A.URL+rp+".pdf", nil)
		webtest.WantStatus(t, pdf, 200)
		webtest.WantAll(t, "receipt PDF", pdf.Body, "(Exceso de estancia: salida el", "(Salida reservada)", "(Precio reservado)")

		inv := invoicePayloads(t, e, id)
		if len(inv) == 0 || inv[len(inv)-1]["exceso"] != 20.0 || inv[len(inv)-1]["total_price"] != 56.0 {
			t.Errorf("invoice payload: %v", inv)
		}

		// Not EN CURSO any more: the preview is a 400 naming the state; an
		// unknown id a 404; another view of the path is no route.
		st, body = e.JSON("GET", preview, nil)
		webtest.WantMessage(t, st, body, 400, fmt.Sprintf("No se puede finalizar la reserva %d: su estado es FINALIZADA y debe ser EN CURSO.", id))
		st, body = e.JSON("GET", "/admin/reservations/999/checkout", nil)
		webtest.WantMessage(t, st, body, 404, "La reserva 999 no existe.")
		if st, _ := e.JSON("GET", fmt.Sprintf("/admin/reservations/%d/start", id), nil); st != 404 {
			t.Errorf("GET …/start: %d, want 404", st)
		}
	})
}

// charge_overstay is a facility setting: JSON changes it alone; the page's form
// sends it with its checkbox.
func TestChargeOverstaySetting(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		facility(t, e, "10,5")
		_, body := e.JSON("GET", "/admin/settings", nil)
		if s := body["settings"].(map[string]any); s["charge_overstay"] != true {
			t.Fatalf("default charge_overstay: %v", s)
		}
		st, body := e.JSON("POST", "/admin/settings", map[string]any{"charge_overstay": false})
		s, _ := body["settings"].(map[string]any)
		if st != 200 || s["charge_overstay"] != false || s["vat_rate"] != 10.5 || s["tax_id"] != "B12345674" {
			t.Errorf("JSON charge_overstay false: %d %v", st, body)
		}
		page := e.Page("/admin/settings")
		webtest.WantAll(t, "settings page", page.Body, `<input type="hidden" name="charge_overstay" value="false">`, `name="charge_overstay" type="checkbox" value="true" aria-describedby`)
		form := url.Values{"charge_overstay": {"false", "true"}, "vat_rate": {"10,5"}}
		if st, loc, _ := e.Form("/admin/settings", form); st != http.StatusSeeOther || !strings.Contains(loc, "ok=") {
			t.Fatalf("form post: %d %s", st, loc)
		}
		if f, _ := e.A.CatalogOps.Facility(t.Context()); !f.ChargeOverstay {
			t.Error("the ticked checkbox did not turn charge_overstay on")
		}
		if st, body := e.JSON("POST", "/admin/settings", map[string]any{"charge_overstay": "quizá"}); st != 400 || !strings.Contains(fmt.Sprint(body["message"]), "charge_overstay") {
			t.Errorf("charge_overstay not a boolean: %d %v", st, body)
		}
	})
}

// A customer's edit and a manage-link edit never lower what a stay owes: an EN
// CURSO exit is not cut into the past, a PENDIENTE entry not moved into the past
// (400 naming the field, in JSON and on the /reserva page).
func TestCustomerEditsRefusePastDates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		ana, anaUser := apptest.Customer(t, a, "ana@example.com", "600000001")
		entry, exit := clocktest.Day(3, 10, 0), clocktest.Day(6, 10, 0)
		at := func(t time.Time) string { return t.In(webtest.Madrid).Format("2006-01-02T15:04") }
		mine := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", at(entry), at(exit), 1, nil)
		status, body := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "Luis", "phone": "612345678", "email": "luis@example.com", "license_plate": "2222BBB", "vehicle_type": "COCHE",
			"entry_date": at(entry), "exit_date": at(exit), "id_main_service": 1,
		})
		if status != http.StatusCreated {
			t.Fatalf("booking: %d %v", status, body)
		}
		ref := body["data"].(map[string]any)["reference"].(string)
		linked := int64(body["data"].(map[string]any)["id_reservation"].(float64))
		_, found := webtest.CustCall(t, nil, "POST", a.URL+"/api/bookings/lookup", map[string]any{"reference": ref, "phone": "612345678"})
		token, _ := found["manage_token"].(string)
		if token == "" {
			t.Fatalf("lookup: %v", found)
		}
		wantRefused := func(what string, status int, body map[string]any, field string) {
			t.Helper()
			if msg, _ := body["message"].(string); status != 400 || !strings.Contains(msg, field) {
				t.Errorf("%s: %d %v, want 400 naming %s", what, status, body, field)
			}
		}
		editMine := fmt.Sprintf("%s/users/profile/reservation/%d/edit", a.URL, mine)
		manage := func(body map[string]any) (int, map[string]any) {
			status, raw := webtest.CustCallRaw(t, nil, "PUT", a.URL+"/api/bookings/"+ref, body, http.Header{"X-Manage-Token": {token}})
			var out map[string]any
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatalf("manage edit: %d %s", status, raw)
			}
			return status, out
		}

		// PENDIENTE, the clock past the entry: moving the entry earlier is refused.
		clk.Set(entry.Add(time.Hour))
		ana = apptest.LoggedIn(t, a, anaUser) // days later: a new session
		status, body = webtest.CustCall(t, ana, "PUT", editMine, map[string]any{"entry_date": at(entry.Add(-time.Hour))})
		wantRefused("customer edit, PENDIENTE entry in the past", status, body, "entry_date")
		status, body = manage(map[string]any{"entry_date": at(entry.Add(-time.Hour))})
		wantRefused("manage edit, PENDIENTE entry in the past", status, body, "entry_date")

		// EN CURSO: the exit cut before now is refused; moved later it is kept.
		webtest.CustSetStatus(t, a, mine, reservation.InCourse)
		webtest.CustExec(t, a, `UPDATE reservation SET status = 'EN CURSO', cod_parking_spot = 'B-2' WHERE id_reservation = $1`, linked)
		clk.Set(clocktest.Day(5, 10, 0))
		ana = apptest.LoggedIn(t, a, anaUser)
		cut := at(clocktest.Day(4, 10, 0))
		status, body = webtest.CustCall(t, ana, "PUT", editMine, map[string]any{"exit_date": cut})
		wantRefused("customer edit, EN CURSO exit cut", status, body, "exit_date")
		status, body = manage(map[string]any{"exit_date": cut})
		wantRefused("manage edit, EN CURSO exit cut", status, body, "exit_date")
		res := webtest.PostForm(t, apptest.Client(t), a.URL+"/reserva/"+ref+"/modificar", url.Values{"t": {token}, "exit_date": {cut}})
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "error=fechas") { // the refusal's code (docs/manage-booking.md#pages)
			t.Errorf("manage page form, EN CURSO exit cut: %d %q", res.StatusCode, loc)
		}
		for _, id := range []int64{mine, linked} {
			if r, _ := a.Store.Reservations().Reservation(t.Context(), id); r.Exit == nil || !r.Exit.Equal(exit) {
				t.Errorf("reservation %d: exit %v after refused edits, want %v", id, r.Exit, exit)
			}
		}
		if status, body = webtest.CustCall(t, ana, "PUT", editMine, map[string]any{"exit_date": at(clocktest.Day(8, 10, 0))}); status != 200 {
			t.Errorf("EN CURSO exit moved later: %d %v", status, body)
		}
	})
}
