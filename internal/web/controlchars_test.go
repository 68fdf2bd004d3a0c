package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"testing"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// A U+0000 in any text field of any route is a client mistake (docs/input-rules.md#control-characters: control
// characters are refused), never a 500 — PostgreSQL refuses the byte in text, so a
// field that reached the database unchecked would fail there. The sweep sends every
// string field of each route's valid body with a NUL in it, one field at a time.
func TestNULInEveryTextFieldIsNeverA500(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		cust, _ := apptest.Customer(t, a, "eva@example.com", "611000111")
		id := e.WalkIn(webtest.WalkInFields(1, clocktest.Day(3, 10, 0), 2, "A-1"))
		entry, exit := clocktest.D("2026-12-01")+"T10:00", clocktest.D("2026-12-04")+"T10:00"

		routes := []struct {
			name, method, path string
			client             *http.Client
			body               map[string]any
		}{
			{"quote", "POST", "/api/pricing/dynamic", nil, map[string]any{
				"entry_date": entry, "exit_date": exit, "vehicle_type": "COCHE", "id_main_service": 1}},
			{"public booking", "POST", "/api/reservations/public-new", nil, map[string]any{
				"full_name": "Ana", "phone": "622333444", "email": "ana@example.com", "license_plate": "9988LMN",
				"brand": "Seat", "model": "Ibiza", "vehicle_type": "COCHE",
				"entry_date": entry, "exit_date": exit, "id_main_service": 1}},
			{"registration", "POST", "/users/register", apptest.Client(t), map[string]any{
				"full_name": "Leo", "email": "leo@example.com", "phone": "622999888",
				"password": "leo-password", "confirmPassword": "leo-password"}},
			{"login", "POST", "/users/login", apptest.Client(t), map[string]any{
				"email": "eva@example.com", "password": "x", "loginType": "customer"}},
			{"token", "POST", "/api/auth/token", apptest.Client(t), map[string]any{"email": "eva@example.com", "password": "x"}},
			{"walk-in", "POST", "/admin/reservations/new", e.C, map[string]any{
				"full_name": "Bea", "phone": "633444555", "email": "bea@example.com", "license_plate": "1111XYZ",
				"brand": "Kia", "model": "Rio", "color": "Azul", "vehicle_type": "COCHE", "id_main_service": 1,
				"entry_date": entry, "exit_date": exit, "cod_parking_spot": "B-2", "notes": "Llaves"}},
			{"staff update", "POST", fmt.Sprintf("/admin/reservations/%d/edit", id), e.C, map[string]any{
				"full_name": "Cliente 1", "email": "c1@example.com", "phone": "600000001", "license_plate": "0001BCD",
				"brand": "Seat", "model": "León", "color": "Gris", "notes": "Nota", "cod_parking_spot": "A-2",
				"entry_date": entry, "exit_date": exit}},
			{"photo", "POST", fmt.Sprintf("/admin/reservations/%d/photos", id), e.C, map[string]any{
				"file_path": "https://fotos.example.com/1.jpg", "description": "Frontal"}},
			{"finalize", "PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), e.C, map[string]any{"payment_method": "TARJETA"}},
			{"new extra", "POST", "/admin/catalog/additional-services", e.C, map[string]any{"name": "Aspirado", "price": "9.50"}},
			{"new main service", "POST", "/admin/catalog/main-services", e.C, map[string]any{"name": "VIP", "description": "Cubierto"}},
			{"new vehicle type", "POST", "/admin/catalog/vehicle-types", e.C, map[string]any{"type": "QUAD", "coefficient": "0.75"}},
			{"new staff account", "POST", "/admin/staff", e.C, map[string]any{
				"full_name": "Luis", "email": "luis@example.com", "password": "luis-pass-1", "confirmPassword": "luis-pass-1"}},
			{"profile", "PUT", "/users/profile/update", cust, map[string]any{"nombre": "Eva", "email": "eva@example.com", "telefono": "611000111"}},
			{"password", "PUT", "/users/profile/password", cust, map[string]any{
				"currentPassword": "password1", "newPassword": "password2", "confirmPassword": "password2"}},
			{"account erasure", "POST", "/users/profile/delete", cust, map[string]any{"password": "customer-password"}},
			{"staff erasure", "POST", "/admin/customers/999999/erase", e.C, map[string]any{"confirm": "ELIMINAR"}},
		}
		for _, r := range routes {
			fields := make([]string, 0, len(r.body))
			for k, v := range r.body {
				if _, ok := v.(string); ok {
					fields = append(fields, k)
				}
			}
			sort.Strings(fields)
			for _, f := range fields {
				body := make(map[string]any, len(r.body))
				for k, v := range r.body {
					body[k] = v
				}
				body[f] = body[f].(string)[:1] + "\x00" + body[f].(string)[1:]
				status, got := webtest.CustCall(t, r.client, r.method, a.URL+r.path, body)
				if status >= 500 || status < 400 {
					t.Errorf("%s, NUL in %s: %d %v, want a 4xx", r.name, f, status, got)
				}
			}
		}
		for _, q := range []string{"/admin/history?search=", "/admin/history?status=", "/api/reservations?date=",
			"/admin/audit?person=", "/admin/audit?reservation=", "/admin/audit?from="} {
			status, got := webtest.CustCall(t, e.C, "GET", a.URL+q+url.QueryEscape("A\x00"), nil)
			if status >= 500 || status < 400 {
				t.Errorf("GET %s with a NUL: %d %v, want a 4xx", q, status, got)
			}
		}
	})
}
