package ui_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/clock/clocktest"

	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/reservations.md#per-state-rules, PENDIENTE row: entry, exit, services, vehicle and customer
// data editable, spot assignable and clearable; the price is recalculated on the
// server and everything is saved together.
func TestAdminUpdatePending(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)), 3, "A-1"))
		status, body := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id), map[string]any{
			"full_name": "  Ana Pérez ", "phone": " 611222333 ", "email": "ana@example.com",
			"license_plate": "0001bcd", "brand": "Seat", "model": "León", "color": "Rojo", "vehicle_type": "suv",
			"entry_date": (clocktest.D("2027-03-02") + "T09:00"), "exit_date": (clocktest.D("2027-03-08") + "T09:00"), "id_main_service": "2",
			"additional_services": []any{1, "3", 1, 99}, "cod_parking_spot": "  b-12 ", "notes": "Llaves en recepción",
			"total_price": 0.01,
		})
		if status != 200 || body["success"] != true || body["message"] != "Reserva actualizada correctamente." || body["repriced"] != true {
			t.Fatalf("update: %d %v", status, body)
		}
		res := body["reservation"].(map[string]any)
		// 6 days of TRANSFER (band 4–10: 11 €) × SUV 1.25 = 82.50, plus 15 + 50 of extras.
		if res["total_price"] != 147.5 || res["entry_date"] != (clocktest.D("2027-03-02")+"T09:00:00"+clocktest.Offset("2027-03-02")) || res["exit_date"] != (clocktest.D("2027-03-08")+"T09:00:00"+clocktest.Offset("2027-03-08")) ||
			res["id_main_service"] != 2.0 || res["cod_parking_spot"] != "B-12" || res["notes"] != "Llaves en recepción" {
			t.Errorf("reservation: %v", res)
		}
		if c := body["customer"].(map[string]any); c["full_name"] != "Ana Pérez" || c["phone"] != "+34611222333" || c["email"] != "ana@example.com" {
			t.Errorf("customer: %v", c)
		}
		if v := body["vehicle"].(map[string]any); v["license_plate"] != "0001BCD" || v["brand"] != "Seat" || v["model"] != "León" ||
			v["color"] != "Rojo" || v["type"] != "SUV" {
			t.Errorf("vehicle: %v", v)
		}
		extras, err := e.A.Store.Reservations().ReservationExtras(context.Background(), id)
		if err != nil || len(extras) != 2 || extras[0].ID != 1 || extras[1].ID != 3 {
			t.Errorf("extras: %+v %v", extras, err)
		}

		// The spot can be cleared (blank → null) while PENDIENTE; the exit opened.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id), map[string]any{"cod_parking_spot": "   ", "exit_date": nil})
		if status != 200 {
			t.Fatalf("clear spot: %d %v", status, body)
		}
		r := e.Stored(id)
		// An open exit is priced as one day: TRANSFER 15 € × 1.25 = 18.75, plus 65 € of extras.
		if r.Spot != nil || r.Exit != nil || r.TotalPrice != 8375 {
			t.Errorf("after clearing: spot %v exit %v total %v; want null, null, 83.75", r.Spot, r.Exit, r.TotalPrice)
		}

		// Exit not after entry: refused, naming both dates; nothing saved.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id), map[string]any{"exit_date": (clocktest.D("2027-03-01") + "T09:00"), "full_name": "Nadie"})
		webtest.WantMessage(t, status, body, 400, ("La fecha de salida (" + clocktest.ES("01/03/2027") + ", 09:00:00) debe ser posterior a la fecha de entrada (" + clocktest.ES("02/03/2027") + ", 09:00:00)."))
		if c, _ := e.A.Store.Customers().Customer(context.Background(), r.CustomerID); c.FullName != "Ana Pérez" {
			t.Errorf("refused update changed the customer to %q", c.FullName)
		}

		// The plate is never editable.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id), map[string]any{"license_plate": "1111XYZ"})
		webtest.WantMessage(t, status, body, 400, "La matrícula no se puede modificar: la reserva es del vehículo 0001BCD.")

		// Bad input is named.
		for _, tc := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"entry_date": "ayer"}, `El campo entry_date no es una fecha válida ("ayer"): use ISO 8601, por ejemplo 2026-11-21T10:00.`},
			{map[string]any{"id_main_service": "uno"}, `El campo id_main_service debe ser un número entero ("uno" no lo es).`},
			{map[string]any{"additional_services": []any{"x"}}, `El campo additional_services debe ser una lista de números ("x" no lo es).`},
			{map[string]any{"cod_parking_spot": strings.Repeat("A", 21)}, "El campo cod_parking_spot admite como máximo 20 caracteres."},
			{map[string]any{"phone": " "}, "El teléfono del cliente es obligatorio."},
			{map[string]any{"email": "nope"}, `El correo electrónico "nope" (campo email) no es válido: debe tener la forma nombre@dominio.es.`},
			{map[string]any{"vehicle_type": "TANQUE"}, "No existe coeficiente de precio para el tipo de vehículo TANQUE."},
			{map[string]any{"id_main_service": 77}, "No existe tarifa para el servicio 77 y 1 días."},
			{map[string]any{"full_name": map[string]any{"a": 1}}, "El campo full_name tiene un tipo no válido."},
		} {
			status, body := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id), tc.body)
			webtest.WantMessage(t, status, body, 400, tc.msg)
		}
		status, body = e.JSON("POST", "/admin/reservations/999/edit", map[string]any{"full_name": "x"})
		webtest.WantMessage(t, status, body, 404, "La reserva 999 no existe.")
	})
}

// docs/reservations.md#per-state-rules, EN CURSO row: the entry date is kept (a sent one is
// ignored), exit and services editable, vehicle and customer data editable, and the
// spot must stay assigned (cleared → refused: 400 for JSON, redirect with error
// for a browser form).
func TestAdminUpdateInCourse(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.StartedReservation(1, "A-1")
		p := fmt.Sprintf("/admin/reservations/%d/edit", id)
		status, body := e.JSON("POST", p, map[string]any{
			"entry_date": (clocktest.D("2027-02-01") + "T10:00"), "exit_date": (clocktest.D("2027-03-06") + "T10:00"), "additional_services": []int{2},
			"brand": "Kia", "full_name": "Luis", "cod_parking_spot": "a-2",
		})
		if status != 200 {
			t.Fatalf("update: %d %v", status, body)
		}
		r := e.Stored(id)
		// Entry kept (1 March 10:00); 5 days of ECO at 8 € + 25 €.
		if !r.Entry.Equal(clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid))) || r.Exit == nil || !r.Exit.Equal(clocktest.Shift(time.Date(2027, 3, 6, 10, 0, 0, 0, webtest.Madrid))) ||
			r.TotalPrice != 6500 || *r.Spot != "A-2" || r.Status != "EN CURSO" {
			t.Errorf("after update: %+v", r)
		}
		if v, _ := e.A.Store.Customers().Vehicle(context.Background(), r.VehicleID); v.Brand != "Kia" {
			t.Errorf("vehicle brand %q, want Kia", v.Brand)
		}

		// Photos are still addable while EN CURSO.
		if st, b := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/photos", id), map[string]any{"file_path": "https://x.example/late.jpg"}); st != 201 || b["photo_count"] != 6.0 {
			t.Errorf("photo while EN CURSO: %d %v", st, b)
		}

		// Clearing the spot: refused.
		status, body = e.JSON("POST", p, map[string]any{"cod_parking_spot": " "})
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("La reserva %d está EN CURSO: la plaza de aparcamiento no puede quedar vacía.", id))
		st, loc, _ := e.Form(p, url.Values{"cod_parking_spot": {""}, "full_name": {"Otro"}})
		want := fmt.Sprintf("/admin/reservations/details/%d?error=", id) +
			url.QueryEscape(fmt.Sprintf("La reserva %d está EN CURSO: la plaza de aparcamiento no puede quedar vacía.", id))
		if st != 303 || loc != want {
			t.Errorf("form: %d %s\nwant 303 %s", st, loc, want)
		}
		if r := e.Stored(id); r.Spot == nil || *r.Spot != "A-2" {
			t.Errorf("spot after refusals: %v", r.Spot)
		}

		// A browser form that succeeds goes back to the detail page.
		st, loc, _ = e.Form(p, url.Values{"color": {"Verde"}, "additional_services": {""}})
		if st != 303 || loc != fmt.Sprintf("/admin/reservations/details/%d?updated=true", id) {
			t.Errorf("form update: %d %s", st, loc)
		}
		if r := e.Stored(id); r.TotalPrice != 4000 { // the hidden empty field cleared the extras
			t.Errorf("total after clearing extras %v, want 40.00", r.TotalPrice)
		}
	})
}

// A phone used by another customer is refused with 409 (or the detail page's
// error for a form), never a 500; an edit that changes nothing that prices keeps the
// stored total even after a catalog change (docs/pricing.md#catalog).
func TestAdminUpdateConflictsAndStablePrice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		entry := clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid))
		first := e.WalkIn(webtest.WalkInFields(1, entry, 3, ""))
		e.WalkIn(webtest.WalkInFields(2, entry, 3, ""))
		p := fmt.Sprintf("/admin/reservations/%d/edit", first)
		status, body := e.JSON("POST", p, map[string]any{"phone": "600000002"})
		webtest.WantMessage(t, status, body, 409, "El teléfono +34600000002 ya pertenece a otro cliente (número 3); no se puede asignar a este.")
		st, loc, _ := e.Form(p, url.Values{"phone": {"600000002"}})
		if st != 303 || !strings.Contains(loc, "?error=El+tel%C3%A9fono+%2B34600000002+ya+pertenece") {
			t.Errorf("form: %d %s", st, loc)
		}

		// The ECO 1–3 day band goes up; an edit of the customer's name keeps 36.00.
		if st, b := e.JSON("PATCH", "/admin/catalog/rates/1", map[string]any{"daily_price": 20}); st != 200 {
			t.Fatalf("rate change: %d %v", st, b)
		}
		status, body = e.JSON("POST", p, map[string]any{"full_name": "Nuevo Nombre", "entry_date": (clocktest.D("2027-03-01") + "T10:00"), "additional_services": []int{}})
		if status != 200 || body["repriced"] != false || body["reservation"].(map[string]any)["total_price"] != 36.0 {
			t.Errorf("unpriced edit: %d %v", status, body)
		}
		// Moving the exit reprices with the new band.
		status, body = e.JSON("POST", p, map[string]any{"exit_date": (clocktest.D("2027-03-03") + "T10:00")})
		if status != 200 || body["repriced"] != true || body["reservation"].(map[string]any)["total_price"] != 40.0 {
			t.Errorf("repriced edit: %d %v", status, body)
		}
	})
}

// The encodings the routes accept: JSON declared, JSON sent without a type (curl -d),
// an urlencoded form and a multipart form (FormData) all reach the same update.
func TestAdminInputEncodings(t *testing.T) {
	e := webtest.NewAdminEnv(t, store.SQLite)
	id := e.StartedReservation(1, "A-1")
	p := fmt.Sprintf("/admin/reservations/%d/edit", id)
	cases := []struct {
		name, contentType, body string
		wantStatus              int
		wantColor               string
	}{
		{"json", "application/json", `{"color":"Rojo"}`, 200, "Rojo"},
		{"json without a type", "", `{"color":"Verde"}`, 200, "Verde"},
		{"form", "application/x-www-form-urlencoded", "color=Azul", 303, "Azul"},
		{"multipart", "multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"color\"\r\n\r\nGris\r\n--XX--\r\n", 303, "Gris"},
		{"malformed json", "application/json", `{"color":`, 400, "Gris"},
	}
	for _, tc := range cases {
		status, _, body := e.Send("POST", p, tc.contentType, tc.body)
		v, _ := e.A.Store.Customers().Vehicle(context.Background(), e.Stored(id).VehicleID)
		if status != tc.wantStatus || v.Color != tc.wantColor {
			t.Errorf("%s: %d %s, color %q; want %d and %q", tc.name, status, body, v.Color, tc.wantStatus, tc.wantColor)
		}
	}
	// finalize reads paymentMethod from a form body too, and from JSON sent untyped.
	if status, _, body := e.Send("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), "", `{"paymentMethod":"TARJETA"}`); status != 200 {
		t.Errorf("untyped JSON finalize: %d %s", status, body)
	}
}
