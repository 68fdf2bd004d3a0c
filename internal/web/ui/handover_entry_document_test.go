package ui_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
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

// entryPayload is the body of the reservation's vehicle_entry notification.
func entryPayload(t *testing.T, e *webtest.AdminEnv, id int64) map[string]any {
	t.Helper()
	var p string
	if err := e.A.Store.DB().QueryRow(`SELECT payload FROM notification WHERE id_reservation = $1 AND type = 'vehicle_entry'`, id).Scan(&p); err != nil {
		t.Fatalf("vehicle_entry of %d: %v", id, err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(p), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The start records the moment of check-in and whether the keys were handed over
// (docs/entry-document.md); keys_handed_over must be a boolean, and a refused start
// changes nothing.
func TestStartRecordsCheckInAndKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		id := e.WalkIn(webtest.WalkInFields(1, clocktest.Day(0, 9, 0), 3, "K-1"))
		e.AddPhotos(id, 5)
		detail := fmt.Sprintf("/admin/reservations/details/%d", id)
		start := fmt.Sprintf("/admin/reservations/%d/start", id)

		_, body := e.JSON("GET", detail, nil)
		res := body["reservation"].(map[string]any)
		if v, ok := res["checked_in_at"]; !ok || v != nil || res["keys_handed_over"] != false {
			t.Errorf("before the start: checked_in_at %v (present %v), keys %v", v, ok, res["keys_handed_over"])
		}

		for _, bad := range []string{`{"keys_handed_over":"yes"}`, `{"keys_handed_over":1}`, `{"keys_handed_over":"true"}`, `{"keys_handed_over":[true]}`} {
			status, b := e.JSON("PATCH", start, bad)
			if status != 400 || !strings.Contains(fmt.Sprint(b["message"]), "keys_handed_over") {
				t.Errorf("%s: %d %v, want 400 naming keys_handed_over", bad, status, b)
			}
			if r := e.Stored(id); r.Status != reservation.Pending || r.CheckedInAt != nil || r.KeysHandedOver {
				t.Fatalf("%s changed the reservation: %+v", bad, r)
			}
		}

		at := clk.Advance(7*time.Minute + 30*time.Second)
		if status, b := e.JSON("PATCH", start, map[string]any{"keys_handed_over": true, "mileage_km": 1200}); status != 200 {
			t.Fatalf("start: %d %v", status, b)
		}
		r := e.Stored(id)
		if r.CheckedInAt == nil || !r.CheckedInAt.Equal(at) || !r.KeysHandedOver {
			t.Errorf("stored after the start: checked_in_at %v (want %v), keys %v", r.CheckedInAt, at, r.KeysHandedOver)
		}
		_, body = e.JSON("GET", detail, nil)
		res = body["reservation"].(map[string]any)
		if res["checked_in_at"] != localtime.JSON(at, webtest.Madrid) || res["keys_handed_over"] != true {
			t.Errorf("detail after the start: %v %v", res["checked_in_at"], res["keys_handed_over"])
		}
		page := e.Page(detail)
		webtest.WantAll(t, "detail page", page.Body, `data-fact="keys">Entregadas<`, `data-fact="checked-in">`+at.In(webtest.Madrid).Format("02/01/2006 15:04"),
			`href="/admin/reservations/details/`+webtest.Itoa(id)+`/justificante" data-entry-document-link`)

		// Without the field (and with null) the keys stay with the customer.
		other := e.WalkIn(webtest.WalkInFields(2, clocktest.Day(0, 9, 0), 3, "K-2"))
		e.AddPhotos(other, 5)
		if status, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", other), `{"keys_handed_over":null}`); status != 200 {
			t.Fatalf("start with null: %d %v", status, b)
		}
		if r := e.Stored(other); r.KeysHandedOver || r.CheckedInAt == nil {
			t.Errorf("start with null keys: %+v", r)
		}
		if p := entryPayload(t, e, other); p["llaves"] != false {
			t.Errorf("vehicle_entry llaves without keys = %v", p["llaves"])
		}
	})
}

// The entry document for staff, the owner and the manage link, as a page, JSON and
// PDF: refused before the start (naming the state), 404 for an unknown id, 403 for
// another customer, 404 with a bad token; the vehicle_entry notification carries
// llaves and a justificante_url that opens it.
func TestEntryDocument(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		if st, b := e.JSON("PATCH", "/admin/settings", map[string]any{"name": "Parking Aeropuerto Barajas, S.L.", "tax_id": "B12345674",
			"address": "Avenida de la Hispanidad 1, 28042 Madrid", "phone": "910000000"}); st != 200 {
			t.Fatalf("settings: %d %v", st, b)
		}
		cust, _ := apptest.Customer(t, e.A, "rosa@example.com", "611000111")
		stranger, _ := apptest.Customer(t, e.A, "otro@example.com", "611000222")
		entry := clocktest.Day(0, 9, 0)
		exit := entry.AddDate(0, 0, 4)
		id := webtest.CustBookPast(t, e.A, "611000111", "1111RRR", "COCHE", entry.Format("2006-01-02T15:04"), exit.Format("2006-01-02T15:04"), 1, nil)
		e.Exec(`UPDATE vehicle SET brand = 'Seat', model = 'Ateca', color = 'Rojo' WHERE license_plate = '1111RRR'`)
		e.Exec(`UPDATE reservation SET cod_parking_spot = 'A-12' WHERE id_reservation = $1`, id)
		staff := fmt.Sprintf("/admin/reservations/details/%d/justificante", id)
		mine := fmt.Sprintf("/users/profile/reservation/%d/justificante", id)

		// Before the start: 400 naming the state, for every surface and format.
		want400 := fmt.Sprintf("La reserva %d está PENDIENTE: el justificante de entrada se emite cuando el vehículo entra en el aparcamiento (reserva EN CURSO).", id)
		st, body := e.JSON("GET", staff, nil)
		webtest.WantMessage(t, st, body, 400, want400)
		webtest.WantStatus(t, webtest.Do(t, e.C, "GET", e.A.URL+staff+"?format=pdf", nil), 400)
		res := webtest.Do(t, cust, "GET", e.A.URL+mine, nil)
		webtest.WantStatus(t, res, 400)
		webtest.WantAll(t, "owner before the start", res.Body, "PENDIENTE")
		st, body = e.JSON("GET", "/admin/reservations/details/999999/justificante", nil)
		webtest.WantMessage(t, st, body, 404, "La reserva 999999 no existe.")

		e.AddPhotos(id, 5)
		at := clk.Advance(7 * time.Minute)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), map[string]any{"keys_handed_over": true}); st != 200 {
			t.Fatalf("start: %d %v", st, b)
		}
		ref := reservation.ShowReference(e.Stored(id).Reference)

		st, body = e.JSON("GET", staff, nil)
		wantDoc := map[string]any{
			"facility":  map[string]any{"name": "Parking Aeropuerto Barajas, S.L.", "tax_id": "B12345674", "address": "Avenida de la Hispanidad 1, 28042 Madrid", "phone": "910000000"},
			"reference": ref, "license_plate": "1111RRR", "brand": "Seat", "model": "Ateca", "color": "Rojo",
			"entry_at": localtime.JSON(at, webtest.Madrid), "keys_handed_over": true, "spot": "A-12",
			"exit_date": localtime.JSON(exit, webtest.Madrid), "conditions_url": "http://127.0.0.1/condiciones",
		}
		if st != 200 || !reflect.DeepEqual(body, wantDoc) {
			t.Errorf("entry document JSON: %d\n got %v\nwant %v", st, body, wantDoc)
		}
		page := e.Page(staff)
		webtest.WantStatus(t, page, 200)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "staff page", page.Body, "Justificante de entrada", `data-entry-fact="Matrícula">1111RRR<`,
			`data-entry-fact="Llaves">Sí, el cliente entrega las llaves<`, `data-entry-fact="Entrada">`+at.In(webtest.Madrid).Format("02/01/2006 15:04")+`<`,
			"Ley 40/2002", `href="`+staff+`?format=pdf"`)
		pdf := webtest.Do(t, e.C, "GET", e.A.URL+staff+"?format=pdf", nil)
		webtest.WantStatus(t, pdf, 200)
		if pdf.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(pdf.Body, "%PDF-") {
			t.Errorf("PDF: %s %.10q", pdf.Header.Get("Content-Type"), pdf.Body)
		}
		for _, want := range []string{"Justificante de entrada", "1111RRR", "Seat Ateca", ref, "B12345674",
			"S\xed, el cliente entrega las llaves", at.In(webtest.Madrid).Format("02/01/2006 15:04")} { // Windows-1252: í
			if !strings.Contains(pdf.Body, want) {
				t.Errorf("the PDF lacks %q", want)
			}
		}

		// The owner: page, JSON and PDF; another customer: 403.
		res = webtest.Do(t, cust, "GET", e.A.URL+mine, nil)
		webtest.WantStatus(t, res, 200)
		webtest.WantAll(t, "owner page", res.Body, `data-entry-fact="Matrícula">1111RRR<`, `href="`+mine+`?format=pdf"`)
		if st, b := webtest.CustCall(t, cust, "GET", e.A.URL+mine, nil); st != 200 || !reflect.DeepEqual(b, wantDoc) {
			t.Errorf("owner JSON: %d %v", st, b)
		}
		if res := webtest.Do(t, cust, "GET", e.A.URL+mine+"?format=pdf", nil); res.StatusCode != 200 || !strings.Contains(res.Body, "1111RRR") {
			t.Errorf("owner PDF: %d", res.StatusCode)
		}
		for _, path := range []string{mine, mine + "?format=pdf"} {
			webtest.WantStatus(t, webtest.Do(t, stranger, "GET", e.A.URL+path, nil), 403)
		}
		if st, b := webtest.CustCall(t, stranger, "GET", e.A.URL+mine, nil); st != 403 || b["success"] != false {
			t.Errorf("another customer's JSON: %d %v", st, b)
		}
		webtest.WantAll(t, "profile", webtest.Do(t, cust, "GET", e.A.URL+"/users/profile", nil).Body, `href="`+mine+`" data-res-entry-document`)

		// The notification: llaves and the signed link, which opens the document.
		p := entryPayload(t, e, id)
		link, _ := p["justificante_url"].(string)
		if p["llaves"] != true || !strings.HasPrefix(link, "http://127.0.0.1/reserva/"+ref+"/justificante?t=") {
			t.Fatalf("vehicle_entry: llaves %v, justificante_url %q", p["llaves"], link)
		}
		path := strings.TrimPrefix(link, "http://127.0.0.1")
		anon := apptest.Client(t)
		res = webtest.Do(t, anon, "GET", e.A.URL+path, nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		webtest.WantAll(t, "manage link page", res.Body, `data-entry-fact="Matrícula">1111RRR<`, "Volver a la reserva")
		if st, b := webtest.CustCall(t, anon, "GET", e.A.URL+path, nil); st != 200 || !reflect.DeepEqual(b, wantDoc) {
			t.Errorf("manage link JSON: %d %v", st, b)
		}
		u, _ := url.Parse(path)
		pdfPath := u.Path + "?" + url.Values{"t": {u.Query().Get("t")}, "format": {"pdf"}}.Encode()
		if res := webtest.Do(t, anon, "GET", e.A.URL+pdfPath, nil); res.StatusCode != 200 || !strings.HasPrefix(res.Body, "%PDF-") {
			t.Errorf("manage link PDF: %d", res.StatusCode)
		}
		// The manage page links it.
		webtest.WantAll(t, "manage page", webtest.Do(t, anon, "GET", e.A.URL+"/reserva/"+ref+"?t="+url.QueryEscape(u.Query().Get("t")), nil).Body,
			"data-manage-entry-document")
		// A bad or missing token: 404, as the other /reserva routes.
		for _, bad := range []string{u.Path + "?t=" + url.QueryEscape(u.Query().Get("t")+"x"), u.Path, u.Path + "?t=1.abc&format=pdf"} {
			res := webtest.Do(t, anon, "GET", e.A.URL+bad, nil)
			webtest.WantStatus(t, res, http.StatusNotFound)
			if strings.Contains(res.Body, "1111RRR") {
				t.Errorf("%s shows the document", bad)
			}
		}
	})
}

// Until the seller's name, tax id and address are set, every staff page shows a
// banner linking to the settings; customers never see it; once all three are set
// it is gone.
func TestSellerMissingBanner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, clocktest.Day(1, 9, 0), 3, "B-1"))
		pages := []string{"/admin/dashboard", "/admin/history", "/admin/parking", "/admin/settings", "/admin/reservations/new",
			fmt.Sprintf("/admin/reservations/details/%d", id)}
		banner := `data-seller-missing`
		check := func(want bool) {
			t.Helper()
			for _, p := range pages {
				res := e.Page(p)
				webtest.WantStatus(t, res, 200)
				if got := strings.Contains(res.Body, banner); got != want {
					t.Errorf("%s: banner shown %v, want %v", p, got, want)
				}
				if want && !strings.Contains(res.Body, `<a href="/admin/settings">Complételos en Ajustes</a>`) {
					t.Errorf("%s: the banner does not link the settings", p)
				}
			}
		}
		check(true)
		cust, _ := apptest.Customer(t, e.A, "rosa@example.com", "611000111")
		if res := webtest.Do(t, cust, "GET", e.A.URL+"/users/profile", nil); strings.Contains(res.Body, banner) {
			t.Error("a customer page shows the staff banner")
		}
		save := func(f map[string]any) {
			t.Helper()
			if st, b := e.JSON("PATCH", "/admin/settings", f); st != 200 {
				t.Fatalf("settings: %d %v", st, b)
			}
		}
		save(map[string]any{"name": "Parking Aeropuerto Barajas, S.L.", "tax_id": "B12345674"})
		check(true) // the address is still missing
		save(map[string]any{"address": "Avenida de la Hispanidad 1, 28042 Madrid"})
		check(false)
	})
}

// A walk-in whose exit has already passed is accepted, with a warning in the JSON
// answer and on the page after creating it; one with a future exit has none.
func TestWalkInPastExitWarning(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		past := webtest.WalkInFields(1, clocktest.Day(-3, 9, 0), 2, "")
		st, body := e.JSON("POST", "/admin/reservations/new", past)
		if st != 201 {
			t.Fatalf("past walk-in: %d %v", st, body)
		}
		w, _ := body["warning"].(string)
		if !strings.Contains(w, "la fecha de salida ("+clocktest.Day(-1, 9, 0).Format("02/01/2006")+", 09:00:00) ya ha pasado") {
			t.Errorf("warning = %q", w)
		}
		id := int64(body["data"].(map[string]any)["id_reservation"].(float64))
		page := e.Page(fmt.Sprintf("/admin/reservations/details/%d?created=true", id))
		webtest.WantAll(t, "detail after creating", page.Body, "data-walkin-warning", "ya ha pasado")

		st, body = e.JSON("POST", "/admin/reservations/new", webtest.WalkInFields(2, clocktest.Day(1, 9, 0), 2, ""))
		if _, has := body["warning"]; st != 201 || has {
			t.Errorf("future walk-in: %d %v", st, body)
		}
		id = int64(body["data"].(map[string]any)["id_reservation"].(float64))
		if page := e.Page(fmt.Sprintf("/admin/reservations/details/%d?created=true", id)); strings.Contains(page.Body, "data-walkin-warning") {
			t.Error("a walk-in with a future exit shows the warning")
		}
	})
}

// The PDF receipt carries the hand-over table the receipt page shows: the entry's
// and the exit's mileage, fuel and damage.
func TestReceiptPDFHandover(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		facility(t, e, "21")
		id := e.WalkIn(webtest.WalkInFields(1, clocktest.Day(0, 9, 0), 2, "H-1"))
		e.AddPhotos(id, 5)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id),
			map[string]any{"mileage_km": "123456", "fuel_percent": "50", "damage_notes": "Rayón en la puerta"}); st != 200 {
			t.Fatalf("start: %d %v", st, b)
		}
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id),
			map[string]any{"paymentMethod": "EFECTIVO", "mileage_km": "123789", "fuel_percent": "40"}); st != 200 {
			t.Fatalf("finalize: %d %v", st, b)
		}
		res := webtest.Do(t, e.C, "GET", e.A.URL+fmt.Sprintf("/admin/reservations/details/%d/receipt.pdf", id), nil)
		webtest.WantStatus(t, res, 200)
		// Windows-1252 text in an uncompressed PDF (í, ó), its parentheses escaped.
		for _, want := range []string{"Entrega y recogida del veh\xedculo", "Entrega del veh\xedculo \\(entrada\\)", "Recogida del veh\xedculo \\(salida\\)",
			"123.456 km", "50 %", "Ray\xf3n en la puerta", "123.789 km", "40 %", "Ninguno anotado", "Kilometraje", "Combustible o carga"} {
			if !strings.Contains(res.Body, want) {
				t.Errorf("the PDF receipt lacks %q", want)
			}
		}
	})
}
