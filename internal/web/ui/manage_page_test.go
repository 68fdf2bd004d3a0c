package ui_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/manage-booking.md#pages, the pages: /reserva finds the booking by reference and phone or
// email and opens its signed link; the page shows it, changes it and cancels it
// with plain form posts (303 back with a notice); a bad link shows the form (404);
// the receipt opens once the booking is paid.
func TestManageBookingPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		cl := apptest.Client(t)
		entry := clocktest.Day(3, 10, 0)
		status, body := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "Ana Pérez", "phone": "612345678", "email": "ana@example.com", "license_plate": "PAGE1", "vehicle_type": "Turismo",
			"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, 3).Format(time.RFC3339), "id_main_service": 1,
		})
		if status != http.StatusCreated {
			t.Fatalf("booking: %d %v", status, body)
		}
		ref := body["data"].(map[string]any)["reference"].(string)
		id := int64(body["data"].(map[string]any)["id_reservation"].(float64))

		page := webtest.Do(t, cl, "GET", a.URL+"/reserva", nil)
		webtest.WantStatus(t, page, http.StatusOK)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "lookup page", page.Body, `<label for="reference">Referencia de la reserva</label>`, `<label for="contact">Teléfono o correo electrónico</label>`)

		// A wrong pair: the form again, 404, with the one answer.
		res := webtest.PostForm(t, cl, a.URL+"/reserva", url.Values{"reference": {ref}, "contact": {"699000111"}})
		webtest.WantStatus(t, res, http.StatusNotFound)
		webtest.WantAll(t, "wrong pair", res.Body, "No encontramos ninguna reserva", `value="`+ref+`"`)
		// The right pair (email, any case; reference without the dash): 303 to the link.
		res = webtest.PostForm(t, cl, a.URL+"/reserva", url.Values{"reference": {strings.ToLower(strings.ReplaceAll(ref, "-", ""))}, "contact": {"ANA@example.com"}})
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/reserva/"+ref+"?t=") {
			t.Fatalf("lookup: %d %q", res.StatusCode, loc)
		}
		u, _ := url.Parse(loc)
		token := u.Query().Get("t")

		page = webtest.Do(t, cl, "GET", a.URL+loc, nil)
		webtest.WantStatus(t, page, http.StatusOK)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "manage page", page.Body, "Reserva <span data-manage-reference>"+ref+"</span>", `data-status="PENDIENTE">Confirmada</span>`, "PAGE1",
			`<img src="/r/`+ref+`/qr.png"`, "Cómo llegar", "Parking Aeropuerto",
			`action="/reserva/`+ref+`/modificar"`, `action="/reserva/`+ref+`/cancelar"`, `name="t" value="`+token+`"`, "Imprimir confirmación")

		// Change: two more days, an extra; 303 back with the notice; stored.
		form := url.Values{"t": {token}, "id_main_service": {"1"}, "entry_date": {entry.In(webtest.Madrid).Format("2006-01-02T15:04")},
			"exit_date": {entry.AddDate(0, 0, 5).In(webtest.Madrid).Format("2006-01-02T15:04")}, "additional_services": {"1"}}
		res = webtest.PostForm(t, cl, a.URL+"/reserva/"+ref+"/modificar", form)
		if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "hecho=modificada") {
			t.Fatalf("edit: %d %q %s", res.StatusCode, res.Header.Get("Location"), res.Body)
		}
		page = webtest.Do(t, cl, "GET", a.URL+res.Header.Get("Location"), nil)
		webtest.WantAll(t, "after the edit", page.Body, "Reserva modificada correctamente.", "Lavado básico")
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation_additional_service WHERE id_reservation = $1`, id); n != 1 {
			t.Errorf("extras stored: %d, want 1", n)
		}
		// A refused change comes back with the reason.
		form.Set("exit_date", entry.Add(-time.Hour).In(webtest.Madrid).Format("2006-01-02T15:04"))
		res = webtest.PostForm(t, cl, a.URL+"/reserva/"+ref+"/modificar", form)
		if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "error=") {
			t.Errorf("bad edit: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
		page = webtest.Do(t, cl, "GET", a.URL+res.Header.Get("Location"), nil)
		// The refusal travels as a code (docs/manage-booking.md#pages): the catalogue's words.
		webtest.WantAll(t, "refused edit", page.Body, "Las fechas no son válidas")
		if !strings.Contains(res.Header.Get("Location"), "error=fechas") {
			t.Errorf("the refusal's code: %q", res.Header.Get("Location"))
		}
		// ?error= is never shown as written: an unknown code is the generic message.
		page = webtest.Do(t, cl, "GET", a.URL+"/reserva/"+ref+"?t="+url.QueryEscape(token)+"&error="+url.QueryEscape("Llame al 900 000 000"), nil)
		webtest.WantAll(t, "unknown code", page.Body, "No se pudo completar la operación")
		if strings.Contains(page.Body, "900 000 000") {
			t.Error("the page shows the query's words")
		}

		// A bad link: the lookup form, 404.
		bad := webtest.Do(t, cl, "GET", a.URL+"/reserva/"+ref+"?t=forged.token", nil)
		webtest.WantStatus(t, bad, http.StatusNotFound)
		webtest.WantAll(t, "bad link", bad.Body, "No encontramos ninguna reserva", `action="/reserva"`)
		if res := webtest.PostForm(t, cl, a.URL+"/reserva/"+ref+"/cancelar", url.Values{"t": {"forged.token"}}); res.StatusCode != http.StatusNotFound {
			t.Errorf("cancel with a bad link: %d", res.StatusCode)
		}
		// No receipt before it is paid.
		if res := webtest.Do(t, cl, "GET", a.URL+"/reserva/"+ref+"/recibo?t="+url.QueryEscape(token), nil); res.StatusCode != http.StatusConflict {
			t.Errorf("receipt of a pending booking: %d, want 409", res.StatusCode)
		}

		// Cancel: 303 back, CANCELADA, no more forms.
		res = webtest.PostForm(t, cl, a.URL+"/reserva/"+ref+"/cancelar", url.Values{"t": {token}, "confirm": {"on"}})
		if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "hecho=cancelada") {
			t.Fatalf("cancel: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
		page = webtest.Do(t, cl, "GET", a.URL+res.Header.Get("Location"), nil)
		webtest.WantAll(t, "after cancelling", page.Body, "Reserva cancelada correctamente.", `data-status="CANCELADA">Cancelada</span>`)
		if strings.Contains(page.Body, "/modificar") || strings.Contains(page.Body, "/cancelar") {
			t.Error("a cancelled booking still offers to change or cancel")
		}
		// Nothing to pay and nothing to print for a cancelled booking.
		for _, gone := range []string{"data-manage-total", "Imprimir confirmación", "se paga al recoger", "qr.png"} {
			if strings.Contains(page.Body, gone) {
				t.Errorf("a cancelled booking shows %q", gone)
			}
		}

		// A paid booking: the receipt.
		webtest.CustSetStatus(t, a, id, reservation.Finalized)
		rec := webtest.Do(t, cl, "GET", a.URL+"/reserva/"+ref+"/recibo?t="+url.QueryEscape(token), nil)
		webtest.WantStatus(t, rec, http.StatusOK)
		webtest.WantAll(t, "receipt", rec.Body, "PAGE1", "Volver a la reserva", "Referencia "+ref)
	})
}

// docs/admin.md#history: the history search finds a reservation by its reference,
// typed with or without the dash, in any case; history items carry it.
func TestHistorySearchByReference(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		var refs []string
		for n := 1; n <= 3; n++ {
			id := e.WalkIn(webtest.WalkInFields(n, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, ""))
			_, body := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", id), nil)
			refs = append(refs, body["reservation"].(map[string]any)["reference"].(string))
			page := e.Page(fmt.Sprintf("/admin/reservations/details/%d", id))
			webtest.WantAll(t, "detail page", page.Body, "<strong data-detail-reference>"+refs[len(refs)-1]+"</strong>")
		}
		for _, q := range []string{refs[1], strings.ToLower(strings.ReplaceAll(refs[1], "-", ""))} {
			status, body := e.JSON("GET", "/admin/history?"+url.Values{"search": {q}}.Encode(), nil)
			items, _ := body["reservations"].([]any)
			if status != http.StatusOK || len(items) != 1 || items[0].(map[string]any)["reference"] != refs[1] || body["total_count"] != 1.0 {
				t.Errorf("search %q: %d %v", q, status, body)
			}
		}
	})
}
