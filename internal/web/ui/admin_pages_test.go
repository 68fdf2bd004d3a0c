package ui_test

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"parking/internal/clock/clocktest"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

func wantAllIn(t *testing.T, what, body string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(body, p) {
			t.Errorf("%s lacks %q", what, p)
		}
	}
}

// The administrator routes render pages for browsers and keep their JSON for
// clients that ask for it (docs/errors.md#json-on-web-routes); refusals are pages too, with the status
// and the message.
func TestAdminPagesOrJSON(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)), 3, "A-1"))
		e.AddPhotos(id, 2)
		p := fmt.Sprintf("/admin/reservations/details/%d", id)

		res := e.Page(p)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		wantAllIn(t, "detail page", res.Body, "<h1 id=\"detail-title\">Reserva nº "+webtest.Itoa(id)+"</h1>",
			`data-detail-status="PENDIENTE"`, `data-photo-count="2">2 de 5</span>`, "Faltan 3 fotos",
			// docs/reservations.md#check-in-on-a-phone: start opens the dialog that takes the missing photos and the spot.
			`<button type="button" class="btn btn-primary" data-action="start" aria-describedby="start-why">`,
			`data-action="finalize" disabled>`, `<button type="button" class="btn btn-danger-ghost" data-action="cancel">`,
			`<input id="e-plate" type="text" value="0001BCD" disabled`, `name="cod_parking_spot" type="text" maxlength="20" value="A-1"`,
			`<form method="post" action="/admin/reservations/`+webtest.Itoa(id)+`/edit"`, `<input type="hidden" name="additional_services" value="">`,
			`<img src="https://fotos.example.com/`+webtest.Itoa(id)+`-0.jpg"`, "Confirmación de reserva", `<dialog class="dialog" data-dialog="finalize"`,
			`value="EFECTIVO"`, `value="TARJETA"`, `href="/admin/catalog"`)
		if strings.Contains(res.Body, "data-receipt-link") {
			t.Error("a PENDIENTE reservation has no receipt link")
		}
		status, body := e.JSON("GET", p, nil)
		if status != 200 || body["photo_count"] != 2.0 {
			t.Errorf("detail as JSON: %d %v", status, body["photo_count"])
		}

		// Messages of the previous request, from the query string.
		wantAllIn(t, "updated", e.Page(p+"?updated=true").Body, `data-flash role="status" tabindex="-1">Reserva actualizada correctamente.</p>`)
		wantAllIn(t, "error", e.Page(p+"?error=La+plaza+A-1+est%C3%A1+ocupada").Body, `role="alert" data-flash-error tabindex="-1">La plaza A-1 está ocupada</p>`)

		// Per-state rules visible: EN CURSO disables the entry date and requires the spot.
		e.AddPhotos(id, 3)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); st != 200 {
			t.Fatalf("start: %d %v", st, b)
		}
		res = e.Page(p)
		wantAllIn(t, "EN CURSO page", res.Body, (`name="entry_date" type="datetime-local" required value="` + clocktest.D("2027-03-01") + `T10:00" data-quote-field disabled`),
			`value="A-1" class="plate" required`, `data-action="start" disabled>`, `<button type="button" class="btn btn-primary" data-action="finalize">`)
		// FINALIZADA: everything disabled, the receipt linked.
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": "EFECTIVO"}); st != 200 {
			t.Fatalf("finalize: %d %v", st, b)
		}
		res = e.Page(p)
		wantAllIn(t, "FINALIZADA page", res.Body, `<fieldset class="edit-all" disabled aria-describedby="edit-locked">`,
			`href="/admin/reservations/details/`+webtest.Itoa(id)+`/receipt" data-receipt-link`, "Pagada · EFECTIVO", "no admite más fotos")
		if strings.Contains(res.Body, "data-edit-save") || strings.Contains(res.Body, "data-photo-form") {
			t.Error("a FINALIZADA reservation offers the update or the photo form")
		}

		// Unknown reservation: a 404 page; JSON keeps its shape.
		res = e.Page("/admin/reservations/details/999999")
		webtest.WantStatus(t, res, 404)
		webtest.CheckPage(t, res)
		wantAllIn(t, "404 page", res.Body, "La reserva 999999 no existe.", `href="/admin/history"`)
		status, body = e.JSON("GET", "/admin/reservations/details/999999", nil)
		webtest.WantMessage(t, status, body, 404, "La reserva 999999 no existe.")

		// The other pages.
		for _, c := range []struct{ path, marker, jsonKey string }{
			{"/admin/reservations/new", `<form method="post" action="/admin/reservations/new" class="walkin-form" data-walkin novalidate>`, "main_services"},
			{"/admin/history", `<table class="board board-history"`, "reservations"},
			{"/admin/parking", `data-events-url="/admin/parking/events"`, "spots"},
			{"/admin/catalog", `action="/admin/catalog/additional-services/1" data-cat-form data-method="PATCH"`, "vehicle_types"},
		} {
			res := e.Page(c.path)
			webtest.WantStatus(t, res, 200)
			webtest.CheckPage(t, res)
			wantAllIn(t, c.path, res.Body, c.marker, `aria-current="page"`)
			status, body := e.JSON("GET", c.path, nil)
			if _, ok := body[c.jsonKey]; status != 200 || !ok {
				t.Errorf("%s as JSON: %d, no %q", c.path, status, c.jsonKey)
			}
		}
		res = e.Page("/admin/history?status=NADA")
		webtest.WantStatus(t, res, 400)
		wantAllIn(t, "refused filters", res.Body, `El estado &#34;NADA&#34; no existe`, `<option value="">Todos</option>`)
		res = e.Page("/admin/history?page=9")
		webtest.WantStatus(t, res, 200)
		wantAllIn(t, "page past the end", res.Body, "No hay reservas en esta página", `<a href="/admin/history">Ir a la primera</a>`)
		// The date filters say what they filter (dateFrom/dateTo: the entry,
		// docs/admin.md#history; bookedFrom/bookedTo: the booking), keep what was asked, and the export
		// link carries them all.
		res = e.Page(("/admin/history?dateFrom=" + clocktest.D("2027-03-01") + "&dateTo=" + clocktest.D("2027-03-01") + "&bookedFrom=" + clocktest.D("2020-01-01") + "&bookedTo=2099-12-31"))
		webtest.WantStatus(t, res, 200)
		wantAllIn(t, "date filters", res.Body,
			`<label for="dateFrom">Entrada desde</label>`, `<label for="dateTo">Entrada hasta</label>`,
			`<label for="bookedFrom">Reservada desde</label>`, `<label for="bookedTo">Reservada hasta</label>`,
			(`name="dateFrom" type="date" value="` + clocktest.D("2027-03-01") + `"`), `name="bookedTo" type="date" value="2099-12-31"`,
			(`href="/admin/history.csv?bookedFrom=` + clocktest.D("2020-01-01") + `&amp;bookedTo=2099-12-31&amp;dateFrom=` + clocktest.D("2027-03-01") + `&amp;dateTo=` + clocktest.D("2027-03-01") + `"`),
			"Reservas 1–1 de 1")
		res = e.Page(("/admin/history?dateFrom=" + clocktest.D("2027-03-02")))
		wantAllIn(t, "entry filter", res.Body, "Ninguna reserva coincide con los filtros.")
	})
}

// Every form of the administrator pages works without JavaScript: the browser's
// form post is answered with a redirect to the page, carrying the outcome, or (the
// walk-in) the form again with what was typed and the refusal.
func TestAdminFormsWithoutScript(t *testing.T) {
	e := webtest.NewAdminEnv(t, store.SQLite)
	id := e.WalkIn(webtest.WalkInFields(1, clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)), 3, ""))
	p := fmt.Sprintf("/admin/reservations/%d/photos", id)

	res := e.BrowserPost(p, url.Values{"file_path": {"https://fotos.example.com/a.jpg"}, "description": {"Frontal"}})
	webtest.WantStatus(t, res, 303)
	if loc := res.Header.Get("Location"); loc != fmt.Sprintf("/admin/reservations/details/%d?photo=added#fotos", id) {
		t.Errorf("photo added: Location %q", loc)
	}
	res = e.BrowserPost(p, url.Values{"file_path": {"javascript:alert(1)"}})
	webtest.WantStatus(t, res, 303)
	if loc := res.Header.Get("Location"); !strings.Contains(loc, "?error=El+campo+file_path+debe+ser+una+URL") {
		t.Errorf("photo refused: Location %q", loc)
	}
	if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1`, id); n != 1 {
		t.Errorf("%d photos stored, want 1", n)
	}

	walk := url.Values{"phone": {"600999888"}, "full_name": {"Rosa Díaz"}, "license_plate": {"2468XYZ"}, "vehicle_type": {"COCHE"},
		"entry_date": {(clocktest.D("2027-04-01") + "T09:00")}, "exit_date": {(clocktest.D("2027-04-03") + "T09:00")}, "id_main_service": {"1"}, "additional_services": {"2"}}
	res = e.BrowserPost("/admin/reservations/new", walk)
	webtest.WantStatus(t, res, 303)
	if loc := res.Header.Get("Location"); !regexp.MustCompile(`^/admin/reservations/details/\d+\?created=true$`).MatchString(loc) {
		t.Errorf("walk-in: Location %q", loc)
	}
	walk.Set("vehicle_type", "SUV") // the plate is now on file as a COCHE
	res = e.BrowserPost("/admin/reservations/new", walk)
	webtest.WantStatus(t, res, 400)
	webtest.CheckPage(t, res)
	wantAllIn(t, "walk-in refused", res.Body, "La matrícula 2468XYZ ya está registrada con el tipo de vehículo COCHE.",
		`value="Rosa Díaz"`, (`value="` + clocktest.D("2027-04-01") + `T09:00"`), `<option value="SUV" selected>`, `value="2" data-quote-field checked>`)

	res = e.BrowserPost("/admin/catalog/additional-services/1", url.Values{"name": {"Lavado básico"}, "price": {"16,40"}, "active": {"false", "true"}})
	webtest.WantStatus(t, res, 303)
	if loc := res.Header.Get("Location"); loc != "/admin/catalog?ok=Servicio+adicional+actualizado.#extras" {
		t.Errorf("catalog saved: Location %q", loc)
	}
	if n := webtest.CountRows(t, e.A, `SELECT price_cents FROM additional_service WHERE id = 1`); n != 1640 {
		t.Errorf("price stored %d, want 1640", n)
	}
	res = e.BrowserPost("/admin/catalog/rates", url.Values{"id_main_service": {"1"}, "min_days": {"2"}, "max_days": {"5"}, "daily_price": {"9"}})
	webtest.WantStatus(t, res, 303)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/catalog?error=La+tarifa+de+2+a+5+d%C3%ADas+se+solapa") || !strings.HasSuffix(loc, "#servicios") {
		t.Errorf("catalog refused: Location %q", loc)
	}
	wantAllIn(t, "catalog message", e.Page("/admin/catalog?ok=Servicio+adicional+actualizado.").Body, `tabindex="-1">Servicio adicional actualizado.</p>`,
		`id="extra-1-price" name="price" type="text" inputmode="decimal" required value="16,40"`)
	res = e.BrowserPost("/admin/catalog/rates/4/delete", url.Values{})
	webtest.WantStatus(t, res, 303)
	if loc := res.Header.Get("Location"); loc != "/admin/catalog?ok=Tarifa+eliminada.#servicios" {
		t.Errorf("rate deleted: Location %q", loc)
	}
	// The JSON answers are unchanged for clients that send no Accept.
	st, _, text := e.Send("POST", "/admin/catalog/additional-services/1", "application/x-www-form-urlencoded", "price=16.5")
	if st != 200 || !strings.Contains(text, `"price":16.5`) {
		t.Errorf("catalog form without Accept: %d %s", st, text)
	}
}

// GET /admin/history.csv: the whole filtered result (not one page), streamed as
// UTF-8 with a byte order mark, ";"-separated for a Spanish Excel, amounts with a
// decimal comma, an attachment; cells that a spreadsheet would run as formulas are
// defused; fields with separators or quotes are quoted.
func TestHistoryCSV(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		entry := clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid))
		var ids []int64
		for n := 1; n <= 18; n++ {
			ids = append(ids, e.WalkIn(webtest.WalkInFields(n, entry, 2, "")))
		}
		tricky := webtest.WalkInFields(19, entry, 2, "")
		tricky["full_name"] = `=HYPERLINK("http://x";"clic")`
		tricky["phone"] = "+34 600 000 019"
		tricky["email"] = "ana;beta@example.com"
		tricky["brand"] = "@SUM(1)"
		tricky["model"] = "-2+3"
		tricky["notes"] = "línea 1\nlínea 2 \"citada\""
		tricky["language"] = "en"
		trickyID := e.WalkIn(tricky)
		e.Exec(`UPDATE reservation SET reservation_date = $1 WHERE id_reservation = $2`, store.Time(clocktest.Shift(time.Date(2020, 1, 15, 12, 0, 0, 0, webtest.Madrid))), ids[0])
		e.Exec(`UPDATE reservation SET status = 'CANCELADA', cod_parking_spot = NULL WHERE id_reservation = $1`, ids[1])

		get := func(q string) (*http.Response, string) {
			t.Helper()
			res := webtest.Do(t, e.C, "GET", e.A.URL+"/admin/history.csv"+q, nil)
			return res.Response, res.Body
		}
		rows := func(body string) [][]string {
			t.Helper()
			if !strings.HasPrefix(body, "\uFEFF") {
				t.Fatalf("no byte order mark: %q", body[:min(len(body), 20)])
			}
			r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\uFEFF")))
			r.Comma = ';'
			out, err := r.ReadAll()
			if err != nil {
				t.Fatalf("not CSV: %v\n%s", err, body)
			}
			return out
		}

		res, body := get("")
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
			!regexp.MustCompile(`^attachment; filename="historial-\d{4}-\d{2}-\d{2}\.csv"$`).MatchString(res.Header.Get("Content-Disposition")) {
			t.Fatalf("headers: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
		}
		if !strings.Contains(body, "\r\n") {
			t.Error("rows must end in CRLF")
		}
		all := rows(body)
		if len(all) != 20 || strings.Join(all[0], "|") != "Reserva|Fecha de reserva|Entrada|Salida|Estado|Cliente|Teléfono|Correo|Matrícula|Marca|Modelo|Color|Tipo de vehículo|Servicio|Plaza|Total (€)|Pagada|Método de pago|Notas|Idioma|Canal" {
			t.Fatalf("%d rows (want a header and 19, more than a page of 15); header %v", len(all), all[0])
		}
		// Newest first, as the history: the one moved to 2020 is last.
		if all[1][0] != webtest.Itoa(trickyID) || all[19][0] != webtest.Itoa(ids[0]) || all[19][1] != (clocktest.ES("15/01/2020")+" 12:00") {
			t.Errorf("order: first %v, last %v", all[1][:2], all[19][:2])
		}
		row := all[1]
		want := map[int]string{
			2: (clocktest.ES("01/03/2027") + " 10:00"), 3: (clocktest.ES("03/03/2027") + " 10:00"), 4: "PENDIENTE", 5: `'=HYPERLINK("http://x";"clic")`, 6: "'+34600000019",
			7: "ana;beta@example.com", 9: "'@SUM(1)", 10: "'-2+3", 12: "COCHE", 13: "ECO", 15: "24,00", 16: "No", 17: "", 18: "línea 1\nlínea 2 \"citada\"", 19: "en", 20: "counter",
		}
		for i, w := range want {
			if row[i] != w {
				t.Errorf("tricky row column %s = %q, want %q", all[0][i], row[i], w)
			}
		}
		if !strings.Contains(body, `"'=HYPERLINK(""http://x"";""clic"")"`) {
			t.Error("a field with quotes and separators must be quoted, its quotes doubled")
		}

		// The filters of the history page.
		_, body = get("?status=CANCELADA")
		if got := rows(body); len(got) != 2 || got[1][0] != webtest.Itoa(ids[1]) || got[1][4] != "CANCELADA" || got[1][19] != "es" {
			t.Errorf("status filter: %v", got)
		}
		_, body = get("?search=0007bcd")
		if got := rows(body); len(got) != 2 || got[1][8] != "0007BCD" {
			t.Errorf("search filter: %v", got)
		}
		_, body = get(("?bookedFrom=" + clocktest.D("2020-01-15") + "&bookedTo=" + clocktest.D("2020-01-15")))
		if got := rows(body); len(got) != 2 || got[1][0] != webtest.Itoa(ids[0]) {
			t.Errorf("booking date filter: %v", got)
		}
		// dateFrom/dateTo: the entry day (docs/admin.md#history). One reservation enters in April.
		e.Exec(`UPDATE reservation SET entry_date = $1, exit_date = $2 WHERE id_reservation = $3`,
			store.Time(clocktest.Shift(time.Date(2027, 4, 1, 9, 0, 0, 0, webtest.Madrid))), store.Time(clocktest.Shift(time.Date(2027, 4, 2, 9, 0, 0, 0, webtest.Madrid))), ids[2])
		_, body = get(("?dateFrom=" + clocktest.D("2027-04-01") + "&dateTo=" + clocktest.D("2027-04-01")))
		if got := rows(body); len(got) != 2 || got[1][0] != webtest.Itoa(ids[2]) || got[1][2] != (clocktest.ES("01/04/2027")+" 09:00") {
			t.Errorf("entry date filter: %v", got)
		}
		_, body = get(("?dateFrom=" + clocktest.D("2020-01-15") + "&dateTo=" + clocktest.D("2020-01-15")))
		if got := rows(body); len(got) != 1 {
			t.Errorf("entry date filter on a booking day: %d rows, want the header alone", len(got))
		}
		_, body = get(("?dateTo=" + clocktest.D("2027-03-01") + "&bookedTo=" + clocktest.D("2020-01-15")))
		if got := rows(body); len(got) != 2 || got[1][0] != webtest.Itoa(ids[0]) {
			t.Errorf("both date filters: %v", got)
		}
		_, body = get("?search=nadie-se-llama-asi")
		if got := rows(body); len(got) != 1 {
			t.Errorf("no match: %d rows, want the header alone", len(got))
		}
		// Compressed for clients that accept it.
		raw := &http.Client{Jar: e.C.Jar, Transport: &http.Transport{DisableCompression: true}}
		req, _ := http.NewRequest("GET", e.A.URL+"/admin/history.csv?status=CANCELADA", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		gz, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(gz.Body)
		if err != nil || gz.Header.Get("Content-Encoding") != "gzip" || !varies(gz.Header, "Accept-Encoding") {
			t.Fatalf("gzip: %v, Content-Encoding %q, Vary %q", err, gz.Header.Get("Content-Encoding"), gz.Header.Values("Vary"))
		}
		unzipped, err := io.ReadAll(zr)
		gz.Body.Close()
		if got := rows(string(unzipped)); err != nil || len(got) != 2 || got[1][0] != webtest.Itoa(ids[1]) {
			t.Errorf("gzip-compressed export: %v %v", err, got)
		}

		res, body = get("?dateFrom=ayer")
		if res.StatusCode != 400 || !strings.Contains(body, "dateFrom no es una fecha válida") {
			t.Errorf("bad filter: %d %q", res.StatusCode, body)
		}
	})
}

// The receipt: a page for a finalized reservation with the stored amounts (the
// stay as the total minus the extras at their booked prices), refused with 409 for
// any other state; the customer who owns the reservation may open it too, nobody
// else.
func TestReceipt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		cust, _ := apptest.Customer(t, e.A, "rosa@example.com", "611000111")
		id := webtest.CustBook(t, e.A, "611000111", "1111RRR", "COCHE", (clocktest.D("2027-05-01") + "T10:00"), (clocktest.D("2027-05-04") + "T11:00"), 1, []int{1, 2})
		p := fmt.Sprintf("/admin/reservations/details/%d/receipt", id)
		mine := fmt.Sprintf("/users/profile/reservation/%d/receipt", id)

		res := e.Page(p)
		webtest.WantStatus(t, res, 409)
		webtest.CheckPage(t, res)
		wantAllIn(t, "refusal", res.Body, fmt.Sprintf("La reserva %d está PENDIENTE: el recibo solo se emite cuando la reserva está FINALIZADA", id))
		webtest.WantStatus(t, webtest.Do(t, cust, "GET", e.A.URL+mine, nil), 409)

		e.Exec(`UPDATE reservation SET cod_parking_spot = 'R-1' WHERE id_reservation = $1`, id)
		e.AddPhotos(id, 5)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); st != 200 {
			t.Fatalf("start: %d %v", st, b)
		}
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": "TARJETA"}); st != 200 {
			t.Fatalf("finalize: %d %v", st, b)
		}
		// ECO 3 days at 12 € (3 days 1 hour: within the courtesy period) = 36 €, plus
		// extras 15 € and 25 €: 76 €.
		res = e.Page(p)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		// The VAT split (21 %, internal/receipt): total base round(7600 / 1.21) =
		// 6281; the lines' bases cut to 2975, 1239 and 2066 (6280), and the missing
		// cent goes to the largest cut-off fraction, Lavado básico's (.669).
		wantAllIn(t, "receipt", res.Body, "Factura simplificada nº <span data-receipt-no>F"+clocktest.Base().Format("2006")+"-000001</span>", "Reserva nº "+webtest.Itoa(id),
			"Parking Aeropuerto", "1111RRR", (clocktest.ES("01/05/2027") + " 10:00"), (clocktest.ES("04/05/2027") + " 11:00"),
			`<dd data-receipt-days>3</dd>`, `<th scope="col" class="num">IVA 21 %</th>`,
			`<tr data-receipt-line><th scope="row">ECO · 3 días de estancia</th><td class="num">29,75 €</td><td class="num">6,25 €</td><td class="num">36,00 €</td></tr>`,
			`<tr data-receipt-line><th scope="row">Lavado básico</th><td class="num">12,40 €</td><td class="num">2,60 €</td><td class="num">15,00 €</td></tr>`,
			`<tr data-receipt-line><th scope="row">Lavado interior</th><td class="num">20,66 €</td><td class="num">4,34 €</td><td class="num">25,00 €</td></tr>`,
			`<td class="num" data-receipt-base>62,81 €</td><td class="num" data-receipt-vat>13,19 €</td><td class="num" data-receipt-total>76,00 €</td>`,
			`href="`+p+`.pdf" data-receipt-pdf download>Descargar PDF</a>`, `<img src="data:image/png;base64,`,
			`data-receipt-qr>https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=&amp;numserie=F`+clocktest.Base().Format("2006")+`-000001&amp;fecha=`, `data-receipt-seller-missing>`, `<dd data-receipt-payment>TARJETA</dd>`, `data-receipt-status>PAGADA</span>`,
			`<button type="button" class="btn btn-primary" data-print>Imprimir</button>`)
		res = webtest.Do(t, cust, "GET", e.A.URL+mine, nil)
		webtest.WantStatus(t, res, 200)
		wantAllIn(t, "the owner's receipt", res.Body, `<td class="num" data-receipt-total>76,00 €</td>`)
		if strings.Contains(res.Body, "data-receipt-seller-missing") { // the note is for staff
			t.Error("the customer's receipt shows the staff note about the settings")
		}
	})
}

// The customer's own receipt (owner check) and the print stylesheet.
func TestReceiptOwnerAndPrint(t *testing.T) {
	e := webtest.NewAdminEnv(t, store.SQLite)
	cust, _ := apptest.Customer(t, e.A, "rosa@example.com", "611000111")
	stranger, _ := apptest.Customer(t, e.A, "otro@example.com", "611000222")
	id := webtest.CustBook(t, e.A, "611000111", "1111RRR", "COCHE", (clocktest.D("2027-05-01") + "T10:00"), (clocktest.D("2027-05-04") + "T11:00"), 1, nil)
	webtest.CustSetStatus(t, e.A, id, reservation.Finalized)
	mine := fmt.Sprintf("/users/profile/reservation/%d/receipt", id)
	res := webtest.Do(t, cust, "GET", e.A.URL+"/users/profile", nil, "Accept: text/html")
	wantAllIn(t, "profile", res.Body, `<a class="btn btn-sm" href="`+mine+`">Ver recibo</a> <a class="btn btn-sm" href="`+mine+`.pdf" download>PDF</a>`)
	res = webtest.Do(t, cust, "GET", e.A.URL+mine, nil)
	webtest.WantStatus(t, res, 200)
	wantAllIn(t, "customer's receipt", res.Body, "Factura simplificada nº", "Reserva nº "+webtest.Itoa(id), `href="/users/profile">‹ Volver a mi cuenta</a>`,
		`href="`+mine+`.pdf" data-receipt-pdf download>`)
	res = webtest.Do(t, stranger, "GET", e.A.URL+mine, nil)
	webtest.WantStatus(t, res, 403)
	wantAllIn(t, "someone else's receipt", res.Body, "Esta reserva no existe o no es suya.")
	webtest.WantStatus(t, webtest.Do(t, stranger, "GET", e.A.URL+"/users/profile/reservation/999999/receipt", nil), 403)
	res = webtest.Do(t, apptest.Client(t), "GET", e.A.URL+mine, nil)
	if res.StatusCode != 303 || res.Header.Get("Location") != "/users/login" {
		t.Errorf("anonymous: %d %s", res.StatusCode, res.Header.Get("Location"))
	}

	// The print stylesheet hides the navigation and the buttons.
	page := e.Page(fmt.Sprintf("/admin/reservations/details/%d/receipt", id)).Body
	css := regexp.MustCompile(`href="(/static/admin\.[0-9a-f]+\.css)"`).FindStringSubmatch(page)
	if css == nil {
		t.Fatal("the receipt does not load admin.css")
	}
	sheet := webtest.Do(t, e.C, "GET", e.A.URL+css[1], nil).Body
	i := strings.Index(sheet, "@media print")
	if i < 0 || !strings.Contains(sheet[i:], ".site-header, .site-footer, .skip-link, .no-print, .receipt-tools { display: none !important; }") {
		t.Error("admin.css has no print rules hiding the navigation")
	}
}

// Each administrator page, with everything it loads, stays under 100 KB
// transferred (the budget), with a busy reservation: 5 photos, its
// notifications, 15 history rows, a full board, the whole catalog.
func TestAdminPageWeight(t *testing.T) {
	e := webtest.NewAdminEnv(t, store.SQLite)
	var first int64
	for n := 1; n <= 20; n++ {
		id := e.StartedReservation(n, fmt.Sprintf("P-%02d", n))
		if first == 0 {
			first = id
		}
	}
	if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", first), map[string]any{"paymentMethod": "TARJETA"}); st != 200 {
		t.Fatalf("finalize: %d %v", st, b)
	}
	get := func(u string) (int, []byte) {
		t.Helper()
		c := &http.Client{Jar: e.C.Jar, Transport: &http.Transport{DisableCompression: true}}
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		req.Header.Set("Accept", "text/html")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", u, res.StatusCode)
		}
		return len(b), b
	}
	plainPage := func(u string) string { return e.Page(u).Body }
	assets := regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`)
	for _, p := range []string{
		fmt.Sprintf("/admin/reservations/details/%d", first), "/admin/reservations/new", "/admin/history",
		"/admin/parking", "/admin/catalog", fmt.Sprintf("/admin/reservations/details/%d/receipt", first),
	} {
		sent, _ := get(e.A.URL + p)
		plain := plainPage(p)
		for _, m := range assets.FindAllStringSubmatch(plain, -1) {
			n, _ := get(e.A.URL + m[1])
			sent += n
		}
		t.Logf("%s: %d bytes transferred with its files (page alone %d uncompressed)", p, sent, len(plain))
		if sent > 100<<10 {
			t.Errorf("%s transfers %d bytes with its files, over 100 KB", p, sent)
		}
	}
}
