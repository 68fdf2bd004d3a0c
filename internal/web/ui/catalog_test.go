package ui_test

import (
	"testing"

	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Catalog administration (docs/pricing.md#catalog): each change is saved and the pricing
// snapshot swapped at once, so the next quote uses it; stored reservations keep
// their price.
func TestAdminCatalogChangesNextQuote(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		quote := func(body string) any {
			t.Helper()
			status, out := e.JSON("POST", "/api/pricing/dynamic", body)
			if status != 200 {
				return out["message"]
			}
			return out["total_price"]
		}
		two := `{"entry_date":"2027-03-01T10:00","exit_date":"2027-03-03T10:00","vehicle_type":"COCHE","id_main_service":1}`
		if q := quote(two); q != 24.0 {
			t.Fatalf("quote before = %v, want 24", q)
		}
		id := e.WalkIn(map[string]any{"phone": "600000001", "license_plate": "1111AAA", "vehicle_type": "COCHE", "id_main_service": 1,
			"entry_date": "2027-03-01T10:00", "exit_date": "2027-03-03T10:00"})

		// Rate: ECO 1–3 days from 12 € to 13.50 €.
		status, body := e.JSON("PATCH", "/admin/catalog/rates/1", map[string]any{"daily_price": "13.50"})
		if status != 200 || body["success"] != true || body["message"] != "Tarifa actualizada." {
			t.Fatalf("rate: %d %v", status, body)
		}
		if r := body["rate"].(map[string]any); r["daily_price"] != 13.5 || r["min_days"] != 1.0 || r["max_days"] != 3.0 || r["id_main_service"] != 1.0 {
			t.Errorf("rate = %v", r)
		}
		if q := quote(two); q != 27.0 {
			t.Errorf("quote after the rate change = %v, want 27", q)
		}
		if r := e.Stored(id); r.TotalPrice != 2400 {
			t.Errorf("stored reservation repriced to %v", r.TotalPrice)
		}

		// Coefficient: COCHE 1 → 1.1 (by form).
		st, _, text := e.Send("POST", "/admin/catalog/vehicle-types/coche", "application/x-www-form-urlencoded", "coefficient=1.1")
		if st != 200 {
			t.Fatalf("coefficient: %d %s", st, text)
		}
		if q := quote(two); q != 29.7 {
			t.Errorf("quote after the coefficient change = %v, want 29.70", q)
		}
		// A new vehicle type prices at once.
		status, body = e.JSON("POST", "/admin/catalog/vehicle-types", map[string]any{"vehicle_type": " quad ", "coefficient": 0.75})
		if status != 201 || body["vehicle_type"].(map[string]any)["type"] != "QUAD" || body["vehicle_type"].(map[string]any)["coefficient"] != 0.75 {
			t.Errorf("new type: %d %v", status, body)
		}
		if q := quote(`{"entry_date":"2027-03-01T10:00","exit_date":"2027-03-03T10:00","vehicle_type":"quad","id_main_service":1}`); q != 20.25 {
			t.Errorf("quad quote = %v, want 20.25", q)
		}

		// A new main service with one band, then deactivated: gone from the public
		// catalog, still priced for staff.
		status, body = e.JSON("POST", "/admin/catalog/main-services", map[string]any{"name": "VIP", "description": "Plaza cubierta"})
		if status != 201 || body["main_service"].(map[string]any)["active"] != true {
			t.Fatalf("main service: %d %v", status, body)
		}
		vip := body["main_service"].(map[string]any)["id_main_service"].(float64)
		status, body = e.JSON("POST", "/admin/catalog/rates", map[string]any{"id_main_service": vip, "min_days": 1, "max_days": 30, "daily_price": 40})
		if status != 201 {
			t.Fatalf("VIP rate: %d %v", status, body)
		}
		vipQuote := `{"entry_date":"2027-03-01T10:00","exit_date":"2027-03-03T10:00","vehicle_type":"COCHE","id_main_service":4}`
		if q := quote(vipQuote); q != 88.0 { // 40 × 2 × 1.1
			t.Errorf("VIP quote = %v, want 88", q)
		}
		if st, b := e.JSON("PATCH", "/admin/catalog/main-services/4", map[string]any{"active": false}); st != 200 || b["main_service"].(map[string]any)["active"] != false {
			t.Errorf("deactivate: %d %v", st, b)
		}
		_, public := e.JSON("GET", "/api/catalog", nil) // the admin session sees all
		if n := len(public["main_services"].([]any)); n != 4 {
			t.Errorf("admin catalog lists %d main services, want 4", n)
		}
		status, body = e.JSON("GET", "/admin/catalog", nil)
		if status != 200 || len(body["main_services"].([]any)) != 4 || len(body["rates"].([]any)) != 13 || len(body["vehicle_types"].([]any)) != 10 {
			t.Errorf("admin catalog: %d %v", status, body)
		}

		// Additional service: new price for the next quote, the booked one keeps its own.
		status, body = e.JSON("POST", "/admin/catalog/additional-services", map[string]any{"name": "Cargador", "price": "9.99"})
		if status != 201 || body["additional_service"].(map[string]any)["price"] != 9.99 {
			t.Fatalf("extra: %d %v", status, body)
		}
		if st, b := e.JSON("PATCH", "/admin/catalog/additional-services/1", map[string]any{"price": 20, "active": "false"}); st != 200 ||
			b["additional_service"].(map[string]any)["active"] != false {
			t.Errorf("extra update: %d %v", st, b)
		}
		withExtra := `{"entry_date":"2027-03-01T10:00","exit_date":"2027-03-03T10:00","vehicle_type":"COCHE","id_main_service":1,"additional_services":[1,9]}`
		if q := quote(withExtra); q != 39.69 { // 29.70 + 9.99: the retired extra 1 is skipped, as a booking skips it (docs/pricing.md#catalog)
			t.Errorf("quote with extras = %v, want 39.69", q)
		}

		// Deleting a band: those days have no rate any more.
		if st, b := e.JSON("DELETE", "/admin/catalog/rates/1", nil); st != 200 || b["message"] != "Tarifa eliminada." {
			t.Errorf("delete: %d %v", st, b)
		}
		if q := quote(two); q != "No existe tarifa para el servicio ECO y 2 días." {
			t.Errorf("quote after delete = %v", q)
		}
	})
}

// Catalog validation: bands of one service must not overlap, min >= 1, max >= min,
// prices >= 0, coefficients > 0, names unique; unknown items are 404.
func TestAdminCatalogRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		cases := []struct {
			name, method, path string
			body               any
			status             int
			message            string
		}{
			{"overlapping band", "POST", "/admin/catalog/rates", map[string]any{"id_main_service": 1, "min_days": 3, "max_days": 5, "daily_price": 9}, 409,
				"La tarifa de 3 a 5 días se solapa con la tarifa 1 (de 1 a 3 días) del servicio ECO."},
			{"band moved onto another", "PATCH", "/admin/catalog/rates/2", map[string]any{"min_days": 2}, 409,
				"La tarifa de 2 a 10 días se solapa con la tarifa 1 (de 1 a 3 días) del servicio ECO."},
			{"min zero", "POST", "/admin/catalog/rates", map[string]any{"id_main_service": 1, "min_days": 0, "max_days": 0, "daily_price": 9}, 400,
				"min_days debe ser al menos 1 (es 0)."},
			{"max below min", "PATCH", "/admin/catalog/rates/4", map[string]any{"min_days": 20, "max_days": 19}, 400,
				"max_days (19) debe ser mayor o igual que min_days (20)."},
			{"negative daily price", "PATCH", "/admin/catalog/rates/4", map[string]any{"daily_price": -1}, 400,
				"El precio diario no puede ser negativo."},
			{"three decimals", "PATCH", "/admin/catalog/rates/4", map[string]any{"daily_price": 1.234}, 400,
				`El campo daily_price debe ser un importe con hasta 2 decimales ("1.234" no lo es).`},
			{"rate incomplete", "POST", "/admin/catalog/rates", map[string]any{"id_main_service": 1}, 400,
				"Faltan datos de la tarifa: id_main_service, min_days, max_days y daily_price son obligatorios."},
			{"rate of unknown service", "POST", "/admin/catalog/rates", map[string]any{"id_main_service": 99, "min_days": 1, "max_days": 2, "daily_price": 1}, 404,
				"El servicio principal 99 no existe."},
			{"unknown rate", "PATCH", "/admin/catalog/rates/999", map[string]any{"daily_price": 1}, 404, "La tarifa 999 no existe."},
			{"delete unknown rate", "DELETE", "/admin/catalog/rates/999", nil, 404, "La tarifa 999 no existe."},
			{"zero coefficient", "PATCH", "/admin/catalog/vehicle-types/SUV", map[string]any{"coefficient": 0}, 400, "El coeficiente debe ser mayor que 0 (es 0)."},
			{"negative coefficient", "POST", "/admin/catalog/vehicle-types", map[string]any{"vehicle_type": "X", "coefficient": -1}, 400, "El coeficiente debe ser mayor que 0 (es -1)."},
			{"coefficient missing", "PATCH", "/admin/catalog/vehicle-types/SUV", map[string]any{}, 400, "El coeficiente (coefficient) es obligatorio."},
			{"existing type", "POST", "/admin/catalog/vehicle-types", map[string]any{"vehicle_type": "suv", "coefficient": 2}, 409, "El tipo de vehículo SUV ya existe."},
			{"unknown type", "PATCH", "/admin/catalog/vehicle-types/TANQUE", map[string]any{"coefficient": 2}, 404, "El tipo de vehículo TANQUE no existe."},
			{"negative extra", "POST", "/admin/catalog/additional-services", map[string]any{"name": "X", "price": -0.01}, 400,
				"El precio del servicio adicional no puede ser negativo."},
			{"extra name taken", "POST", "/admin/catalog/additional-services", map[string]any{"name": "Repostaje", "price": 1}, 409,
				`Ya existe un servicio adicional llamado "Repostaje".`},
			{"extra blank name", "PATCH", "/admin/catalog/additional-services/1", map[string]any{"name": " "}, 400,
				"El nombre del servicio adicional es obligatorio."},
			{"unknown extra", "PATCH", "/admin/catalog/additional-services/99", map[string]any{"price": 1}, 404, "El servicio adicional 99 no existe."},
			{"main service name taken", "PATCH", "/admin/catalog/main-services/2", map[string]any{"name": "ECO"}, 409,
				`Ya existe un servicio principal llamado "ECO".`},
			{"main service without name", "POST", "/admin/catalog/main-services", map[string]any{"description": "x"}, 400,
				"El nombre del servicio principal es obligatorio."},
			{"bad active flag", "PATCH", "/admin/catalog/main-services/1", map[string]any{"active": "quizá"}, 400,
				`El campo active debe ser verdadero o falso ("quizá" no lo es).`},
			{"unknown main service", "PATCH", "/admin/catalog/main-services/99", map[string]any{"active": true}, 404, "El servicio principal 99 no existe."},
			{"bad id", "PATCH", "/admin/catalog/main-services/abc", map[string]any{"active": true}, 404, `El servicio principal "abc" no existe.`},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, body := e.JSON(tc.method, tc.path, tc.body)
				webtest.WantMessage(t, status, body, tc.status, tc.message)
			})
		}
		// Nothing of it was saved.
		_, cat := e.JSON("GET", "/admin/catalog", nil)
		if len(cat["rates"].([]any)) != 12 || len(cat["vehicle_types"].([]any)) != 9 || len(cat["additional_services"].([]any)) != 8 || len(cat["main_services"].([]any)) != 3 {
			t.Errorf("catalog changed by refusals: %v", cat)
		}
	})
}
