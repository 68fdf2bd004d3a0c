package api_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/input-rules.md#plates: every flow that takes a phone, a plate, a name or an email refuses
// the same bad values with a 400 whose message names the field, and saves nothing:
// the public booking, the staff walk-in, the registration and the profile update.
func TestInputRulesAcrossFlows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		admin, _ := apptest.Admin(t, a)
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")

		type flow struct {
			name, method, path string
			client             *http.Client
			base               map[string]any
			fields             map[string]string // rule → the flow's field name
		}
		booking := map[string]any{
			"full_name": "Ana Pérez", "phone": "622 333 444", "email": "ana.perez@example.com", "license_plate": "9988 LMN",
			"vehicle_type": "COCHE", "entry_date": "2031-06-01T10:00", "exit_date": "2031-06-03T10:00", "id_main_service": 1,
		}
		flows := []flow{
			{"public booking", "POST", "/api/reservations/public-new", apptest.Client(t), booking,
				map[string]string{"name": "full_name", "phone": "phone", "email": "email", "plate": "license_plate"}},
			{"walk-in", "POST", "/admin/reservations/new", admin, booking,
				map[string]string{"name": "full_name", "phone": "phone", "email": "email", "plate": "license_plate"}},
			{"registration", "POST", "/users/register", apptest.Client(t),
				map[string]any{"full_name": "Eva Nueva", "email": "eva@example.com", "phone": "611 000 111", "password": "eva-password", "confirmPassword": "eva-password"},
				map[string]string{"name": "full_name", "phone": "phone", "email": "email"}},
			{"profile update", "PUT", "/users/profile/update", ana,
				map[string]any{"nombre": "Ana", "email": "ana@example.com", "telefono": "600000001"},
				map[string]string{"name": "nombre", "phone": "telefono", "email": "email"}},
		}
		bad := []struct {
			rule, value string
			optional    bool // the walk-in takes no name: an empty one is fine there
		}{
			{"name", "", true},
			{"name", "Ana\x00", false},
			{"name", "Ana\nPérez", false},
			{"name", strings.Repeat("n", 101), false},
			{"phone", "abc", false},
			{"phone", "622", false},
			{"phone", "12345", false},
			{"phone", "622333444\x00", false},
			{"phone", "6223334445556667778889", false},
			{"email", "nope", false},
			{"email", "ana@", false},
			{"email", "ana@example..com", false},
			{"email", "a\x00@example.com", false},
			{"email", strings.Repeat("a", 250) + "@x.es", false},
			{"plate", "<B>X</B>", false},
			{"plate", "A", false},
			{"plate", "AB\x00C", false},
			{"plate", "ABCDEFGHIJKLMNOP", false},
			{"plate", "12.34.ABC", false},
		}
		tables := []string{"customer", "vehicle", "customer_vehicle", "reservation"}
		counts := func() map[string]int {
			out := map[string]int{}
			for _, tb := range tables {
				out[tb] = webtest.Count(t, a, tb)
			}
			return out
		}
		snapshot := func() string {
			var b strings.Builder
			rows, err := a.Store.DB().Query(`SELECT id_customer, full_name, COALESCE(email, ''), COALESCE(phone, '') FROM customer ORDER BY id_customer`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var id, name, email, phone string
				rows.Scan(&id, &name, &email, &phone)
				b.WriteString(id + "|" + name + "|" + email + "|" + phone + "\n")
			}
			return b.String()
		}
		for _, f := range flows {
			for _, b := range bad {
				field, ok := f.fields[b.rule]
				if !ok || (b.optional && f.name == "walk-in") {
					continue
				}
				t.Run(f.name+"/"+field+"="+strconv.Quote(b.value), func(t *testing.T) {
					before, people := counts(), snapshot()
					body := map[string]any{}
					for k, v := range f.base {
						body[k] = v
					}
					body[field] = b.value
					status, got := webtest.CustCall(t, f.client, f.method, a.URL+f.path, body)
					if status != http.StatusBadRequest || got["success"] != false {
						t.Fatalf("status %d %v, want 400", status, got)
					}
					msg, _ := got["message"].(string)
					errs, _ := got["errors"].(map[string]any) // registration: messages by field
					if _, named := errs[field]; !strings.Contains(msg, field) && !named {
						t.Errorf("message %q does not name %s", msg, field)
					}
					if after := counts(); after["customer"] != before["customer"] || after["vehicle"] != before["vehicle"] ||
						after["customer_vehicle"] != before["customer_vehicle"] || after["reservation"] != before["reservation"] {
						t.Errorf("rows %v after the refusal, want %v", after, before)
					}
					if people != snapshot() {
						t.Error("a customer changed")
					}
				})
			}
		}

		// docs/dates.md#past-entries: a public booking cannot start in the past; staff walk-ins can
		// (the car is already there).
		past := map[string]any{}
		for k, v := range booking {
			past[k] = v
		}
		past["entry_date"], past["exit_date"] = "2020-01-01T10:00", "2020-01-03T10:00"
		status, got := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", past)
		if msg, _ := got["message"].(string); status != 400 || !strings.Contains(msg, "entry_date") {
			t.Errorf("public booking in the past: %d %v, want 400 naming entry_date", status, got)
		}
		if status, got := webtest.CustCall(t, admin, "POST", a.URL+"/admin/reservations/new", past); status != http.StatusCreated {
			t.Errorf("walk-in in the past: %d %v, want 201", status, got)
		}

		// The good values go through, in their stored forms.
		status, got = webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", booking)
		if data, _ := got["data"].(map[string]any); status != http.StatusCreated || data["phone"] != "+34622333444" || data["license_plate"] != "9988LMN" {
			t.Errorf("public booking: %d %v", status, got)
		}
	})
}

// "622 333 444", "622333444" and "+34 622 333 444" are one customer, "9988 LMN",
// "9988-LMN" and "9988lmn" one vehicle, whichever flow typed them (docs/input-rules.md).
func TestOneCustomerPerPhoneOneVehiclePerPlate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		admin, _ := apptest.Admin(t, a)
		book := func(c *http.Client, path, phone, plate string) {
			t.Helper()
			status, got := webtest.CustCall(t, c, "POST", a.URL+path, map[string]any{
				"full_name": "Ana", "phone": phone, "license_plate": plate, "vehicle_type": "COCHE",
				"entry_date": "2031-06-01T10:00", "exit_date": "2031-06-03T10:00", "id_main_service": 1,
			})
			if status != http.StatusCreated {
				t.Fatalf("%s %s %s: %d %v", path, phone, plate, status, got)
			}
		}
		book(nil, "/api/reservations/public-new", "622 333 444", "9988 LMN")
		book(nil, "/api/reservations/public", "622333444", "9988-LMN")
		book(admin, "/admin/reservations/new", "+34 622 333 444", "9988lmn")
		if n := webtest.Count(t, a, "vehicle"); n != 1 {
			t.Errorf("vehicles = %d, want 1", n)
		}
		var customers, reservations int
		if err := a.Store.DB().QueryRow(`SELECT COUNT(DISTINCT c.id_customer), COUNT(*) FROM reservation r
			JOIN customer c ON c.id_customer = r.id_customer WHERE c.phone = '+34622333444'`).Scan(&customers, &reservations); err != nil {
			t.Fatal(err)
		}
		if customers != 1 || reservations != 3 {
			t.Errorf("%d customers hold %d reservations, want 1 and 3", customers, reservations)
		}
		// Registering with that phone typed another way finds the same customer (and,
		// with another email, is refused rather than taking over its bookings).
		status, got := webtest.CustCall(t, apptest.Client(t), "POST", a.URL+"/users/register", map[string]any{
			"full_name": "Intrusa", "email": "otra@example.com", "phone": "+34-622-333-444", "password": "otra-password", "confirmPassword": "otra-password"})
		if status != http.StatusConflict {
			t.Errorf("registration with the phone in another form: %d %v, want 409", status, got)
		}
	})
}

// The history search finds a customer by phone typed in any form, a vehicle by
// its plate typed with spaces or dashes, and a reservation by its id (docs/errors.md#json-on-web-routes).
func TestHistorySearchPhonePlateAndID(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		book := func(name, phone, plate string) int64 {
			t.Helper()
			status, got := webtest.CustCall(t, nil, "POST", e.A.URL+"/api/reservations/public-new", map[string]any{
				"full_name": name, "phone": phone, "license_plate": plate, "vehicle_type": "COCHE",
				"entry_date": "2031-06-01T10:00", "exit_date": "2031-06-03T10:00", "id_main_service": 1,
			})
			if status != http.StatusCreated {
				t.Fatalf("booking: %d %v", status, got)
			}
			return int64(got["data"].(map[string]any)["id_reservation"].(float64))
		}
		ana1 := book("Ana", "622 333 444", "9988 LMN")
		ana2 := book("Ana", "622333444", "7777 KKK")
		luis := book("Luis", "699 888 777", "5555 XYZ")
		search := func(q string) []int64 {
			t.Helper()
			status, body := e.JSON("GET", "/admin/history?"+url.Values{"search": {q}}.Encode(), nil)
			if status != 200 {
				t.Fatalf("search %q: %d %v", q, status, body)
			}
			var ids []int64
			for _, r := range body["reservations"].([]any) {
				ids = append(ids, int64(r.(map[string]any)["id_reservation"].(float64)))
			}
			if total := int(body["total_count"].(float64)); total != len(ids) {
				t.Errorf("search %q: total_count %d for %d rows", q, total, len(ids))
			}
			return ids
		}
		same := func(got []int64, want ...int64) bool {
			if len(got) != len(want) {
				return false
			}
			for i := range got {
				if got[i] != want[i] {
					return false
				}
			}
			return true
		}
		for _, q := range []string{"622333444", "622 333 444", "+34 622 333 444", "+34622333444", "0034 622-333-444"} {
			if got := search(q); !same(got, ana2, ana1) {
				t.Errorf("search %q = %v, want %v", q, got, []int64{ana2, ana1})
			}
		}
		for _, q := range []string{"9988 lmn", "9988-LMN", "88 lm"} {
			if got := search(q); !same(got, ana1) {
				t.Errorf("search %q = %v, want [%d]", q, got, ana1)
			}
		}
		if got := search(strconv.FormatInt(luis, 10)); !same(got, luis) {
			t.Errorf("search by id %d = %v", luis, got)
		}
		if got := search("987654"); len(got) != 0 {
			t.Errorf("search for a missing id = %v", got)
		}
		// The filters still apply to a phone or id match.
		status, body := e.JSON("GET", "/admin/history?"+url.Values{"search": {"622333444"}, "status": {"CANCELADA"}}.Encode(), nil)
		if status != 200 || body["total_count"].(float64) != 0 {
			t.Errorf("phone search with another status: %d %v", status, body["total_count"])
		}
	})
}

// A control character is a 400 naming the field on every input path, never a 500
// (PostgreSQL refuses NUL in text): public booking, registration, login page,
// token login and history search (docs/input-rules.md).
func TestControlCharactersRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		cases := []struct {
			name, method, path string
			client             *http.Client
			body               any
			field              string
		}{
			{"public booking", "POST", "/api/reservations/public-new", nil, map[string]any{"full_name": "Ana\x00", "phone": "622333444",
				"license_plate": "9988LMN", "vehicle_type": "COCHE", "entry_date": "2031-06-01T10:00", "exit_date": "2031-06-03T10:00", "id_main_service": 1}, "full_name"},
			{"public booking notes", "POST", "/api/reservations/public-new", nil, map[string]any{"full_name": "Ana", "phone": "622333444", "brand": "Se\x7fat",
				"license_plate": "9988LMN", "vehicle_type": "COCHE", "entry_date": "2031-06-01T10:00", "exit_date": "2031-06-03T10:00", "id_main_service": 1}, "brand"},
			{"registration", "POST", "/users/register", apptest.Client(t), map[string]any{"full_name": "Eva", "email": "eva\x00@example.com",
				"phone": "611000111", "password": "eva-password", "confirmPassword": "eva-password"}, "email"},
			{"login page", "POST", "/users/login", apptest.Client(t), url.Values{"email": {"admin\x00@example.com"}, "password": {"x"}}.Encode(), "email"},
			{"token login", "POST", "/api/auth/token", apptest.Client(t), map[string]any{"email": "admin@example.com\x00", "password": "x"}, "email"},
			{"history search", "GET", "/admin/history?search=" + url.QueryEscape("Ana\x00"), e.C, nil, "search"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				status, got := webtest.CustCall(t, c.client, c.method, a.URL+c.path, c.body)
				msg, _ := got["message"].(string)
				if msg == "" {
					msg, _ = got["error"].(string)
				}
				errs, _ := got["errors"].(map[string]any)
				if _, named := errs[c.field]; status != http.StatusBadRequest || (!strings.Contains(msg, c.field) && !named) {
					t.Errorf("status %d %v, want 400 naming %s", status, got, c.field)
				}
			})
		}
	})
}
