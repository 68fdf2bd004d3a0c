package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// manageCall sends a JSON request with the manage token in X-Manage-Token ("" for none).
func manageCall(t *testing.T, method, u, token string, body any) (int, map[string]any) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("X-Manage-Token", token)
	}
	status, raw := webtest.CustCallRaw(t, nil, method, u, body, h)
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: %s", method, u, raw)
		}
	}
	return status, out
}

type booked struct {
	id        int64
	reference string
	manageURL string
}

// bookOnline makes a public booking entry days from the clock's base, for nights
// nights, with phone and email, and returns its id, reference and manage_url.
func bookOnline(t *testing.T, a *app.App, phone, email, plate string, entryDay, nights int) booked {
	t.Helper()
	entry := clocktest.Day(entryDay, 10, 0)
	status, body := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Ana Pérez", "phone": phone, "email": email, "license_plate": plate, "vehicle_type": "Turismo",
		"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, nights).Format(time.RFC3339),
		"id_main_service": 1, "additional_services": []int{},
	})
	if status != http.StatusCreated {
		t.Fatalf("booking: %d %v", status, body)
	}
	d := body["data"].(map[string]any)
	b := booked{id: int64(d["id_reservation"].(float64)), reference: d["reference"].(string)}
	b.manageURL, _ = d["manage_url"].(string)
	return b
}

// docs/manage-booking.md#booking-reference: the booking reference is 8 characters of Crockford base32, shown
// XXXX-XXXX, in data.reference and the detail record; unique per reservation.
func TestBookingReference(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		seen := map[string]bool{}
		for i, phone := range []string{"612345678", "612345679", "612345670"} {
			b := bookOnline(t, a, phone, "", "REF10"+string(rune('A'+i)), 3, 2)
			ref := strings.ReplaceAll(b.reference, "-", "")
			if len(b.reference) != 9 || b.reference[4] != '-' || !reservation.IsReference(ref) {
				t.Errorf("reference %q, want XXXX-XXXX of Crockford base32", b.reference)
			}
			if seen[ref] {
				t.Errorf("reference %q given twice", ref)
			}
			seen[ref] = true
			var stored string
			if err := a.Store.DB().QueryRow(`SELECT reference FROM reservation WHERE id_reservation = $1`, b.id).Scan(&stored); err != nil || stored != ref {
				t.Errorf("stored reference %q (%v), want %q", stored, err, ref)
			}
		}
		// The unique index refuses a duplicate whatever the code does.
		_, err := a.Store.WriteDB().Exec(`UPDATE reservation SET reference = (SELECT reference FROM reservation WHERE id_reservation = 1) WHERE id_reservation = 2`)
		if err == nil || !store.IsUniqueViolation(err) {
			t.Errorf("duplicate reference: err %v, want a unique violation", err)
		}
		// Rows stored before references existed get one at start (AssignReferences).
		if _, err := a.Store.WriteDB().Exec(`UPDATE reservation SET reference = NULL WHERE id_reservation = 3`); err != nil {
			t.Fatal(err)
		}
		if n, err := a.Store.Reservations().AssignReferences(t.Context()); err != nil || n != 1 {
			t.Errorf("AssignReferences = %d, %v; want 1", n, err)
		}
		var ref string
		if err := a.Store.DB().QueryRow(`SELECT reference FROM reservation WHERE id_reservation = 3`).Scan(&ref); err != nil || !reservation.IsReference(ref) {
			t.Errorf("assigned reference %q (%v)", ref, err)
		}
	})
}

// docs/manage-booking.md#the-lookup-and-guessing: the lookup by reference and phone or email; any mismatch is the
// same 404 whether or not the reference exists; failures are throttled per
// reference (429 with Retry-After), even for the right pair afterwards.
func TestBookingLookup(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		b := bookOnline(t, a, "612 345 678", "Ana@Example.com", "LOOK1", 3, 4)
		other := bookOnline(t, a, "699888777", "", "LOOK2", 3, 4)

		// Any case, with or without the dash; the phone in any form; the email in any case.
		lower := strings.ToLower(strings.ReplaceAll(b.reference, "-", ""))
		for _, req := range []map[string]any{
			{"reference": b.reference, "phone": "+34 612 345 678"},
			{"reference": lower, "phone": "612345678"},
			{"reference": b.reference, "email": "ana@EXAMPLE.com"},
		} {
			status, body := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", req)
			if status != http.StatusOK || body["success"] != true {
				t.Fatalf("lookup %v: %d %v", req, status, body)
			}
			res := body["reservation"].(map[string]any)
			tok, _ := body["manage_token"].(string)
			if res["reference"] != b.reference || int64(res["id_reservation"].(float64)) != b.id || tok == "" ||
				body["manage_url"] != cfg.BaseURL+"/reserva/"+b.reference+"?t="+tok || res["status"] != "PENDIENTE" || res["can_cancel"] != true {
				t.Errorf("lookup %v = %v", req, body)
			}
		}
		if !strings.HasPrefix(b.manageURL, cfg.BaseURL+"/reserva/"+b.reference+"?t=") {
			t.Errorf("booking manage_url = %q", b.manageURL)
		}

		// Wrong phone, unknown reference, another booking's phone: one answer.
		_, want := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": b.reference, "phone": "699888777"})
		for _, req := range []map[string]any{
			{"reference": "ZZZZ-ZZZZ", "phone": "612345678"},
			{"reference": other.reference, "email": "ana@example.com"},
		} {
			status, body := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", req)
			if status != http.StatusNotFound || body["success"] != false || body["message"] != want["message"] || len(body) != 2 {
				t.Errorf("lookup %v: %d %v, want the same 404 as %v", req, status, body, want)
			}
		}
		status, body := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": b.reference})
		webtest.WantMessage(t, status, body, http.StatusBadRequest, "Escriba el teléfono o el correo electrónico con el que hizo la reserva.")
		status, _ = manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": "K7Q2-M9X", "phone": "612345678"})
		if status != http.StatusBadRequest {
			t.Errorf("malformed reference: %d, want 400", status)
		}

		// Throttle: b.reference has 1 failure; 4 more reach the limit of 5.
		for range 4 {
			manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": b.reference, "phone": "600000001"})
		}
		h := http.Header{}
		st, raw := webtest.CustCallRaw(t, nil, "POST", a.URL+"/api/bookings/lookup", map[string]any{"reference": b.reference, "phone": "612345678"}, h)
		if st != http.StatusTooManyRequests || !strings.Contains(string(raw), "Demasiados intentos") {
			t.Errorf("lookup after 5 failures: %d %s, want 429", st, raw)
		}
		// Another reference is not affected; an hour later the right pair works again.
		if st, _ := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": other.reference, "phone": "699888777"}); st != http.StatusOK {
			t.Errorf("other reference: %d, want 200", st)
		}
		clk.Advance(time.Hour + time.Minute)
		if st, _ := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": b.reference, "phone": "612345678"}); st != http.StatusOK {
			t.Errorf("after the window: %d, want 200", st)
		}
	})
}

// docs/public-booking.md#limits-on-anonymous-traffic: PARKING_PUBLIC_RATE applies to the lookup, with Retry-After.
func TestBookingLookupRateLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.PublicRate = 2
		a := apptest.StartWith(t, cfg)
		for range 2 {
			if st, _ := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": "ZZZZ-ZZZZ", "phone": "612345678"}); st != http.StatusNotFound {
				t.Fatalf("lookup: %d, want 404", st)
			}
		}
		res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/api/bookings/lookup", map[string]any{"reference": "ZZZZ-ZZZZ", "phone": "612345678"})
		webtest.WantStatus(t, res, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	})
}

func lookupToken(t *testing.T, a *app.App, ref, phone string) string {
	t.Helper()
	status, body := manageCall(t, "POST", a.URL+"/api/bookings/lookup", "", map[string]any{"reference": ref, "phone": phone})
	if status != http.StatusOK {
		t.Fatalf("lookup: %d %v", status, body)
	}
	return body["manage_token"].(string)
}

// docs/manage-booking.md#the-token: with the token, the booking is read, edited (the customer edit's
// rules and price: the quote with the same token equals the charge) and cancelled;
// a bad, foreign or expired token is a 404.
func TestManageTokenRoutes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		b := bookOnline(t, a, "612345678", "ana@example.com", "TOKN1", 3, 4)
		other := bookOnline(t, a, "699888777", "", "TOKN2", 3, 4)
		tok := lookupToken(t, a, b.reference, "612345678")
		u := a.URL + "/api/bookings/" + b.reference

		status, body := manageCall(t, "GET", u, tok, nil)
		if status != http.StatusOK || body["reservation"].(map[string]any)["reference"] != b.reference {
			t.Fatalf("GET with header: %d %v", status, body)
		}
		// The query's t works too, and the reference in any case without the dash.
		if st, _ := manageCall(t, "GET", a.URL+"/api/bookings/"+strings.ToLower(strings.ReplaceAll(b.reference, "-", ""))+"?t="+url.QueryEscape(tok), "", nil); st != http.StatusOK {
			t.Errorf("GET with ?t: %d", st)
		}
		otherTok := lookupToken(t, a, other.reference, "699888777")
		for name, tk := range map[string]string{"none": "", "garbage": "abc.def", "another booking's": otherTok, "tampered": tok[:len(tok)-2] + "xx"} {
			st, body := manageCall(t, "GET", u, tk, nil)
			if st != http.StatusNotFound || body["success"] != false {
				t.Errorf("%s token: %d %v, want 404", name, st, body)
			}
			if st, _ := manageCall(t, "POST", u+"/cancel", tk, nil); st != http.StatusNotFound {
				t.Errorf("%s token cancel: %d, want 404", name, st)
			}
		}

		// Edit: two more nights and an extra; the quote with the token is the charge.
		entry := clocktest.Day(3, 10, 0)
		edit := map[string]any{"id_main_service": 1, "entry_date": entry.Format(time.RFC3339),
			"exit_date": entry.AddDate(0, 0, 6).Format(time.RFC3339), "additional_services": []int{1}}
		quote := map[string]any{"reference": b.reference, "vehicle_type": "Turismo"}
		for k, v := range edit {
			quote[k] = v
		}
		st, q := manageCall(t, "POST", a.URL+"/api/pricing/dynamic", tok, quote)
		if st != http.StatusOK {
			t.Fatalf("manage quote: %d %v", st, q)
		}
		if st, _ := manageCall(t, "POST", a.URL+"/api/pricing/dynamic", "bad.token", quote); st != http.StatusNotFound {
			t.Errorf("quote with a bad token: %d, want 404", st)
		}
		st, body = manageCall(t, "PUT", u, tok, edit)
		if st != http.StatusOK || body["success"] != true || body["total_price"] != q["total_price"] {
			t.Errorf("edit: %d %v, want 200 with the quoted %v", st, body, q["total_price"])
		}
		var exit time.Time
		if err := a.Store.DB().QueryRow(`SELECT exit_date FROM reservation WHERE id_reservation = $1`, b.id).Scan(&exit); err != nil || !exit.Equal(entry.AddDate(0, 0, 6)) {
			t.Errorf("stored exit %v (%v)", exit, err)
		}
		// A reservation_modified notification carries the manage link.
		var payload string
		if err := a.Store.DB().QueryRow(`SELECT payload FROM notification WHERE id_reservation = $1 AND type = 'reservation_modified'`, b.id).Scan(&payload); err != nil ||
			!strings.Contains(payload, `"manage_url":"`+cfg.BaseURL+"/reserva/"+b.reference+"?t=") || !strings.Contains(payload, `"referencia":"`+b.reference+`"`) {
			t.Errorf("reservation_modified payload %s (%v)", payload, err)
		}
		// Exit before entry: 400 naming both dates; nothing changes.
		bad := map[string]any{"exit_date": entry.Add(-time.Hour).Format(time.RFC3339)}
		st, body = manageCall(t, "PUT", u, tok, bad)
		if st != http.StatusBadRequest || !strings.Contains(body["message"].(string), "debe ser posterior") {
			t.Errorf("bad dates: %d %v", st, body)
		}
		// Dates clashing with another stay on the same spot: 409.
		webtest.Exec(t, a, `UPDATE reservation SET entry_date = $2, exit_date = $3 WHERE id_reservation = $1`,
			other.id, clocktest.Day(12, 10, 0).UTC(), clocktest.Day(14, 10, 0).UTC())
		webtest.Exec(t, a, `UPDATE reservation SET cod_parking_spot = 'A1' WHERE id_reservation IN ($1, $2)`, b.id, other.id)
		st, body = manageCall(t, "PUT", u, tok, map[string]any{"exit_date": clocktest.Day(13, 10, 0).Format(time.RFC3339)})
		if st != http.StatusConflict || body["success"] != false {
			t.Errorf("edit onto a taken spot: %d %v, want 409", st, body)
		}

		// Cancel: 200, then 400 (state); the edit is refused too.
		st, body = manageCall(t, "POST", u+"/cancel", tok, nil)
		if st != http.StatusOK || body["status"] != "CANCELADA" {
			t.Errorf("cancel: %d %v", st, body)
		}
		st, body = manageCall(t, "POST", u+"/cancel", tok, nil)
		webtest.WantMessage(t, st, body, http.StatusBadRequest, "Solo se pueden cancelar reservas pendientes; esta reserva está CANCELADA.")
		if st, _ := manageCall(t, "PUT", u, tok, edit); st != http.StatusBadRequest {
			t.Errorf("edit of a cancelled booking: %d, want 400", st)
		}
		// The audit trail names the link as the actor of the edit and the cancel.
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM audit_entry WHERE reservation_id = $1 AND actor_kind = 'link'
			AND action IN ('customer_edit', 'cancel')`, b.id); n != 2 {
			t.Errorf("audit entries by the manage link: %d, want 2 (the edit and the cancel)", n)
		}

		// The token expires 30 days after the exit.
		if st, _ := manageCall(t, "GET", u, tok, nil); st != http.StatusOK {
			t.Errorf("before expiry: %d", st)
		}
		clk.Set(exit.Add(30*24*time.Hour + time.Minute))
		if st, _ := manageCall(t, "GET", u, tok, nil); st != http.StatusNotFound {
			t.Errorf("expired token: %d, want 404", st)
		}
	})
}

// docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: the booking confirmation carries the manage link, and the reminder
// the day before also the car park's name, address and phone from the settings.
func TestBookingNotificationsCarryTheManageLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		f, err := a.CatalogOps.Facility(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		f.Name, f.Address, f.Phone = "Parking Barajas Norte", "Avenida de la Hispanidad 1, Madrid", "+34910000000"
		if _, err := a.CatalogOps.SaveFacility(t.Context(), f); err != nil {
			t.Fatal(err)
		}
		b := bookOnline(t, a, "612345678", "ana@example.com", "MAIL1", 3, 2)
		payload := func(typ string) map[string]any {
			var p string
			if err := a.Store.DB().QueryRow(`SELECT payload FROM notification WHERE id_reservation = $1 AND type = $2`, b.id, typ).Scan(&p); err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(p), &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
		conf, rem := payload("booking_confirmation"), payload("booking_reminder")
		for name, p := range map[string]map[string]any{"confirmation": conf, "reminder": rem} {
			link, _ := p["manage_url"].(string)
			if !strings.HasPrefix(link, "http://127.0.0.1/reserva/"+b.reference+"?t=") || p["reserva"].(map[string]any)["referencia"] != b.reference {
				t.Errorf("%s: manage_url %q, reserva %v", name, link, p["reserva"])
			}
		}
		// docs/notifications.md#arrival: the confirmation and the reminder name the car park and
		// carry the booking's QR code.
		for name, p := range map[string]map[string]any{"confirmation": conf, "reminder": rem} {
			fac, _ := p["facility"].(map[string]any)
			if fac["name"] != f.Name || fac["address"] != f.Address || fac["phone"] != f.Phone {
				t.Errorf("%s facility %v", name, p["facility"])
			}
			if p["qr_url"] != "http://127.0.0.1/r/"+b.reference+"/qr.png" {
				t.Errorf("%s qr_url %v", name, p["qr_url"])
			}
		}
		if rem["type"] != "booking_reminder" {
			t.Errorf("reminder type %v", rem["type"])
		}
	})
}
