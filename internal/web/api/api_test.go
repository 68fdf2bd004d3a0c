package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"parking/internal/clock/clocktest"

	"parking/internal/apptest"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// call sends a request with an optional JSON body and returns status and body.
func call(t *testing.T, c *http.Client, method, url, body string, header ...string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func TestPricingAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		c := apptest.Client(t)
		url := a.URL + "/api/pricing/dynamic"
		cases := []struct {
			name, body string
			status     int
			want       string
		}{
			{"quote with breakdown",
				(`{"entry_date":"` + clocktest.D("2026-12-01") + `T10:00","exit_date":"` + clocktest.D("2026-12-05") + `T13:00","vehicle_type":"SUV","id_main_service":1,"additional_services":[1,99]}`),
				200, `{"success":true,"total_price":65.00,"breakdown":{"days":5,"daily_price":8.00,"coefficient":1.25,"base_price":50.00,"extras_price":15.00}}`},
			{"ids as strings, no extras", (`{"entry_date":"` + clocktest.D("2026-12-01") + `T10:00:00Z","exit_date":"` + clocktest.D("2026-12-02") + `T10:00:00Z","vehicle_type":"moto","id_main_service":"3"}`),
				200, `{"success":true,"total_price":9.00,"breakdown":{"days":1,"daily_price":18.00,"coefficient":0.5,"base_price":9.00,"extras_price":0.00}}`},
			{"client price ignored", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"COCHE","id_main_service":1,"total_price":0.01}`),
				200, `{"success":true,"total_price":12.00,"breakdown":{"days":1,"daily_price":12.00,"coefficient":1,"base_price":12.00,"extras_price":0.00}}`},
			{"missing exit", (`{"entry_date":"` + clocktest.D("2026-12-01") + `T10:00","vehicle_type":"SUV","id_main_service":1}`),
				400, `{"message":"Las fechas de entrada y salida son obligatorias.","success":false}`},
			{"blank entry", (`{"entry_date":" ","exit_date":"` + clocktest.D("2026-12-01") + `T10:00","vehicle_type":"SUV","id_main_service":1}`),
				400, `{"message":"Las fechas de entrada y salida son obligatorias.","success":false}`},
			{"no rate is a 500 naming service and days", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"SUV","id_main_service":9}`),
				500, `{"message":"No existe tarifa para el servicio 9 y 1 días.","success":false}`},
			{"no coefficient is a 500 naming the type", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"TANQUE","id_main_service":1}`),
				500, `{"message":"No existe coeficiente de precio para el tipo de vehículo TANQUE.","success":false}`},
			{"unparseable date", (`{"entry_date":"mañana","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"SUV","id_main_service":1}`),
				400, `{"message":"El campo entry_date no es una fecha válida (\"mañana\"): use ISO 8601, por ejemplo 2026-11-21T10:00.","success":false}`},
			{"missing vehicle type", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				400, `{"message":"El tipo de vehículo es obligatorio.","success":false}`},
			{"missing service", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"SUV"}`),
				400, `{"message":"El servicio principal es obligatorio.","success":false}`},
			{"malformed JSON", `{"entry_date":`, 400, `{"message":"El cuerpo no es un JSON válido (error de sintaxis en la posición 14).","success":false}`},
			{"trailing data", (`{"entry_date":"` + clocktest.D("2026-12-01") + `"} {}`), 400, `{"message":"El cuerpo no es un JSON válido (error de sintaxis en la posición 29).","success":false}`},
			{"wrong type", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":7,"id_main_service":1}`),
				400, `{"message":"El campo vehicle_type tiene un tipo no válido: se esperaba un texto.","success":false}`},
			{"bad id", (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"SUV","id_main_service":"uno"}`),
				400, `{"message":"El campo id_main_service tiene un tipo no válido: se esperaba un número.","success":false}`},
			{"array body", `[1,2]`, 400, `{"message":"Se esperaba un objeto JSON.","success":false}`},
			{"empty body", ``, 400, `{"message":"El cuerpo de la petición está vacío; se espera un objeto JSON.","success":false}`},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, body := call(t, c, "POST", url, tc.body)
				if status != tc.status || body != tc.want {
					t.Errorf("got %d %s\nwant %d %s", status, body, tc.status, tc.want)
				}
			})
		}

		// Over the 64 KiB limit.
		big := (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"`) + strings.Repeat("x", 70<<10) + `"}`
		if status, body := call(t, c, "POST", url, big); status != 400 || !strings.Contains(body, "64 KiB") {
			t.Errorf("oversized body: %d %s", status, body)
		}

		// Pricing data not loaded: the spec's 500.
		saved := a.Catalog.Load()
		a.Catalog.Store(nil)
		status, body := call(t, c, "POST", url, (`{"entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","vehicle_type":"SUV","id_main_service":1}`))
		a.Catalog.Store(saved)
		if status != 500 || body != `{"message":"Los datos de precios no están cargados.","success":false}` {
			t.Errorf("not loaded: %d %s", status, body)
		}
	})
}

func TestPublicBookingAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		c := apptest.Client(t)
		good := (`{"full_name":"Ana Pérez","phone":"600111222","email":"ana@example.com","license_plate":"1234abc","brand":"Seat","model":"León",
			"vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `T10:00","exit_date":"` + clocktest.D("2026-12-05") + `T13:00","id_main_service":1,"additional_services":[1],"total_price":1}`)
		for _, path := range []string{"/api/reservations/public-new", "/api/reservations/public"} {
			status, body := call(t, c, "POST", a.URL+path, good)
			if status != 201 {
				t.Fatalf("%s: %d %s", path, status, body)
			}
			var got struct {
				Success bool
				Message string
				Data    map[string]any
			}
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"customer_name": "Ana Pérez", "phone": "+34600111222", "license_plate": "1234ABC",
				"brand": "Seat", "model": "León", "total_price": 65.0, "entry_date": (clocktest.ES("01/12/2026") + ", 10:00:00")}
			if !got.Success || got.Message != "Reserva creada correctamente." {
				t.Errorf("%s: body %s", path, body)
			}
			for k, v := range want {
				if got.Data[k] != v {
					t.Errorf("%s: data.%s = %v, want %v", path, k, got.Data[k], v)
				}
			}
			if id, ok := got.Data["id_reservation"].(float64); !ok || id < 1 {
				t.Errorf("%s: data.id_reservation = %v", path, got.Data["id_reservation"])
			}
		}
		// The exact shape of a 201, keys and types included.
		status, body := call(t, c, "POST", a.URL+"/api/reservations/public-new",
			(`{"full_name":"Luis","phone":"611 222 333","license_plate":"9999 zzz","vehicle_type":"COCHE","entry_date":"` + clocktest.D("2026-12-01") + `T10:00:00` + clocktest.Offset("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `T10:00:00` + clocktest.Offset("2026-12-02") + `","id_main_service":2}`))
		// The reference and the manage link are random (docs/manage-booking.md#the-token): read, checked, then compared in place.
		var created struct {
			Data struct {
				Reference string `json:"reference"`
				ManageURL string `json:"manage_url"`
			} `json:"data"`
		}
		_ = json.Unmarshal([]byte(body), &created)
		ref := created.Data.Reference
		if len(ref) != 9 || ref[4] != '-' || !strings.HasPrefix(created.Data.ManageURL, "http://127.0.0.1/reserva/"+ref+"?t=") {
			t.Errorf("data.reference %q, data.manage_url %q", ref, created.Data.ManageURL)
		}
		want := (`{"data":{"id_reservation":3,"reference":"` + ref + `","customer_name":"Luis","phone":"+34611222333","license_plate":"9999ZZZ","brand":"Desconocida","model":"Desconocido","total_price":15.00,"entry_date":"` + clocktest.ES("01/12/2026") + `, 10:00:00","manage_url":"` + created.Data.ManageURL + `"},"message":"Reserva creada correctamente.","success":true}`)
		if status != 201 || body != want {
			t.Errorf("got %d %s\nwant 201 %s", status, body, want)
		}

		before := map[string]int{}
		tables := []string{"customer", "vehicle", "customer_vehicle", "reservation", "reservation_additional_service"}
		for _, tb := range tables {
			before[tb] = webtest.Count(t, a, tb)
		}
		refusals := []struct {
			name, body, want string
		}{
			{"missing phone", (`{"license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"Faltan datos obligatorios.","success":false}`},
			{"missing plate", (`{"full_name":"Ana","phone":"622333444","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"Faltan datos obligatorios.","success":false}`},
			{"missing entry", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","vehicle_type":"SUV","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"Faltan datos obligatorios.","success":false}`},
			{"missing type (change)", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"Faltan datos obligatorios.","success":false}`},
			{"missing service (change)", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `"}`),
				`{"message":"Faltan datos obligatorios.","success":false}`},
			{"missing exit (change)", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","id_main_service":1}`),
				`{"message":"Faltan datos obligatorios.","success":false}`},
			{"plate with another type (change)", (`{"full_name":"Ana","phone":"622333444","license_plate":"1234ABC","vehicle_type":"MOTO","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"La matrícula 1234ABC ya está registrada con el tipo de vehículo SUV.","success":false}`},
			{"exit not after entry", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-02") + `T10:00","exit_date":"` + clocktest.D("2026-12-02") + `T10:00","id_main_service":1}`),
				(`{"message":"La fecha de salida (` + clocktest.ES("02/12/2026") + `, 10:00:00) debe ser posterior a la fecha de entrada (` + clocktest.ES("02/12/2026") + `, 10:00:00).","success":false}`)},
			{"pricing failure is a 400 (change)", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","vehicle_type":"TANQUE","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"No existe coeficiente de precio para el tipo de vehículo TANQUE.","success":false}`},
			{"malformed JSON", `{"phone":`, `{"message":"El cuerpo no es un JSON válido (error de sintaxis en la posición 9).","success":false}`},
			{"wrong type", (`{"phone":600111222,"license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"El campo phone tiene un tipo no válido: se esperaba un texto.","success":false}`},
			{"over-long plate", (`{"full_name":"Ana","phone":"622333444","license_plate":"ABCDEFGHIJKLMNOP","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"El campo license_plate admite como máximo 15 caracteres.","success":false}`},
			{"over-long name", `{"full_name":"` + strings.Repeat("n", 101) + (`","phone":"622333444","license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":1}`),
				`{"message":"El campo full_name admite como máximo 100 caracteres.","success":false}`},
			{"bad date", (`{"full_name":"Ana","phone":"622333444","license_plate":"X1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"pasado mañana","id_main_service":1}`),
				`{"message":"El campo exit_date no es una fecha válida (\"pasado mañana\"): use ISO 8601, por ejemplo 2026-11-21T10:00.","success":false}`},
		}
		for _, tc := range refusals {
			t.Run(tc.name, func(t *testing.T) {
				status, body := call(t, c, "POST", a.URL+"/api/reservations/public-new", tc.body)
				if status != 400 || body != tc.want {
					t.Errorf("got %d %s\nwant 400 %s", status, body, tc.want)
				}
			})
		}
		for _, tb := range tables {
			if n := webtest.Count(t, a, tb); n != before[tb] {
				t.Errorf("%s: %d rows after refusals, want %d: a refused booking saved something", tb, n, before[tb])
			}
		}
	})
}

func TestCatalogAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ctx := context.Background()
		// Retire TRANSFER and reload the snapshot, as a catalog edit does.
		if _, err := a.Store.WriteDB().ExecContext(ctx, `UPDATE main_service SET active = false WHERE name = 'TRANSFER'`); err != nil {
			t.Fatal(err)
		}
		cat, err := a.Store.Catalog().LoadCatalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		a.Catalog.Store(pricing.NewSnapshot(cat))

		var public, admin struct {
			MainServices []struct {
				ID     int64 `json:"id_main_service"`
				Name   string
				Active bool
			} `json:"main_services"`
			AdditionalServices []struct {
				ID    int64
				Name  string
				Price float64
			} `json:"additional_services"`
			VehicleTypes []struct {
				Type        string
				Coefficient float64
			} `json:"vehicle_types"`
			Rates []struct {
				MainService int64   `json:"id_main_service"`
				MinDays     int     `json:"min_days"`
				MaxDays     int     `json:"max_days"`
				DailyPrice  float64 `json:"daily_price"`
			}
		}
		status, body := call(t, apptest.Client(t), "GET", a.URL+"/api/catalog", "")
		if status != 200 {
			t.Fatalf("public catalog: %d %s", status, body)
		}
		json.Unmarshal([]byte(body), &public)
		if len(public.MainServices) != 2 || len(public.Rates) != 8 || len(public.VehicleTypes) != 9 || len(public.AdditionalServices) != 8 {
			t.Errorf("public catalog: %d services, %d rates, %d types, %d extras; want 2, 8, 9, 8",
				len(public.MainServices), len(public.Rates), len(public.VehicleTypes), len(public.AdditionalServices))
		}
		for _, m := range public.MainServices {
			if m.Name == "TRANSFER" {
				t.Error("public catalog lists the retired TRANSFER")
			}
		}
		if public.Rates[0].MinDays != 1 || public.Rates[0].MaxDays != 3 || public.Rates[0].DailyPrice != 12 {
			t.Errorf("first rate = %+v", public.Rates[0])
		}

		adminClient, _ := apptest.Admin(t, a)
		_, body = call(t, adminClient, "GET", a.URL+"/api/catalog", "")
		json.Unmarshal([]byte(body), &admin)
		if len(admin.MainServices) != 3 || len(admin.Rates) != 12 {
			t.Errorf("admin catalog: %d services, %d rates; want 3 and 12", len(admin.MainServices), len(admin.Rates))
		}

		// A retired service cannot be booked publicly.
		status, body = call(t, apptest.Client(t), "POST", a.URL+"/api/reservations/public-new",
			(`{"full_name":"Ana","phone":"633444555","license_plate":"T1","vehicle_type":"SUV","entry_date":"` + clocktest.D("2026-12-01") + `","exit_date":"` + clocktest.D("2026-12-02") + `","id_main_service":2}`))
		if status != 400 || body != `{"message":"El servicio TRANSFER no está disponible.","success":false}` {
			t.Errorf("retired service booking: %d %s", status, body)
		}
	})
}

func TestHealthAndHeaders(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	c := apptest.Client(t)
	if status, body := call(t, c, "GET", a.URL+"/healthz", ""); status != 200 || body != `{"status":"ok"}` {
		t.Errorf("healthz: %d %s", status, body)
	}
	if status, body := call(t, c, "GET", a.URL+"/readyz", ""); status != 200 || body != `{"status":"ready"}` {
		t.Errorf("readyz: %d %s", status, body)
	}
	saved := a.Catalog.Load()
	a.Catalog.Store(nil)
	status, body := call(t, c, "GET", a.URL+"/readyz", "")
	a.Catalog.Store(saved)
	if status != 503 || body != `{"reason":"catalog not loaded","status":"unavailable"}` {
		t.Errorf("readyz without catalog: %d %s", status, body)
	}

	req, _ := http.NewRequest("POST", a.URL+"/api/pricing/dynamic", bytes.NewBufferString(`{}`))
	req.Header.Set("X-Request-Id", "abc123")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "X-Request-Id": "abc123",
		"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if status, _ := call(t, c, "GET", a.URL+"/api/pricing/dynamic", ""); status != 405 {
		t.Errorf("GET on a POST route: %d, want 405", status)
	}
}
