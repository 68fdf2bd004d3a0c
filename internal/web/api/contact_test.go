package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"parking/internal/clock/clocktest"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// contactBooking is a public booking body for the privacy tests.
func contactBooking(name, phone, email, plate, brand, model string) map[string]any {
	b := map[string]any{
		"full_name": name, "phone": phone, "license_plate": plate, "vehicle_type": "COCHE",
		"entry_date": (clocktest.D("2027-06-01") + "T10:00"), "exit_date": (clocktest.D("2027-06-04") + "T10:00"), "id_main_service": 1,
	}
	for k, v := range map[string]string{"email": email, "brand": brand, "model": model} {
		if v != "" {
			b[k] = v
		}
	}
	return b
}

// notificationOf returns the payload and history row of the booking confirmation
// of reservation id.
func notificationOf(t *testing.T, a *app.App, id int64) (payload map[string]any, status, lastError string) {
	t.Helper()
	var raw string
	var last *string
	err := a.Store.DB().QueryRow(`SELECT payload, status, last_error FROM notification WHERE id_reservation = $1 AND type = 'booking_confirmation'`, id).
		Scan(&raw, &status, &last)
	if err != nil {
		t.Fatalf("booking confirmation of %d: %v", id, err)
	}
	if err := json.Unmarshal([]byte(raw), &payload); err != nil {
		t.Fatal(err)
	}
	if last != nil {
		lastError = *last
	}
	return payload, status, lastError
}

// docs/public-booking.md#privacy-of-anonymous-bookings: a public booking made with a registered customer's phone and an
// existing plate lands on that customer and vehicle (docs/reservations.md#creation: find or create), but the
// response shows only what the caller sent, nothing stored is rewritten, the
// reservation keeps the typed contact (what staff see, where its notifications go,
// docs/notifications.md#recipient), and the account holder sees it marked in their profile and can cancel it.
func TestAnonymousBookingRevealsNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ctx := context.Background()
		lucia := apptest.Account(t, a, reservation.Registered, "Lucía Martín García", "lucia@example.com", "600123456", "lucia-password")
		luciaClient := apptest.LoggedIn(t, a, lucia)

		// Lucía books her own car while signed in: hers, not marked.
		status, own := webtest.CustCall(t, luciaClient, "POST", a.URL+"/api/reservations/public-new",
			contactBooking("Lucía Martín García", "600123456", "lucia@example.com", "1234ABC", "Seat", "Ibiza"))
		if status != http.StatusCreated {
			t.Fatalf("Lucía's booking: %d %v", status, own)
		}
		ownID := int64(own["data"].(map[string]any)["id_reservation"].(float64))

		// Someone else, not signed in, types her phone and her plate.
		status, raw := webtest.CustCallRaw(t, apptest.Client(t), "POST", a.URL+"/api/reservations/public-new",
			contactBooking("Pedro Gómez", "600123456", "pedro@example.com", "1234abc", "", ""), nil)
		if status != http.StatusCreated {
			t.Fatalf("anonymous booking: %d %s", status, raw)
		}
		for _, stored := range []string{"Lucía", "lucia@", "Seat", "Ibiza"} {
			if strings.Contains(string(raw), stored) {
				t.Errorf("the response reveals stored data %q: %s", stored, raw)
			}
		}
		var resp struct {
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(raw, &resp); err != nil {
			t.Fatal(err)
		}
		data := resp.Data
		webtest.CustWantBody(t, map[string]any{"customer_name": data["customer_name"], "phone": data["phone"], "license_plate": data["license_plate"],
			"brand": data["brand"], "model": data["model"]},
			map[string]any{"customer_name": "Pedro Gómez", "phone": "+34600123456", "license_plate": "1234ABC",
				"brand": "Desconocida", "model": "Desconocido"})
		anonID := int64(data["id_reservation"].(float64))

		// It landed on Lucía and her car (spec), which keep their data.
		r, err := a.Store.Reservations().Reservation(ctx, anonID)
		if err != nil {
			t.Fatal(err)
		}
		if r.CustomerID != lucia.ID {
			t.Errorf("booking landed on customer %d, want Lucía (%d)", r.CustomerID, lucia.ID)
		}
		c, err := a.Store.Customers().Customer(ctx, lucia.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c.FullName != "Lucía Martín García" || c.Email == nil || *c.Email != "lucia@example.com" || c.Type != reservation.Registered {
			t.Errorf("stored customer changed: %+v", c)
		}
		v, err := a.Store.Customers().Vehicle(ctx, r.VehicleID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Brand != "Seat" || v.Model != "Ibiza" {
			t.Errorf("stored vehicle changed: %+v", v)
		}

		// The confirmation goes to the typed contact, with the vehicle as typed.
		payload, _, _ := notificationOf(t, a, anonID)
		cliente := payload["cliente"].(map[string]any)
		if cliente["nombre"] != "Pedro Gómez" || cliente["email"] != "pedro@example.com" || cliente["telefono"] != "+34600123456" {
			t.Errorf("cliente = %v, want the typed contact", cliente)
		}
		if veh := payload["vehicle"].(map[string]any); veh["brand"] != "Desconocida" || veh["model"] != "Desconocido" {
			t.Errorf("vehicle in the confirmation = %v, want what was typed", veh)
		}

		// Staff see the contact, beside the customer record it belongs to.
		admin, _ := apptest.Admin(t, a)
		status, detail := webtest.CustCall(t, admin, "GET", fmt.Sprintf("%s/admin/reservations/details/%d", a.URL, anonID), nil)
		if status != 200 {
			t.Fatalf("detail: %d %v", status, detail)
		}
		contact, _ := detail["contact"].(map[string]any)
		webtest.CustWantBody(t, contact, map[string]any{
			"full_name": "Pedro Gómez", "email": "pedro@example.com", "phone": "+34600123456", "typed": true})
		if cust := detail["customer"].(map[string]any); cust["full_name"] != "Lucía Martín García" {
			t.Errorf("detail customer = %v", cust)
		}
		if res := detail["reservation"].(map[string]any); res["booked_by"] != "public" || res["made_without_login"] != true {
			t.Errorf("detail reservation = %v, want booked_by public, made_without_login", res)
		}
		_, page := webtest.CustCallRaw(t, admin, "GET", fmt.Sprintf("%s/admin/reservations/details/%d", a.URL, anonID), nil, http.Header{"Accept": {"text/html"}})
		if !strings.Contains(string(page), `data-fact="customer">Pedro Gómez<`) || !strings.Contains(string(page), "Lucía Martín García") {
			t.Errorf("detail page lacks the contact (Pedro Gómez) or the customer (Lucía Martín García)")
		}
		status, hist := webtest.CustCall(t, admin, "GET", a.URL+"/admin/history", nil)
		if status != 200 {
			t.Fatalf("history: %d %v", status, hist)
		}
		for _, it := range hist["reservations"].([]any) {
			row := it.(map[string]any)
			switch int64(row["id_reservation"].(float64)) {
			case anonID:
				if row["customer_name"] != "Pedro Gómez" || row["account_name"] != "Lucía Martín García" {
					t.Errorf("history row of the anonymous booking = %v", row)
				}
			case ownID:
				if row["customer_name"] != "Lucía Martín García" || row["account_name"] != nil {
					t.Errorf("history row of Lucía's booking = %v", row)
				}
			}
		}
		board, _ := boardOf(t, a, adminToken(t, a), (clocktest.D("2027-06-01")))
		for _, it := range board["entries"].([]any) {
			row := it.(map[string]any)
			if int64(row["id_reservation"].(float64)) == anonID && row["customer_name"] != "Pedro Gómez" {
				t.Errorf("board item = %v, want the contact's name", row)
			}
		}

		// Pedro's booking landed on Lucía's record by the phone, but it is not hers
		// (docs/privacy.md#who-sees-a-booking): not listed, not cancellable.
		profileMarks := func() map[int64][2]any {
			t.Helper()
			status, prof := webtest.CustCall(t, luciaClient, "GET", a.URL+"/users/profile", nil)
			if status != 200 {
				t.Fatalf("profile: %d %v", status, prof)
			}
			marks := map[int64][2]any{}
			for _, it := range prof["active_reservations"].([]any) {
				row := it.(map[string]any)
				marks[int64(row["id_reservation"].(float64))] = [2]any{row["made_without_login"], row["contact_name"]}
			}
			return marks
		}
		if _, listed := profileMarks()[anonID]; listed {
			t.Error("Lucía's profile lists Pedro's booking")
		}
		cancelURL := fmt.Sprintf("%s/users/profile/reservation/%d/cancel", a.URL, anonID)
		if status, body := webtest.CustCall(t, luciaClient, "DELETE", cancelURL, nil); status != http.StatusForbidden {
			t.Errorf("Lucía cancels a booking she does not see: %d %v, want 403", status, body)
		}

		// Once she holds it (its manage token, say Pedro forwarded the email), her
		// profile marks the booking she did not make, and she can cancel it.
		anon, rerr := a.Store.Reservations().Reservation(context.Background(), anonID)
		if rerr != nil {
			t.Fatal(rerr)
		}
		token, _ := a.Booking.ManageLink(anon)
		if status, body := webtest.CustCall(t, luciaClient, "POST", a.URL+"/users/profile/claim",
			map[string]any{"reference": anon.Reference, "manage_token": token}); status != http.StatusOK {
			t.Fatalf("claim: %d %v", status, body)
		}
		marks := profileMarks()
		if got := marks[anonID]; got != [2]any{true, "Pedro Gómez"} {
			t.Errorf("anonymous booking in the profile: made_without_login, contact_name = %v", got)
		}
		if got := marks[ownID]; got != [2]any{false, nil} {
			t.Errorf("Lucía's own booking in the profile: made_without_login, contact_name = %v", got)
		}
		_, html := webtest.CustCallRaw(t, luciaClient, "GET", a.URL+"/users/profile", nil, http.Header{"Accept": {"text/html"}})
		if n := strings.Count(string(html), "Hecha sin iniciar sesión"); n != 1 || !strings.Contains(string(html), "«Pedro Gómez»") {
			t.Errorf("profile page shows the mark %d times (want 1, with the typed name)", n)
		}
		status, body := webtest.CustCall(t, luciaClient, "DELETE", cancelURL, nil)
		if status != 200 || body["success"] != true {
			t.Errorf("Lucía cancels the booking she did not make: %d %v", status, body)
		}
	})
}

// docs/notifications.md#recipient: a contact typed without an email gets no notification, even when the
// customer found by phone has one (it is recorded as skipped, as for a customer
// without an email).
func TestAnonymousBookingWithoutEmailNotifiesNobody(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.WebhookURL = "http://127.0.0.1:1/never-called"
		a := apptest.StartWith(t, cfg)
		apptest.Account(t, a, reservation.Registered, "Lucía Martín García", "lucia@example.com", "600123456", "lucia-password")
		status, body := webtest.CustCall(t, apptest.Client(t), "POST", a.URL+"/api/reservations/public-new",
			contactBooking("Pedro Gómez", "600123456", "", "5555XYZ", "", ""))
		if status != http.StatusCreated {
			t.Fatalf("booking: %d %v", status, body)
		}
		id := int64(body["data"].(map[string]any)["id_reservation"].(float64))
		payload, st, reason := notificationOf(t, a, id)
		if st != "skipped" || reason != notify.ReasonNoEmail {
			t.Errorf("history row: %s (%s), want skipped: %s", st, reason, notify.ReasonNoEmail)
		}
		if cliente := payload["cliente"].(map[string]any); cliente["email"] != "" || cliente["nombre"] != "Pedro Gómez" {
			t.Errorf("cliente = %v, want the typed contact without email", cliente)
		}
	})
}
