package ui_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"parking/internal/account"
	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// facility fills the settings the receipts print (docs/settings.md).
func facility(t *testing.T, e *webtest.AdminEnv, vat string) {
	t.Helper()
	status, body := e.JSON("PATCH", "/admin/settings", map[string]any{"name": "Parking Aeropuerto Barajas, S.L.",
		"tax_id": "B12345674", "address": "Avenida de la Hispanidad 1, 28042 Madrid", "vat_rate": vat})
	if status != 200 {
		t.Fatalf("settings: %d %v", status, body)
	}
}

// invoicePayloads are the bodies of a reservation's invoice notifications, oldest first.
func invoicePayloads(t *testing.T, e *webtest.AdminEnv, id int64) []map[string]any {
	t.Helper()
	rows, err := e.A.Store.DB().Query(`SELECT payload FROM notification WHERE id_reservation = $1 AND type = 'invoice' ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []map[string]any
	for rows.Next() {
		var p string
		var m map[string]any
		if err := rows.Scan(&p); err != nil || json.Unmarshal([]byte(p), &m) != nil {
			t.Fatalf("payload %q: %v", p, err)
		}
		out = append(out, m)
	}
	return out
}

func finalize(t *testing.T, e *webtest.AdminEnv, id int64, method string) {
	t.Helper()
	if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": method}); st != 200 {
		t.Fatalf("finalize %d: %d %v", id, st, b)
	}
}

func keysOf(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

// The receipt as JSON (docs/receipts.md#routes): its shape, the number of the year's series,
// the seller from the settings, the VAT split exact to the cent; the invoice
// notification's numero_factura and receipt_url, null before finalize; the PDF
// for staff and the owner; the VeriFactu export.
func TestReceiptJSONNotificationAndPDF(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		facility(t, e, "21")
		cust, _ := apptest.Customer(t, e.A, "rosa@example.com", "611000111")
		stranger, _ := apptest.Customer(t, e.A, "otro@example.com", "611000222")
		id := webtest.CustBook(t, e.A, "611000111", "1111RRR", "COCHE", clocktest.D("2027-05-01")+"T10:00", clocktest.D("2027-05-04")+"T11:00", 1, []int{1, 2})
		p := fmt.Sprintf("/admin/reservations/details/%d/receipt", id)
		mine := fmt.Sprintf("/users/profile/reservation/%d/receipt", id)

		// Before finalize: no receipt (409, as the page), and the invoice asked for
		// by staff carries null number and link.
		st, body := e.JSON("GET", p, nil)
		webtest.WantMessage(t, st, body, 409, fmt.Sprintf("La reserva %d está PENDIENTE: el recibo solo se emite cuando la reserva está FINALIZADA (vehículo recogido y pagado).", id))
		webtest.WantStatus(t, webtest.Do(t, e.C, "GET", e.A.URL+p+".pdf", nil), 409)
		if st, b := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/invoice", id), nil); st != 202 {
			t.Fatalf("invoice request: %d %v", st, b)
		}
		inv := invoicePayloads(t, e, id)
		if len(inv) != 1 || inv[0]["numero_factura"] != nil || inv[0]["receipt_url"] != nil {
			t.Fatalf("invoice before finalize: %v", inv)
		}
		if _, ok := inv[0]["numero_factura"]; !ok {
			t.Error("the invoice payload lacks numero_factura (null expected)")
		}

		e.Exec(`UPDATE reservation SET cod_parking_spot = 'R-1' WHERE id_reservation = $1`, id)
		e.AddPhotos(id, 5)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); st != 200 {
			t.Fatalf("start: %d %v", st, b)
		}
		finalize(t, e, id, "TARJETA")
		year := clocktest.Base().Format("2006")
		number := "F" + year + "-000001"

		st, body = e.JSON("GET", p, nil)
		if st != 200 {
			t.Fatalf("receipt JSON: %d %v", st, body)
		}
		wantKeys := []string{"base", "customer", "excess", "id_reservation", "issued_at", "kind", "lines", "number", "payment_method",
			"pdf_url", "replaces", "seller", "total", "vat", "vat_rate", "verifactu"}
		if got := keysOf(body); !reflect.DeepEqual(got, wantKeys) {
			t.Errorf("receipt keys = %v, want %v", got, wantKeys)
		}
		issued, _ := body["issued_at"].(string)
		want := map[string]any{
			"number": number, "issued_at": issued,
			"seller":   map[string]any{"name": "Parking Aeropuerto Barajas, S.L.", "tax_id": "B12345674", "address": "Avenida de la Hispanidad 1, 28042 Madrid"},
			"vat_rate": 21.0, "base": 62.81, "vat": 13.19, "total": 76.0, "payment_method": "TARJETA",
			"id_reservation": float64(id), "kind": "F2", "customer": nil, "replaces": nil, "pdf_url": p + ".pdf", "excess": 0.0,
			"lines": []any{
				map[string]any{"description": "ECO · 3 días de estancia", "total": 36.0, "base": 29.75, "vat": 6.25},
				map[string]any{"description": "Lavado básico", "total": 15.0, "base": 12.40, "vat": 2.60},
				map[string]any{"description": "Lavado interior", "total": 25.0, "base": 20.66, "vat": 4.34},
			},
		}
		vf, _ := body["verifactu"].(map[string]any)
		delete(body, "verifactu")
		if !reflect.DeepEqual(body, want) {
			t.Errorf("receipt JSON =\n%v\nwant\n%v", body, want)
		}
		if !strings.HasPrefix(issued, clocktest.Base().Format("2006-01-02")) {
			t.Errorf("issued_at = %q, want the finalize day %s", issued, clocktest.Base().Format("2006-01-02"))
		}
		if vf["huella_anterior"] != "" || len(vf["huella"].(string)) != 64 || vf["tipo_factura"] != "F2" || vf["importe_total"] != "76.00" ||
			vf["cuota_total"] != "13.19" || vf["id_emisor_factura"] != "B12345674" ||
			!strings.HasPrefix(vf["qr_url"].(string), "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie="+number+"&fecha=") {
			t.Errorf("verifactu = %v", vf)
		}

		// The invoice notification of the finalize carries the number and the link.
		inv = invoicePayloads(t, e, id)
		if len(inv) != 2 || inv[1]["numero_factura"] != number || inv[1]["receipt_url"] != "http://127.0.0.1"+mine || inv[1]["status"] != "PAID" {
			t.Errorf("invoice after finalize: %v", inv[len(inv)-1])
		}

		// The page and the PDF, for staff and the owner; nobody else.
		page := e.Page(p)
		webtest.WantAll(t, "receipt page", page.Body, `data-receipt-number="`+number+`"`, "NIF B12345674 · Avenida de la Hispanidad 1, 28042 Madrid",
			"Parking Aeropuerto Barajas, S.L.", `data-receipt-vat>13,19 €</td>`)
		if strings.Contains(page.Body, "data-receipt-seller-missing") {
			t.Error("a receipt with the seller's name and NIF shows the note about the settings")
		}
		for _, c := range []struct {
			client *http.Client
			path   string
			status int
		}{{e.C, p + ".pdf", 200}, {cust, mine + ".pdf", 200}, {stranger, mine + ".pdf", 403}, {cust, mine, 200}} {
			res := webtest.Do(t, c.client, "GET", e.A.URL+c.path, nil)
			webtest.WantStatus(t, res, c.status)
			if c.status == 200 && strings.HasSuffix(c.path, ".pdf") {
				if res.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(res.Body, "%PDF-") || !strings.Contains(res.Body, number) {
					t.Errorf("%s: %s, %.20q", c.path, res.Header.Get("Content-Type"), res.Body)
				}
			}
		}
		st, body = webtest.CustCall(t, cust, "GET", e.A.URL+mine, nil)
		if st != 200 || body["number"] != number || body["pdf_url"] != mine+".pdf" {
			t.Errorf("the owner's receipt as JSON: %d %v", st, body)
		}

		// The VeriFactu export: one record, the chain valid; the CSV the same.
		st, body = e.JSON("GET", "/admin/verifactu/records", nil)
		recs, _ := body["records"].([]any)
		if st != 200 || body["valid"] != true || body["count"] != 1.0 || len(recs) != 1 || recs[0].(map[string]any)["num_serie_factura"] != number {
			t.Errorf("records: %d %v", st, body)
		}
		res := webtest.Do(t, e.C, "GET", e.A.URL+"/admin/verifactu/records?format=csv", nil)
		rows, err := csv.NewReader(strings.NewReader(res.Body)).ReadAll()
		if err != nil || len(rows) != 2 || rows[0][2] != "NumSerieFactura" || rows[1][2] != number || rows[1][9] != vf["huella"] {
			t.Errorf("records CSV: %v %v", err, rows)
		}
	})
}

// Concurrent finalizes get the numbers 1…N of the year's series, without a gap or
// a duplicate, and the VeriFactu chain verifies after them all.
func TestReceiptNumbersUnderConcurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		facility(t, e, "21")
		const n = 24
		ids := inCourse(t, e, n)
		finalizeAll(t, []*webtest.AdminEnv{e}, ids)
		wantSeries(t, e, ids)
	})
}

// The same with two instances of the service on one PostgreSQL database, the
// finalizes spread over both.
func TestReceiptNumbersAcrossInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		if d != store.Postgres {
			t.Skip("several instances share a PostgreSQL database; SQLite is one process")
		}
		cfg := apptest.Config(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		facility(t, e, "21")
		a2 := apptest.StartWith(t, cfg)
		e2 := &webtest.AdminEnv{T: t, A: a2, C: apptest.LoggedIn(t, a2, adminOf(t, e))}
		const n = 30
		ids := inCourse(t, e, n)
		finalizeAll(t, []*webtest.AdminEnv{e, e2}, ids)
		wantSeries(t, e, ids)
	})
}

// adminOf is the environment's administrator account.
func adminOf(t *testing.T, e *webtest.AdminEnv) account.User {
	t.Helper()
	var id int64
	if err := e.A.Store.DB().QueryRow(`SELECT id_customer FROM customer WHERE email = 'admin@example.com'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	c, err := e.A.Store.Customers().Customer(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return account.UserOf(c)
}

// inCourse makes n EN CURSO reservations.
func inCourse(t *testing.T, e *webtest.AdminEnv, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := 0; i < n; i++ {
		id := webtest.CustBook(t, e.A, fmt.Sprintf("6110%05d", i), fmt.Sprintf("%04dCCC", i), "COCHE",
			clocktest.D("2027-05-01")+"T10:00", clocktest.D("2027-05-04")+"T11:00", 1, []int{1})
		e.Exec(`UPDATE reservation SET cod_parking_spot = $2 WHERE id_reservation = $1`, id, fmt.Sprintf("C-%d", i))
		webtest.CustSetStatus(t, e.A, id, reservation.InCourse)
		ids = append(ids, id)
	}
	return ids
}

// finalizeAll finalizes every reservation at once, round-robin over the instances.
func finalizeAll(t *testing.T, envs []*webtest.AdminEnv, ids []int64) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, len(ids))
	for i, id := range ids {
		wg.Add(1)
		go func(e *webtest.AdminEnv, id int64) {
			defer wg.Done()
			req, _ := http.NewRequest("PATCH", fmt.Sprintf("%s/admin/reservations/%d/finalize", e.A.URL, id), bytes.NewReader([]byte(`{"paymentMethod":"EFECTIVO"}`)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			res, err := e.C.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				errs <- fmt.Sprintf("finalize %d: %d", id, res.StatusCode)
			}
		}(envs[i%len(envs)], id)
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}

// wantSeries checks that the reservations' receipts are numbered 1…len(ids) in the
// year's series, once each, and that the chain verifies.
func wantSeries(t *testing.T, e *webtest.AdminEnv, ids []int64) {
	t.Helper()
	year := clocktest.Base().Format("2006")
	seen := map[string]bool{}
	for _, id := range ids {
		st, body := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d/receipt", id), nil)
		num, _ := body["number"].(string)
		if st != 200 || seen[num] {
			t.Fatalf("receipt of %d: %d %v (seen: %v)", id, st, body, seen[num])
		}
		seen[num] = true
	}
	for i := 1; i <= len(ids); i++ {
		if num := fmt.Sprintf("F%s-%06d", year, i); !seen[num] {
			t.Errorf("no receipt %s: the series has a gap", num)
		}
	}
	st, body := e.JSON("GET", "/admin/verifactu/records", nil)
	if st != 200 || body["valid"] != true || body["count"] != float64(len(ids)) {
		t.Errorf("the chain after %d concurrent finalizes: %d valid=%v count=%v error=%v", len(ids), st, body["valid"], body["count"], body["error"])
	}
}

// A full invoice on request (docs/receipts.md#full-invoice-factura-completa): asked before finalize, the finalize
// issues it (F1) with the customer's tax id and address; asked after, a new full
// invoice (F3) takes the simplified receipt's place with the next number. The
// tax id is checked; the receipts cannot be altered in the database.
func TestFullInvoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		facility(t, e, "10")
		ids := inCourse(t, e, 2)
		year := clocktest.Base().Format("2006")
		invoice := func(id int64, body map[string]any) (int, map[string]any) {
			return e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/invoice", id), body)
		}

		for _, bad := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"tax_id": "12345678A", "address": "Calle Mayor 1"}, "El campo tax_id no es un NIF, NIE o CIF español válido (compruebe la letra o el dígito de control)."},
			{map[string]any{"tax_id": "12345678Z", "address": " "}, "Falta la dirección del cliente (address): la factura completa la necesita."},
			{map[string]any{"tax_id": true, "address": "Calle Mayor 1"}, "El campo tax_id debe ser un texto."},
		} {
			st, body := invoice(ids[0], bad.body)
			webtest.WantMessage(t, st, body, 400, bad.msg)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM invoice_recipient`); n != 0 {
			t.Errorf("refused requests stored %d recipients", n)
		}

		// Before finalize: kept for the finalize.
		st, body := invoice(ids[0], map[string]any{"tax_id": "x-1234567-l", "address": "Calle Mayor 1, 28013 Madrid"})
		if st != 202 || body["numero_factura"] != nil {
			t.Fatalf("full invoice before finalize: %d %v", st, body)
		}
		finalize(t, e, ids[0], "EFECTIVO")
		st, body = e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d/receipt", ids[0]), nil)
		first := "F" + year + "-000001"
		cust, _ := body["customer"].(map[string]any)
		if st != 200 || body["number"] != first || body["kind"] != "F1" || body["vat_rate"] != 10.0 ||
			cust["tax_id"] != "X1234567L" || cust["address"] != "Calle Mayor 1, 28013 Madrid" || cust["name"] == "" {
			t.Errorf("F1 receipt: %d %v", st, body)
		}
		page := e.Page(fmt.Sprintf("/admin/reservations/details/%d/receipt", ids[0]))
		webtest.WantAll(t, "full invoice page", page.Body, "Factura nº <span data-receipt-no>"+first+"</span>", "<br>NIF X1234567L<br>Calle Mayor 1, 28013 Madrid</p>")

		// After finalize: F2, then an F3 in its place; asked again, the same one.
		finalize(t, e, ids[1], "TARJETA")
		second, third := "F"+year+"-000002", "F"+year+"-000003"
		req := map[string]any{"tax_id": "B12345674", "name": "Viajes Ejemplo, S.L.", "address": "Gran Vía 1, Madrid"}
		for round := 0; round < 2; round++ {
			st, body = invoice(ids[1], req)
			if st != 202 || body["numero_factura"] != third {
				t.Fatalf("full invoice after finalize (%d): %d %v", round, st, body)
			}
		}
		st, body = e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d/receipt", ids[1]), nil)
		cust, _ = body["customer"].(map[string]any)
		if st != 200 || body["number"] != third || body["kind"] != "F3" || body["replaces"] != second || cust["name"] != "Viajes Ejemplo, S.L." {
			t.Errorf("F3 receipt: %d %v", st, body)
		}
		inv := invoicePayloads(t, e, ids[1])
		if last := inv[len(inv)-1]; last["numero_factura"] != third {
			t.Errorf("the full invoice's notification: %v", last)
		}
		req["tax_id"] = "12345678Z"
		st, body = invoice(ids[1], req)
		webtest.WantMessage(t, st, body, 409, fmt.Sprintf("La reserva %d ya tiene la factura %s a nombre de Viajes Ejemplo, S.L. (NIF B12345674): cambiar sus datos requiere una factura rectificativa, que este servicio no emite.", ids[1], third))

		st, body = e.JSON("GET", "/admin/verifactu/records", nil)
		if st != 200 || body["valid"] != true || body["count"] != 3.0 {
			t.Errorf("records: %d %v", st, body)
		}
		// Immutable: the database refuses to change or remove a receipt or a line.
		for _, q := range []string{`UPDATE receipt SET total_cents = 1`, `DELETE FROM receipt`, `UPDATE receipt_line SET description = 'x'`, `DELETE FROM receipt_line`} {
			if _, err := e.A.Store.WriteDB().Exec(q); err == nil || !strings.Contains(err.Error(), "receipts are immutable") {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
}
