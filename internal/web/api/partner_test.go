package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// partnerCall sends a JSON request with a partner's key ("" for none) and decodes
// the answer.
func partnerCall(t *testing.T, method, u, key string, body any) (int, map[string]any, []byte) {
	t.Helper()
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	status, raw := webtest.CustCallRaw(t, nil, method, u, body, h)
	var out map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: %s", method, u, raw)
		}
	}
	return status, out, raw
}

func partnerBody(ref, phone, name string, entryDay, nights int) map[string]any {
	entry := clocktest.Day(entryDay, 10, 0)
	return map[string]any{
		"partner_reference": ref, "full_name": name, "phone": phone, "email": "viajero@example.com",
		"license_plate": "PTN" + phone[len(phone)-3:], "vehicle_type": "Turismo",
		"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, nights).Format(time.RFC3339),
		"id_main_service": 1,
	}
}

// docs/partners.md: staff add a partner and a key; the partner books, reads, edits
// and cancels its own bookings under its own reference; the channel shows on the
// staff's record, history and statement.
func TestPartnerAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		// Bad input: 400 naming the field, nothing saved.
		for field, body := range map[string]map[string]any{
			"commission_percent": {"name": "Agencia", "commission_percent": 100.5},
			"allotment":          {"name": "Agencia", "commission_percent": 10, "allotment": -1},
			"name":               {"name": "", "commission_percent": 10},
		} {
			status, out := e.JSON("POST", "/admin/partners", body)
			if msg, _ := out["message"].(string); status != 400 || !strings.Contains(msg, field) {
				t.Errorf("bad %s: %d %v, want 400 naming it", field, status, out)
			}
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM partner`); n != 0 {
			t.Fatalf("%d partners saved by refused requests", n)
		}
		status, out := e.JSON("POST", "/admin/partners", map[string]any{"name": "Vuelos SA", "commission_percent": 12.5, "allotment": 2, "active": true})
		if status != 201 || out["success"] != true {
			t.Fatalf("create partner: %d %v", status, out)
		}
		p := out["partner"].(map[string]any)
		pid := int64(p["id"].(float64))
		if p["commission_percent"] != 12.5 || p["allotment"] != 2.0 || p["active"] != true || p["name"] != "Vuelos SA" {
			t.Fatalf("partner %v", p)
		}
		channel := "partner:" + webtest.Itoa(pid)
		status, out = e.JSON("PUT", "/admin/partners/"+webtest.Itoa(pid), map[string]any{"name": "Vuelos SA", "commission_percent": "10", "allotment": 3, "active": true})
		if status != 200 || out["partner"].(map[string]any)["commission_percent"] != 10.0 {
			t.Fatalf("update partner: %d %v", status, out)
		}
		status, out = e.JSON("POST", "/admin/partners/"+webtest.Itoa(pid)+"/keys", nil)
		key, _ := out["key"].(string)
		if status != 201 || !strings.HasPrefix(key, "pk_") || len(key) < 35 {
			t.Fatalf("new key: %d %v", status, out)
		}
		keyID := int64(out["id"].(float64))
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM partner_key WHERE key_hash = $1`, key); n != 0 {
			t.Fatal("the key is stored in clear")
		}
		_, out = e.JSON("POST", "/admin/partners", map[string]any{"name": "Otro", "commission_percent": 3})
		otherID := int64(out["partner"].(map[string]any)["id"].(float64))
		_, out = e.JSON("POST", "/admin/partners/"+webtest.Itoa(otherID)+"/keys", nil)
		otherKey := out["key"].(string)

		// Keys: none, unknown → 401 {"error":"Unauthorized"}.
		for _, k := range []string{"", "pk_unknown", otherKey + "x"} {
			status, out, _ := partnerCall(t, "GET", a.URL+"/api/partner/availability?from=2026-12-01&to=2026-12-02", k, nil)
			if status != 401 || len(out) != 1 || out["error"] != "Unauthorized" {
				t.Fatalf("key %q: %d %v, want 401 Unauthorized", k, status, out)
			}
		}

		// Booking, and the reference as idempotency key.
		body := partnerBody("VS-0001", "611111111", "Viajera Uno", 3, 2)
		status, out, first := partnerCall(t, "POST", a.URL+"/api/partner/bookings", key, body)
		if status != 201 {
			t.Fatalf("partner booking: %d %s", status, first)
		}
		data := out["data"].(map[string]any)
		if data["partner_reference"] != "VS-0001" || data["channel"] != channel || data["reference"] == "" || data["customer_name"] != "Viajera Uno" {
			t.Fatalf("booking data %v", data)
		}
		id := int64(data["id_reservation"].(float64))
		status, _, again := partnerCall(t, "POST", a.URL+"/api/partner/bookings", key, body)
		if status != 201 || string(again) != string(first) {
			t.Fatalf("the same reference and body: %d %s, want the first answer %s", status, again, first)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation`); n != 1 {
			t.Fatalf("%d reservations after a repeated request, want 1", n)
		}
		changed := partnerBody("VS-0001", "611111111", "Viajera Uno", 4, 2)
		if status, out, _ := partnerCall(t, "POST", a.URL+"/api/partner/bookings", key, changed); status != 422 {
			t.Fatalf("the same reference with another body: %d %v, want 422", status, out)
		}
		bad := partnerBody("VS 0002", "611111112", "Viajero", 3, 2)
		status, out, _ = partnerCall(t, "POST", a.URL+"/api/partner/bookings", key, bad)
		if msg, _ := out["message"].(string); status != 400 || !strings.Contains(msg, "partner_reference") {
			t.Fatalf("a bad reference: %d %v, want 400 naming partner_reference", status, out)
		}
		// A refused booking is not remembered: the same reference works once fixed.
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation`); n != 1 {
			t.Fatalf("%d reservations after refusals, want 1", n)
		}

		// Reading: its own only.
		if status, _, _ := partnerCall(t, "GET", a.URL+"/api/partner/bookings/VS-0001", otherKey, nil); status != 404 {
			t.Fatalf("another partner's reference: %d, want 404", status)
		}
		status, out, _ = partnerCall(t, "GET", a.URL+"/api/partner/bookings/VS-0001", key, nil)
		res := out["reservation"].(map[string]any)
		if status != 200 || res["partner_reference"] != "VS-0001" || res["channel"] != channel {
			t.Fatalf("read: %d %v", status, out)
		}
		price := res["total_price"].(float64)
		if got, want := res["commission"].(float64), round2(price*0.10); got != want {
			t.Fatalf("commission %v of %v, want %v", got, price, want)
		}

		// Edit: repriced, commission follows.
		exit := clocktest.Day(8, 10, 0).Format(time.RFC3339)
		status, out, _ = partnerCall(t, "PUT", a.URL+"/api/partner/bookings/VS-0001", key, map[string]any{"exit_date": exit})
		if status != 200 || out["total_price"].(float64) <= price {
			t.Fatalf("edit: %d %v", status, out)
		}
		newPrice := out["total_price"].(float64)

		// Staff see the channel on the record, the history, its filter and the statement.
		_, out = e.JSON("GET", "/admin/reservations/details/"+webtest.Itoa(id), nil)
		rec := out["reservation"].(map[string]any)
		if rec["channel"] != channel || rec["partner_reference"] != "VS-0001" || rec["commission"].(float64) != round2(newPrice*0.10) {
			t.Fatalf("detail record %v", rec)
		}
		// ... and the detail page says it in words, with the partner's reference.
		if _, _, page := e.Send("GET", "/admin/reservations/details/"+webtest.Itoa(id), "", ""); !strings.Contains(page,
			`data-fact="channel">Socio nº `+webtest.Itoa(pid)+` · Referencia del socio: VS-0001</dd>`) {
			t.Fatalf("the detail page does not show the partner channel:\n%s", page)
		}
		e.WalkIn(webtest.WalkInFields(1, clocktest.Day(3, 9, 0), 1, ""))
		for ch, want := range map[string]float64{channel: 1, "counter": 1, "web": 0} {
			status, out = e.JSON("GET", "/admin/history?channel="+ch, nil)
			if status != 200 || out["total_count"].(float64) != want {
				t.Fatalf("history channel=%s: %d %v, want %v", ch, status, out["total_count"], want)
			}
		}
		if status, _ = e.JSON("GET", "/admin/history?channel=fax", nil); status != 400 {
			t.Fatalf("history channel=fax: %d, want 400", status)
		}
		month := clocktest.Day(3, 10, 0).In(webtest.Madrid).Format("2006-01")
		status, out = e.JSON("GET", "/admin/partners/"+webtest.Itoa(pid)+"/statement?month="+month, nil)
		lines, _ := out["bookings"].([]any)
		if status != 200 || len(lines) != 1 || out["commission"].(float64) != round2(newPrice*0.10) || out["total_price"].(float64) != newPrice {
			t.Fatalf("statement: %d %v", status, out)
		}
		_, _, csvBody := e.Send("GET", "/admin/partners/"+webtest.Itoa(pid)+"/statement?month="+month+"&format=csv", "", "")
		if rows := strings.Split(strings.TrimSpace(csvBody), "\n"); len(rows) != 2 || !strings.HasPrefix(rows[0], "id_reservation,partner_reference") || !strings.Contains(rows[1], "VS-0001") {
			t.Fatalf("statement CSV %q", csvBody)
		}

		// The pages: the list with the key's prefix, never the key; the statement.
		page := e.Page("/admin/partners")
		webtest.WantStatus(t, page, 200)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "partners page", page.Body, "Vuelos SA", key[:9], `action="/admin/partners/`+webtest.Itoa(pid)+`/keys"`)
		if strings.Contains(page.Body, key) {
			t.Fatal("the partners page shows a stored key")
		}
		page = e.Page("/admin/partners/" + webtest.Itoa(pid) + "/statement?month=" + month)
		webtest.WantStatus(t, page, 200)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "statement page", page.Body, "VS-0001")

		// Cancel: 200, then off the statement; the key used shows on the list.
		if status, out, _ := partnerCall(t, "POST", a.URL+"/api/partner/bookings/VS-0001/cancel", key, nil); status != 200 || out["status"] != "CANCELADA" {
			t.Fatalf("cancel: %d %v", status, out)
		}
		_, out = e.JSON("GET", "/admin/partners/"+webtest.Itoa(pid)+"/statement?month="+month, nil)
		if out["commission"].(float64) != 0 || len(out["bookings"].([]any)) != 0 {
			t.Fatalf("statement after the cancel %v", out)
		}
		_, out = e.JSON("GET", "/admin/partners", nil)
		if !strings.Contains(mustJSON(t, out), `"last_used_at":"`) || strings.Contains(mustJSON(t, out), key) {
			t.Fatalf("partners list %v", out)
		}

		// Revoked key and inactive partner: 401.
		if status, _, raw := e.Send("DELETE", "/admin/partners/"+webtest.Itoa(pid)+"/keys/"+webtest.Itoa(keyID), "", ""); status != 204 {
			t.Fatalf("revoke: %d %s", status, raw)
		}
		if status, _, _ := partnerCall(t, "GET", a.URL+"/api/partner/bookings/VS-0001", key, nil); status != 401 {
			t.Fatalf("revoked key: %d, want 401", status)
		}
		e.JSON("PUT", "/admin/partners/"+webtest.Itoa(otherID), map[string]any{"name": "Otro", "commission_percent": 3, "active": false})
		if status, _, _ := partnerCall(t, "GET", a.URL+"/api/partner/availability?from=2026-12-01&to=2026-12-01", otherKey, nil); status != 401 {
			t.Fatalf("inactive partner's key: %d, want 401", status)
		}
	})
}

// A partner never sees a stored customer's data, and the availability and quote
// answer with its key; each key has its own limit of 600 a minute.
func TestPartnerPrivacyAvailabilityAndLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		cfg.PublicRate = 5 // the anonymous limit does not apply to partners
		e := webtest.AdminEnvWith(t, cfg)
		a := e.A
		webtest.CustBook(t, a, "622222222", "OLD123", "Turismo", clocktest.Day(1, 10, 0).Format(time.RFC3339), clocktest.Day(2, 10, 0).Format(time.RFC3339), 1, nil)
		_, out := e.JSON("POST", "/admin/partners", map[string]any{"name": "Agencia", "commission_percent": 5, "allotment": 1})
		pid := int64(out["partner"].(map[string]any)["id"].(float64))
		_, out = e.JSON("POST", "/admin/partners/"+webtest.Itoa(pid)+"/keys", nil)
		key := out["key"].(string)
		body := partnerBody("P-1", "622222222", "Nombre Nuevo", 3, 1)
		status, out, raw := partnerCall(t, "POST", a.URL+"/api/partner/bookings", key, body)
		if status != 201 || out["data"].(map[string]any)["customer_name"] != "Nombre Nuevo" {
			t.Fatalf("booking on an existing customer's phone: %d %s", status, raw)
		}
		status, out, _ = partnerCall(t, "GET", a.URL+"/api/partner/bookings/P-1", key, nil)
		if status != 200 || out["reservation"].(map[string]any)["customer_name"] != "Nombre Nuevo" {
			t.Fatalf("read: %d %v", status, out)
		}
		from, to := clocktest.Day(3, 12, 0).In(webtest.Madrid).Format("2006-01-02"), clocktest.Day(5, 12, 0).In(webtest.Madrid).Format("2006-01-02")
		status, out, _ = partnerCall(t, "GET", a.URL+"/api/partner/availability?from="+from+"&to="+to, key, nil)
		days, _ := out["days"].([]any)
		if status != 200 || len(days) != 3 {
			t.Fatalf("availability: %d %v", status, out)
		}
		for i, want := range []float64{0, 0, 1} { // allotment 1, its stay on days 3 and 4
			day := days[i].(map[string]any)
			if day["free"] != want {
				t.Fatalf("day %d: %v, want free %v", i, day, want)
			}
		}
		if status, out, _ := partnerCall(t, "POST", a.URL+"/api/partner/bookings", key, partnerBody("P-2", "633333333", "Otra", 4, 1)); status != 409 || out["full_days"] == nil {
			t.Fatalf("a day over the allotment: %d %v, want 409 with full_days", status, out)
		}
		q := map[string]any{"entry_date": body["entry_date"], "exit_date": body["exit_date"], "vehicle_type": "Turismo", "id_main_service": 1}
		if status, out, _ := partnerCall(t, "POST", a.URL+"/api/partner/quote", key, q); status != 200 || out["total_price"] == nil {
			t.Fatalf("quote: %d %v", status, out)
		}
		sent := 5 // requests of this key so far in this minute
		for ; sent < 600; sent++ {
			if status, _, _ := partnerCall(t, "GET", a.URL+"/api/partner/bookings/none", key, nil); status != 404 {
				t.Fatalf("request %d: %d, want 404 (within the limit)", sent+1, status)
			}
		}
		if st, _ := webtestDo(t, a.URL+"/api/partner/bookings/none", key); st.code != 429 || st.retryAfter == "" {
			t.Fatalf("request 601: %d (Retry-After %q), want 429 with Retry-After", st.code, st.retryAfter)
		}
		clk.Advance(time.Minute)
		if st, _ := webtestDo(t, a.URL+"/api/partner/bookings/none", key); st.code != 404 {
			t.Fatalf("after a minute: %d, want 404", st.code)
		}
	})
}

type answer struct {
	code       int
	retryAfter string
}

func webtestDo(t *testing.T, u, key string) (answer, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return answer{resp.StatusCode, resp.Header.Get("Retry-After")}, ""
}

func round2(v float64) float64 {
	return float64(int64(v*100+0.5)) / 100
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
