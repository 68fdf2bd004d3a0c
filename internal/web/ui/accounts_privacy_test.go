package ui_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

func scalar[T any](t *testing.T, e *webtest.AdminEnv, q string, args ...any) T {
	t.Helper()
	var v T
	if err := e.A.Store.DB().QueryRow(q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

func stay(day string) string { return clocktest.D(day) + "T10:00" }

// "Descargar mis datos" (GDPR arts. 15, 20): a JSON file with the account, its
// consents, vehicles and reservations with their contact, photos and the
// notifications sent about them; staff get the same file for a guest.
func TestCustomerDataExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		c, u := apptest.Customer(t, a, "marta@example.com", "600000001")
		status, body := webtest.CustCall(t, c, "POST", a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "Marta Gil", "phone": "600000001", "email": "marta@example.com", "license_plate": "1111AAA",
			"vehicle_type": "TURISMO", "entry_date": stay("2026-12-01"), "exit_date": stay("2026-12-04"),
			"id_main_service": 1, "additional_services": []int{1}, "privacy_ack": true, "marketing_consent": true,
		})
		if status != http.StatusCreated {
			t.Fatalf("booking: %d %v", status, body)
		}
		id := int64(body["data"].(map[string]any)["id_reservation"].(float64))
		e.Exec(`INSERT INTO photo_evidence (id_reservation, file_path, description, taken_at) VALUES ($1, 'https://fotos.example/1.jpg', 'Frontal', $2)`, id, apptest.Now(a))

		res := webtest.Do(t, c, "GET", a.URL+"/users/profile/data", nil)
		webtest.WantStatus(t, res, http.StatusOK)
		if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, ".json") {
			t.Errorf("Content-Disposition = %q, want a JSON attachment", cd)
		}
		var got struct {
			Account struct {
				ID           int64   `json:"id"`
				Email        *string `json:"email"`
				Phone        *string `json:"phone"`
				HasPassword  bool    `json:"has_password"`
				SocialLogins []any   `json:"social_logins"`
			} `json:"account"`
			Vehicles []struct {
				LicensePlate string `json:"license_plate"`
			} `json:"vehicles"`
			Reservations []struct {
				ID                 int64   `json:"id_reservation"`
				PrivacyAckAt       *string `json:"privacy_ack_at"`
				MarketingConsentAt *string `json:"marketing_consent_at"`
				Contact            *struct {
					FullName string `json:"full_name"`
				} `json:"contact"`
				AdditionalServices []struct{ Name string } `json:"additional_services"`
				Photos             []struct {
					FilePath string `json:"file_path"`
				} `json:"photos"`
				Notifications []struct {
					Type    string         `json:"type"`
					Payload map[string]any `json:"payload"`
				} `json:"notifications"`
			} `json:"reservations"`
		}
		if err := json.Unmarshal([]byte(res.Body), &got); err != nil {
			t.Fatalf("export is not the JSON document: %v\n%s", err, res.Body)
		}
		if got.Account.ID != u.ID || got.Account.Email == nil || *got.Account.Email != "marta@example.com" || got.Account.Phone == nil ||
			*got.Account.Phone != "+34600000001" || !got.Account.HasPassword {
			t.Errorf("account = %+v", got.Account)
		}
		if len(got.Vehicles) != 1 || got.Vehicles[0].LicensePlate != "1111AAA" {
			t.Errorf("vehicles = %+v", got.Vehicles)
		}
		if len(got.Reservations) != 1 {
			t.Fatalf("reservations = %d, want 1", len(got.Reservations))
		}
		r := got.Reservations[0]
		if r.ID != id || r.PrivacyAckAt == nil || r.MarketingConsentAt == nil || r.Contact == nil || r.Contact.FullName != "Marta Gil" ||
			len(r.AdditionalServices) != 1 || len(r.Photos) != 1 || r.Photos[0].FilePath != "https://fotos.example/1.jpg" {
			t.Errorf("reservation = %+v", r)
		}
		// The confirmation and the reminder the day before (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder).
		if len(r.Notifications) != 2 || r.Notifications[0].Type != "booking_confirmation" || r.Notifications[0].Payload["type"] != "booking_confirmation" ||
			r.Notifications[1].Type != "booking_reminder" {
			t.Errorf("notifications = %+v, want the booking confirmation with what it carried", r.Notifications)
		}

		// Staff, for the same customer; anonymous and other customers get nothing.
		st, _, text := e.Send("GET", "/admin/customers/"+webtest.Itoa(u.ID)+"/data", "", "")
		if st != http.StatusOK || !strings.Contains(text, `"marta@example.com"`) {
			t.Errorf("staff export: %d %s", st, text)
		}
		if st, _, _ := e.Send("GET", "/admin/customers/999999/data", "", "", "Accept", "application/json"); st != http.StatusNotFound {
			t.Errorf("staff export of an unknown customer: %d, want 404", st)
		}
		webtest.WantStatus(t, webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/profile/data", nil, "Accept: application/json"), http.StatusUnauthorized)
		webtest.WantStatus(t, webtest.Do(t, c, "GET", a.URL+"/admin/customers/"+webtest.Itoa(u.ID)+"/data", nil), http.StatusSeeOther)
	})
}

// "Eliminar mi cuenta" (GDPR art. 17): confirmed with the password; personal data
// anonymised at once; reservations and receipts kept without name, email or phone;
// pending bookings cancelled; sessions ended; photos, notes and notification
// payloads gone; the plate anonymised; the email and phone free again.
func TestCustomerErase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		c, u := apptest.Customer(t, a, "marta@example.com", "600000001")
		done := webtest.CustBook(t, a, "600000001", "1111AAA", "TURISMO", stay("2026-12-01"), stay("2026-12-03"), 1, nil)
		pending := webtest.CustBook(t, a, "600000001", "1111AAA", "TURISMO", stay("2026-12-10"), stay("2026-12-12"), 1, nil)
		webtest.CustSetStatus(t, a, done, reservation.InCourse)
		e.Exec(`UPDATE reservation SET notes = 'Llaves en el casillero de Marta' WHERE id_reservation = $1`, done)
		e.Exec(`INSERT INTO photo_evidence (id_reservation, file_path, taken_at) VALUES ($1, 'https://fotos.example/1.jpg', $2)`, done, apptest.Now(a))
		price := scalar[int64](t, e, `SELECT total_price_cents FROM reservation WHERE id_reservation = $1`, done)

		erase := func(body map[string]any) (int, map[string]any) {
			return webtest.CustCall(t, c, "POST", a.URL+"/users/profile/delete", body)
		}
		if st, b := erase(map[string]any{}); st != http.StatusBadRequest || !strings.Contains(b["message"].(string), "contraseña") {
			t.Errorf("erase without the password: %d %v, want 400", st, b)
		}
		if st, b := erase(map[string]any{"password": "otra-cosa"}); st != http.StatusUnauthorized {
			t.Errorf("erase with a wrong password: %d %v, want 401", st, b)
		}
		if st, b := erase(map[string]any{"password": "customer-password"}); st != http.StatusConflict {
			t.Errorf("erase with a car in the park: %d %v, want 409", st, b)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE id_customer = $1 AND email = 'marta@example.com' AND erased_at IS NULL`, u.ID); n != 1 {
			t.Fatal("a refused erasure changed the account")
		}
		webtest.CustSetStatus(t, a, done, reservation.Finalized)
		// A password reset link sent before (docs/manage-booking.md#password-reset) carries the name and email.
		webtest.WantStatus(t, webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/password/forgot", map[string]string{"email": "marta@example.com"}), http.StatusOK)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM password_reset`); n != 1 {
			t.Fatalf("reset links before the erasure: %d, want 1", n)
		}

		st, b := erase(map[string]any{"password": "customer-password"})
		if st != http.StatusOK || b["success"] != true {
			t.Fatalf("erase: %d %v", st, b)
		}
		checks := []struct {
			what, q string
			args    []any
		}{
			{"customer anonymised", `SELECT COUNT(*) FROM customer WHERE id_customer = $1 AND full_name = 'Cliente eliminado' AND email IS NULL
				AND phone IS NULL AND password_hash IS NULL AND type = 'NO-REGISTRADO' AND erased_at IS NOT NULL`, []any{u.ID}},
			{"finished stay kept for accounting", `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND status = 'FINALIZADA'
				AND total_price_cents = $2 AND is_paid AND payment_method = 'TARJETA' AND contact_name IS NULL AND contact_phone IS NULL
				AND contact_email IS NULL AND notes IS NULL`, []any{done, price}},
			{"pending booking cancelled", `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND status = 'CANCELADA'`, []any{pending}},
			{"plate anonymised", `SELECT COUNT(*) FROM vehicle WHERE license_plate LIKE 'ANON%' AND brand = 'Desconocida'`, nil},
			{"no plate left", `SELECT 1 - COUNT(*) FROM vehicle WHERE license_plate = '1111AAA'`, nil},
			{"photos deleted", `SELECT 1 - COUNT(*) FROM photo_evidence`, nil},
			{"notifications emptied", `SELECT CASE WHEN COUNT(*) > 0 AND COUNT(*) = SUM(CASE WHEN payload = '{}' THEN 1 ELSE 0 END) THEN 1 ELSE 0 END
				FROM notification WHERE id_reservation = $1`, []any{done}},
			{"reset links gone", `SELECT 1 - COUNT(*) FROM password_reset`, nil},
			{"reset notification emptied", `SELECT COUNT(*) FROM notification WHERE type = 'password_reset' AND payload = '{}' AND status <> 'pending'`, nil},
			{"no pending reminder", `SELECT 1 - COUNT(*) FROM notification WHERE type = 'booking_reminder' AND status = 'pending'`, nil},
			{"sessions ended", `SELECT 1 - COUNT(*) FROM web_session WHERE id_customer = $1`, []any{u.ID}},
		}
		for _, ch := range checks {
			if n := webtest.CountRows(t, a, ch.q, ch.args...); n != 1 {
				t.Errorf("%s: check gave %d, want 1", ch.what, n)
			}
		}
		webtest.WantStatus(t, webtest.Do(t, c, "GET", a.URL+"/users/profile", nil, "Accept: application/json"), http.StatusUnauthorized)
		webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "marta@example.com", "customer-password", "customer"), http.StatusUnauthorized)
		// The email and the phone are free again.
		r := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]any{"full_name": "Marta Gil", "email": "marta@example.com",
			"phone": "600000001", "password": "marta-nueva-1", "confirmPassword": "marta-nueva-1"})
		webtest.WantStatus(t, r, http.StatusCreated)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation r JOIN customer c ON c.id_customer = r.id_customer WHERE c.email = 'marta@example.com'`); n != 0 {
			t.Errorf("the new account sees %d reservations of the erased one", n)
		}
	})
}

// A social-login account (no password) confirms by typing ELIMINAR.
func TestSocialAccountErase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		u := apptest.Account(t, a, reservation.Registered, "Lucía", "lucia@example.com", "", "irrelevant")
		webtest.Exec(t, a, `UPDATE customer SET password_hash = 'SOCIAL_LOGIN_google_1' WHERE id_customer = $1`, u.ID)
		webtest.Exec(t, a, `INSERT INTO social_identity (provider, subject, id_customer, email, created_at) VALUES ('google', '1', $1, 'lucia@example.com', $2)`, u.ID, apptest.Now(a))
		c := apptest.LoggedIn(t, a, u)
		if st, b := webtest.CustCall(t, c, "POST", a.URL+"/users/profile/delete", map[string]any{"confirm": "vale"}); st != http.StatusBadRequest {
			t.Errorf("wrong confirmation: %d %v, want 400", st, b)
		}
		// A browser's form: the page that says it is done.
		res := webtest.PostForm(t, c, a.URL+"/users/profile/delete", url.Values{"confirm": {"eliminar"}})
		webtest.WantStatus(t, res, http.StatusOK)
		webtest.WantAll(t, "erased page", res.Body, "Cuenta eliminada")
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM social_identity`); n != 0 {
			t.Errorf("provider links left: %d", n)
		}
	})
}

// Staff erase a guest's data on request (ELIMINAR typed): a vehicle another
// customer also uses keeps its plate; staff accounts and unknown ids are refused;
// a second erasure is a 409.
func TestAdminCustomerErase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		guest := webtest.CustBook(t, a, "611000001", "2222BBB", "TURISMO", stay("2026-12-01"), stay("2026-12-03"), 1, nil)
		webtest.CustBook(t, a, "611000002", "2222BBB", "TURISMO", stay("2026-12-10"), stay("2026-12-12"), 1, nil) // another driver, same car
		guestID := scalar[int64](t, e, `SELECT id_customer FROM reservation WHERE id_reservation = $1`, guest)
		path := "/admin/customers/" + webtest.Itoa(guestID) + "/erase"

		page := e.Page("/admin/reservations/details/" + webtest.Itoa(guest))
		webtest.WantAll(t, "detail page", page.Body, `action="`+path+`"`, `href="/admin/customers/`+webtest.Itoa(guestID)+`/data"`)

		if st, b := e.JSON("POST", path, map[string]any{"confirm": "no"}); st != http.StatusBadRequest {
			t.Errorf("erase without ELIMINAR: %d %v", st, b)
		}
		back := "/admin/reservations/details/" + webtest.Itoa(guest)
		st, loc, _ := e.Form(path, url.Values{"confirm": {"ELIMINAR"}, "back": {back}})
		if st != http.StatusSeeOther || loc != back {
			t.Fatalf("erase form: %d to %q, want 303 to %s", st, loc, back)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE id_customer = $1 AND phone IS NULL AND full_name = 'Cliente eliminado'`, guestID); n != 1 {
			t.Error("guest not anonymised")
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM vehicle WHERE license_plate = '2222BBB'`); n != 1 {
			t.Error("the plate another customer uses was anonymised")
		}
		if st, b := e.JSON("POST", path, map[string]any{"confirm": "ELIMINAR"}); st != http.StatusConflict {
			t.Errorf("second erasure: %d %v, want 409", st, b)
		}
		adminID := scalar[int64](t, e, `SELECT id_customer FROM customer WHERE type = 'ADMIN'`)
		if st, b := e.JSON("POST", "/admin/customers/"+webtest.Itoa(adminID)+"/erase", map[string]any{"confirm": "ELIMINAR"}); st != http.StatusForbidden {
			t.Errorf("erasing a staff account: %d %v, want 403", st, b)
		}
		if st, b := e.JSON("POST", "/admin/customers/999999/erase", map[string]any{"confirm": "ELIMINAR"}); st != http.StatusNotFound {
			t.Errorf("erasing an unknown customer: %d %v, want 404", st, b)
		}
	})
}

// The marketing consent is as easy to withdraw as to give (GDPR art. 7.3): the
// profile's "Sus datos" card shows it and changes it.
func TestMarketingConsentFromProfile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		c, u := apptest.Customer(t, a, "marta@example.com", "600000001")
		given := func() int {
			return webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE id_customer = $1 AND marketing_consent_at IS NOT NULL`, u.ID)
		}
		page := webtest.Do(t, c, "GET", a.URL+"/users/profile", nil)
		webtest.WantAll(t, "profile", page.Body, "Descargar mis datos", "Eliminar mi cuenta", `action="/users/profile/consents"`)
		if strings.Contains(page.Body, "aceptado el") {
			t.Error("the profile shows a consent never given")
		}
		st, b := webtest.CustCall(t, c, "POST", a.URL+"/users/profile/consents", map[string]any{"marketing_consent": true})
		if st != http.StatusOK || b["marketing_consent"] != true || given() != 1 {
			t.Fatalf("give consent: %d %v, stored %d", st, b, given())
		}
		webtest.WantAll(t, "profile", webtest.Do(t, c, "GET", a.URL+"/users/profile", nil).Body, "aceptado el")
		// The page's form with the box unticked sends only the hidden false.
		res := webtest.PostForm(t, c, a.URL+"/users/profile/consents", url.Values{"marketing_consent": {"false"}})
		webtest.WantStatus(t, res, http.StatusSeeOther)
		if given() != 0 {
			t.Error("consent not withdrawn")
		}
		if st, _ := webtest.CustCall(t, c, "POST", a.URL+"/users/profile/consents", map[string]any{}); st != http.StatusBadRequest {
			t.Errorf("no value: %d, want 400", st)
		}
	})
}

// The erasure reaches the audit trail: what happened to the reservations stays
// (states, dates, prices), who it happened to goes — the contact's name and phone
// in the entries about the guest's reservations.
func TestEraseBlanksTheAuditTrail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		guest := webtest.CustBook(t, a, "611000009", "9999ZZZ", "TURISMO", stay("2026-12-01"), stay("2026-12-03"), 1, nil)
		if st, b := e.JSON("PATCH", "/admin/reservations/"+webtest.Itoa(guest)+"/cancel", nil); st != http.StatusOK {
			t.Fatalf("cancel: %d %v", st, b)
		}
		trail := func() string {
			t.Helper()
			rows, err := a.Store.DB().Query(`SELECT changes FROM audit_entry WHERE reservation_id = $1 ORDER BY id`, guest)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var all strings.Builder
			for rows.Next() {
				var c string
				if err := rows.Scan(&c); err != nil {
					t.Fatal(err)
				}
				all.WriteString(c)
			}
			return all.String()
		}
		before := trail()
		for _, personal := range []string{"Reserva 611000009", "+34611000009"} {
			if !strings.Contains(before, personal) {
				t.Fatalf("the trail before the erasure lacks %q: %s", personal, before)
			}
		}
		guestID := scalar[int64](t, e, `SELECT id_customer FROM reservation WHERE id_reservation = $1`, guest)
		if st, b := e.JSON("POST", "/admin/customers/"+webtest.Itoa(guestID)+"/erase", map[string]any{"confirm": "ELIMINAR"}); st != http.StatusOK {
			t.Fatalf("erase: %d %v", st, b)
		}
		after := trail()
		for _, personal := range []string{"Reserva 611000009", "611000009", "9999ZZZ"} {
			if strings.Contains(after, personal) {
				t.Errorf("the trail still holds %q after the erasure: %s", personal, after)
			}
		}
		for _, kept := range []string{"CANCELADA", "PENDIENTE", "(eliminado)"} {
			if !strings.Contains(after, kept) {
				t.Errorf("the trail lost %q: %s", kept, after)
			}
		}
	})
}
