package web_test

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/apptest/apispec"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/web/api/openapi"
	"parking/internal/webtest"
)

// The document is a valid OpenAPI 3.1 document and is what GET /api/openapi.json
// serves.
func TestOpenAPIDocument(t *testing.T) {
	v, err := apispec.Validator()
	if err != nil {
		t.Fatal(err)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("document: %s: %s", e.Message, e.Reason)
		}
	}
	a := apptest.Start(t, store.SQLite)
	res := webtest.Do(t, apispec.Client(t, apptest.Client(t)), "GET", a.URL+"/api/openapi.json", nil)
	webtest.WantStatus(t, res, 200)
	if !bytes.Equal([]byte(res.Body), openapi.JSON()) || !strings.Contains(res.Body, `"openapi": "3.1.0"`) {
		t.Error("GET /api/openapi.json is not the embedded document")
	}
}

// The checker fails a test on an answer that breaks its schema and on a route the
// document does not list, naming the route; the site's 404 for no route is fine.
func TestOpenAPICheckerFindsDrift(t *testing.T) {
	exchange := func(method, path string, status int, body string) []string {
		req, _ := http.NewRequest(method, "http://127.0.0.1"+path, nil)
		req.Header.Set("Accept", "application/json")
		res := &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: req}
		return apispec.Check(req, nil, res, []byte(body))
	}
	if p := exchange("GET", "/api/catalog", 200, `{"main_services":[],"additional_services":[],"vehicle_types":[],"rates":[]}`); len(p) > 0 {
		t.Errorf("a matching answer was refused: %v", p)
	}
	if p := exchange("GET", "/api/catalog", 200, `{"main_services":"none"}`); len(p) == 0 {
		t.Error("an answer breaking its schema passed")
	}
	p := exchange("GET", "/api/no-such-route", 200, `{}`)
	if len(p) != 1 || !strings.Contains(p[0], "undocumented route GET /api/no-such-route") {
		t.Errorf("an undocumented route: %v", p)
	}
	if p := exchange("GET", "/api/no-such-route", 404, `{"success":false,"message":"x"}`); len(p) > 0 {
		t.Errorf("the site's 404 was refused: %v", p)
	}

	// Closed schemas (PARKING_TEST_OPENAPI_STRICT=1): a field the document does not
	// list fails, in a plain object and in one made of allOf members.
	t.Setenv(apispec.StrictEnv, "1")
	if p := exchange("GET", "/api/catalog", 200, `{"main_services":[],"additional_services":[],"vehicle_types":[],"rates":[]}`); len(p) > 0 {
		t.Errorf("strict: a matching answer was refused: %v", p)
	}
	if p := exchange("GET", "/api/catalog", 200, `{"main_services":[],"additional_services":[],"vehicle_types":[],"rates":[],"extra":1}`); len(p) == 0 {
		t.Error("strict: an undocumented field passed")
	}
	item := `{"id_reservation":1,"reference":"K7Q2-M9XD","reservation_date":"2026-12-01T10:00:00+01:00","entry_date":"2026-12-01T10:00:00+01:00",` +
		`"exit_date":null,"status":"PENDIENTE","total_price":10,"is_paid":false,"payment_method":null,"notes":null,"cod_parking_spot":null,` +
		`"id_customer":1,"id_vehicle":1,"id_main_service":1,"booked_by":null,"made_without_login":false,"language":"es","channel":"web",` +
		`"customer_name":"Ana","phone":null,"license_plate":"1234BBC","brand":"","model":"","color":"","vehicle_type":"turismo"%s}`
	page := `{"reservations":[` + item + `],"total_count":1,"page":1,"page_size":15,"total_pages":1}`
	if p := exchange("GET", "/admin/history", 200, fmt.Sprintf(page, "")); len(p) > 0 {
		t.Errorf("strict: a matching history page was refused: %v", p)
	}
	if p := exchange("GET", "/admin/history", 200, fmt.Sprintf(page, `,"extra":1`)); len(p) == 0 {
		t.Error("strict: an undocumented field of an allOf schema passed")
	}
}

// A tour of the JSON routes through a checking client, on both databases: public,
// tokens, the daily board, accounts, the customer area and the administrator's
// operations. Every exchange must match the document.
func TestOpenAPITour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		anon := apispec.Client(t, apptest.Client(t))
		day := clocktest.D("2026-12-01")
		json := func(c *http.Client, method, path string, body any, want int) map[string]any {
			t.Helper()
			var r io.Reader
			if body != nil {
				r = strings.NewReader(mustJSON(t, body))
			}
			res := webtest.Do(t, c, method, a.URL+path, r, "Content-Type: application/json", "Accept: application/json")
			if res.StatusCode != want {
				t.Fatalf("%s %s = %d, want %d: %s", method, path, res.StatusCode, want, res.Body)
			}
			if res.Body == "" {
				return nil
			}
			return webtest.Decode(t, res)
		}
		json(anon, "GET", "/healthz", nil, 200)
		json(anon, "GET", "/readyz", nil, 200)
		json(anon, "GET", "/api/catalog", nil, 200)
		json(anon, "POST", "/api/pricing/dynamic", map[string]any{"entry_date": day + "T10:00", "exit_date": clocktest.D("2026-12-05") + "T10:00",
			"vehicle_type": "SUV", "id_main_service": 1, "additional_services": []int{1}}, 200)
		json(anon, "POST", "/api/pricing/dynamic", map[string]any{"entry_date": "mañana"}, 400)
		booked := json(anon, "POST", "/api/reservations/public-new", map[string]any{"full_name": "Ana Pérez", "phone": "600111222",
			"email": "ana@example.com", "license_plate": "1234ABC", "vehicle_type": "SUV", "entry_date": day + "T10:00",
			"exit_date": clocktest.D("2026-12-05") + "T10:00", "id_main_service": "1", "additional_services": []string{"1"}}, 201)
		id := int64(booked["data"].(map[string]any)["id_reservation"].(float64))
		json(anon, "POST", "/api/reservations/public", map[string]any{"phone": "600111222"}, 400)

		// Accounts and the customer area.
		cust := apispec.Client(t, apptest.Client(t))
		json(cust, "POST", "/users/register", map[string]any{"full_name": "Eva Gil", "email": "eva@example.com", "phone": "611222333",
			"password": "una-clave-larga", "confirmPassword": "una-clave-larga"}, 201)
		json(cust, "GET", "/users/profile", nil, 200)
		json(cust, "PUT", "/users/profile/update", map[string]any{"nombre": "Eva Gil Ruiz", "email": "eva@example.com", "telefono": "611222333"}, 200)
		json(cust, "PUT", "/users/profile/password", map[string]any{"currentPassword": "una-clave-larga", "newPassword": "otra-clave-larga",
			"confirmPassword": "otra-clave-larga"}, 200)
		own := json(cust, "POST", "/api/reservations/public-new", map[string]any{"full_name": "Eva Gil", "phone": "611222333",
			"license_plate": "5678DEF", "vehicle_type": "TURISMO", "entry_date": day + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00",
			"id_main_service": 1}, 201)
		ownID := int64(own["data"].(map[string]any)["id_reservation"].(float64))
		json(cust, "PUT", fmt.Sprintf("/users/profile/reservation/%d/edit", ownID), map[string]any{"id_main_service": 2,
			"entry_date": day + "T10:00", "exit_date": clocktest.D("2026-12-04") + "T10:00", "additional_services": []int{}}, 200)
		json(cust, "DELETE", fmt.Sprintf("/users/profile/reservation/%d/cancel", ownID), nil, 200)
		json(cust, "POST", "/users/logout", nil, 200)
		json(cust, "POST", "/users/login", map[string]any{"email": "eva@example.com", "password": "otra-clave-larga", "loginType": "customer"}, 200)

		// Tokens and the daily board.
		adminClient, _ := apptest.Admin(t, a)
		admin := apispec.Client(t, adminClient)
		tok := json(anon, "POST", "/api/auth/token", map[string]any{"email": "admin@example.com", "password": "admin-password"}, 200)
		bearer := "Authorization: Bearer " + tok["token"].(string)
		for _, path := range []string{"/api/reservations?date=" + day, "/api/reservations"} {
			res := webtest.Do(t, anon, "GET", a.URL+path, nil, bearer)
			webtest.WantStatus(t, res, 200)
		}
		webtest.WantStatus(t, webtest.Do(t, anon, "DELETE", a.URL+"/api/auth/token", nil, bearer), 204)
		json(admin, "POST", "/admin/api-token", nil, 200)

		// The administrator's operations.
		json(admin, "GET", "/admin/dashboard?date="+day, nil, 200)
		json(admin, "GET", "/admin/reservations/new", nil, 200)
		walk := json(admin, "POST", "/admin/reservations/new", map[string]any{"phone": "622333444", "license_plate": "9999ZZZ",
			"full_name": "Luis Mostrador", "vehicle_type": "COCHE", "id_main_service": 1, "cod_parking_spot": "A-1", "exit_date": clocktest.D("2026-11-22") + "T10:00"}, 201)
		walkID := int64(walk["data"].(map[string]any)["id_reservation"].(float64))
		det := json(admin, "GET", fmt.Sprintf("/admin/reservations/details/%d", id), nil, 200)
		custID := int64(det["reservation"].(map[string]any)["id_customer"].(float64))
		json(admin, "POST", fmt.Sprintf("/admin/reservations/%d/edit", id), map[string]any{"cod_parking_spot": "B-2", "notes": "Llaves en caja"}, 200)
		for i := range 5 {
			json(admin, "POST", fmt.Sprintf("/admin/reservations/%d/photos", walkID), map[string]any{"file_path": fmt.Sprintf("https://fotos.example.com/%d.jpg", i)}, 201)
		}
		json(admin, "PATCH", fmt.Sprintf("/admin/reservations/%d/start", walkID), nil, 200)
		json(admin, "PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", walkID), map[string]any{"paymentMethod": "TARJETA"}, 200)
		json(admin, "POST", fmt.Sprintf("/admin/reservations/%d/invoice", walkID), nil, 202)
		json(admin, "GET", fmt.Sprintf("/admin/reservations/details/%d/receipt", walkID), nil, 200)
		json(admin, "GET", "/admin/verifactu/records", nil, 200)
		json(admin, "GET", "/admin/staff", nil, 200)
		json(admin, "GET", "/admin/audit", nil, 200)
		json(admin, "GET", fmt.Sprintf("/admin/customers/%d/data", custID), nil, 200)
		json(anon, "GET", "/api/availability?from="+day+"&to="+clocktest.D("2026-12-05"), nil, 200)

		// Managing a booking by its reference and the manage token (docs/manage-booking.md#the-token).
		ref := booked["data"].(map[string]any)["reference"].(string)
		found := json(anon, "POST", "/api/bookings/lookup", map[string]any{"reference": ref, "phone": "600111222"}, 200)
		t1 := "?t=" + url.QueryEscape(found["manage_token"].(string))
		json(anon, "GET", "/api/bookings/"+ref+t1, nil, 200)
		json(anon, "POST", "/api/pricing/dynamic"+t1, map[string]any{"reference": ref, "entry_date": day + "T10:00",
			"exit_date": clocktest.D("2026-12-06") + "T10:00", "vehicle_type": "SUV", "id_main_service": 1}, 200)
		json(anon, "PUT", "/api/bookings/"+ref+t1, map[string]any{"entry_date": day + "T10:00",
			"exit_date": clocktest.D("2026-12-06") + "T10:00"}, 200)
		walkRef := walk["data"].(map[string]any)["reference"].(string)
		walkFound := json(anon, "POST", "/api/bookings/lookup", map[string]any{"reference": walkRef, "phone": "622333444"}, 200)
		json(anon, "GET", "/reserva/"+walkRef+"/recibo?t="+url.QueryEscape(walkFound["manage_token"].(string)), nil, 200)
		json(admin, "PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", id), nil, 200)
		json(admin, "PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil, 400)
		json(admin, "GET", "/admin/history?search=Ana", nil, 200)
		json(admin, "GET", "/admin/parking", nil, 200)
		json(admin, "GET", "/admin/catalog", nil, 200)
		json(admin, "POST", "/admin/catalog/main-services", map[string]any{"name": "VALET", "description": "Aparcacoches"}, 201)
		json(admin, "PATCH", "/admin/catalog/main-services/1", map[string]any{"description": "Económico"}, 200)
		json(admin, "POST", "/admin/catalog/rates", map[string]any{"id_main_service": 4, "min_days": 1, "max_days": 30, "daily_price": "20.00"}, 201)
		json(admin, "PATCH", "/admin/catalog/rates/1", map[string]any{"daily_price": "13.50"}, 200)
		json(admin, "POST", "/admin/catalog/vehicle-types", map[string]any{"vehicle_type": "QUAD", "coefficient": "0.75"}, 201)
		json(admin, "PATCH", "/admin/catalog/vehicle-types/QUAD", map[string]any{"coefficient": "0.80"}, 200)
		json(admin, "POST", "/admin/catalog/additional-services", map[string]any{"name": "Cera", "price": "12.00"}, 201)
		json(admin, "PATCH", "/admin/catalog/additional-services/1", map[string]any{"price": "16.00"}, 200)
		json(admin, "GET", "/admin/settings", nil, 200)
		json(admin, "PATCH", "/admin/settings", map[string]any{"capacity": 120, "name": "Parking Aeropuerto"}, 200)
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	if err := jsonEncode(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func jsonEncode(w io.Writer, v any) error { return stdjson.NewEncoder(w).Encode(v) }
