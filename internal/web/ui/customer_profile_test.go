package ui_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/clock/clocktest"

	"parking/internal/account"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

func TestCustomerProfile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, u := apptest.Customer(t, a, "ana@example.com", "600000001")
		bob, _ := apptest.Customer(t, a, "bob@example.com", "600000002")
		// Public bookings made with Ana's phone are hers (the booking flow reuses her row).
		active1 := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{1})
		active2 := webtest.CustBook(t, a, "600000001", "2222BBB", "SUV", (clocktest.D("2026-12-20") + "T10:00"), (clocktest.D("2026-12-22") + "T10:00"), 2, nil)
		webtest.CustSetStatus(t, a, active2, reservation.InCourse)
		past1 := webtest.CustBookPast(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-10-01") + "T10:00"), (clocktest.D("2026-10-02") + "T10:00"), 1, nil)
		webtest.CustSetStatus(t, a, past1, reservation.Finalized)
		past2 := webtest.CustBookPast(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-11-01") + "T10:00"), (clocktest.D("2026-11-02") + "T10:00"), 1, nil)
		webtest.CustSetStatus(t, a, past2, reservation.Cancelled)
		webtest.CustBook(t, a, "600000002", "3333CCC", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)

		status, body := webtest.CustCall(t, ana, "GET", a.URL+"/users/profile", nil)
		if status != http.StatusOK {
			t.Fatalf("status = %d (%v), want 200", status, body)
		}
		for _, k := range []string{"user", "vehicles", "active_reservations", "past_reservations", "catalog"} {
			if _, ok := body[k]; !ok {
				t.Errorf("body lacks %q", k)
			}
		}
		webtest.CustWantBody(t, body["user"].(map[string]any), map[string]any{"id": u.ID, "nombre": "Cliente 600000001",
			"email": "ana@example.com", "numero": "+34600000001", "role": "REGISTRADO", "can_change_password": true, "email_verified": true})

		vehicles := body["vehicles"].([]any)
		if len(vehicles) != 2 {
			t.Fatalf("vehicles = %v, want 1111AAA and 2222BBB", vehicles)
		}
		webtest.CustWantBody(t, vehicles[0].(map[string]any), map[string]any{"id_vehicle": 1, "license_plate": "1111AAA",
			"brand": "Desconocida", "model": "Desconocido", "color": "No color", "type": "COCHE"})

		ids := func(list []any) []int64 {
			var out []int64
			for _, it := range list {
				out = append(out, int64(it.(map[string]any)["id_reservation"].(float64)))
			}
			return out
		}
		// Newest (latest entry) first; Bob's reservation absent.
		if got := ids(body["active_reservations"].([]any)); len(got) != 2 || got[0] != active2 || got[1] != active1 {
			t.Errorf("active = %v, want [%d %d]", got, active2, active1)
		}
		if got := ids(body["past_reservations"].([]any)); len(got) != 2 || got[0] != past2 || got[1] != past1 {
			t.Errorf("past = %v, want [%d %d]", got, past2, past1)
		}
		first := body["active_reservations"].([]any)[1].(map[string]any)
		delete(first, "reservation_date")
		if ref, _ := first["reference"].(string); len(ref) != 9 || ref[4] != '-' {
			t.Errorf("reference = %v, want XXXX-XXXX (docs/manage-booking.md#booking-reference)", first["reference"])
		}
		delete(first, "reference")
		webtest.CustWantBody(t, first, map[string]any{
			"id_reservation": active1, "entry_date": (clocktest.D("2026-12-01") + "T10:00:00" + clocktest.Offset("2026-12-01")), "exit_date": (clocktest.D("2026-12-04") + "T10:00:00" + clocktest.Offset("2026-12-04")),
			"status": "PENDIENTE", "total_price": 51, "is_paid": false, "payment_method": nil, "cod_parking_spot": nil,
			"id_vehicle": 1, "license_plate": "1111AAA", "brand": "Desconocida", "model": "Desconocido", "color": "No color",
			"vehicle_type": "COCHE", "id_main_service": 1, "service_name": "ECO",
			"additional_services": []any{map[string]any{"id": 1, "name": "Lavado básico", "price": 15}},
			"can_cancel":          true, "can_edit": true,
			// Booked through the public API without Ana's session (docs/input-rules.md).
			"made_without_login": true, "contact_name": "Reserva 600000001", "photos": []any{},
		})
		inCourse := body["active_reservations"].([]any)[0].(map[string]any)
		if inCourse["status"] != "EN CURSO" || inCourse["cod_parking_spot"] != "A-1" || inCourse["can_cancel"] != false || inCourse["can_edit"] != true ||
			inCourse["service_name"] != "TRANSFER" || inCourse["vehicle_type"] != "SUV" {
			t.Errorf("EN CURSO item = %v", inCourse)
		}
		final := body["past_reservations"].([]any)[1].(map[string]any)
		if final["status"] != "FINALIZADA" || final["is_paid"] != true || final["payment_method"] != "TARJETA" || final["can_edit"] != false || final["can_cancel"] != false {
			t.Errorf("FINALIZADA item = %v", final)
		}
		cat := body["catalog"].(map[string]any)
		if n := len(cat["main_services"].([]any)); n != 3 {
			t.Errorf("catalog main services = %d, want 3", n)
		}
		if n := len(cat["additional_services"].([]any)); n != 8 {
			t.Errorf("catalog additional services = %d, want 8", n)
		}
		if n := len(cat["vehicle_types"].([]any)); n != 9 {
			t.Errorf("catalog vehicle types = %d, want 9", n)
		}

		// A customer with nothing booked gets empty lists, not nulls.
		webtest.CustExec(t, a, `DELETE FROM reservation WHERE id_customer = (SELECT id_customer FROM customer WHERE phone = '+34600000002')`)
		webtest.CustExec(t, a, `DELETE FROM customer_vehicle WHERE id_customer = (SELECT id_customer FROM customer WHERE phone = '+34600000002')`)
		_, raw := webtest.CustCallRaw(t, bob, "GET", a.URL+"/users/profile", nil, nil)
		for _, want := range []string{`"vehicles":[]`, `"active_reservations":[]`, `"past_reservations":[]`} {
			if !strings.Contains(string(raw), want) {
				t.Errorf("empty profile lacks %s: %s", want, raw)
			}
		}

		// No session: browsers are sent to the login page, JSON clients get 401.
		status, _ = webtest.CustCallRaw(t, apptest.Client(t), "GET", a.URL+"/users/profile", nil, http.Header{"Accept": {"text/html"}})
		if status != http.StatusSeeOther {
			t.Errorf("browser without session: status %d, want 303", status)
		}
		status, body = webtest.CustCall(t, apptest.Client(t), "GET", a.URL+"/users/profile", nil)
		if status != http.StatusUnauthorized || body["success"] != false {
			t.Errorf("JSON without session: %d %v, want 401", status, body)
		}
	})
}

func TestCustomerUpdateProfile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, u := apptest.Customer(t, a, "ana@example.com", "600000001")
		apptest.Customer(t, a, "bob@example.com", "600000002")
		// A booking-flow customer (NO-REGISTRADO) holds 611111111.
		webtest.CustBook(t, a, "611111111", "9999ZZZ", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
		updateURL := a.URL + "/users/profile/update"
		ok := map[string]any{"success": true, "message": "Datos personales actualizados correctamente."}
		user := func() map[string]any {
			t.Helper()
			status, body := webtest.CustCall(t, ana, "GET", a.URL+"/users/profile", nil)
			if status != http.StatusOK {
				t.Fatalf("profile: %d", status)
			}
			return body["user"].(map[string]any)
		}

		status, body := webtest.CustCall(t, ana, "PUT", updateURL, map[string]any{"nombre": "  Ana García ", "email": "Ana.Garcia@example.com", "telefono": " +34 600 000 009 "})
		if status != http.StatusOK {
			t.Fatalf("status = %d (%v), want 200", status, body)
		}
		webtest.CustWantBody(t, body, ok)
		// The session user is read from the database per request: the session copy follows.
		// The new email is unverified (docs/accounts.md#email-verification).
		webtest.CustWantBody(t, user(), map[string]any{"id": u.ID, "nombre": "Ana García", "email": "Ana.Garcia@example.com",
			"numero": "+34600000009", "role": "REGISTRADO", "can_change_password": true, "email_verified": false})
		if _, err := a.Accounts.Authenticate(context.Background(), "ana.garcia@example.com", "customer-password"); err != nil {
			t.Errorf("login with the new email: %v", err)
		}

		// A form works too, and a field not sent is kept.
		status, body = webtest.CustCall(t, ana, "PUT", updateURL, url.Values{"nombre": {"Ana G."}}.Encode())
		if status != http.StatusOK {
			t.Fatalf("form: status = %d (%v), want 200", status, body)
		}
		if got := user(); got["nombre"] != "Ana G." || got["email"] != "Ana.Garcia@example.com" || got["numero"] != "+34600000009" {
			t.Errorf("after form update: %v", got)
		}

		// A public booking with the new phone lands on her account.
		id := webtest.CustBook(t, a, "+34 600 000 009", "5555EEE", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
		if r, err := a.Store.Reservations().Reservation(context.Background(), id); err != nil || r.CustomerID != u.ID {
			t.Errorf("booking with the new phone: customer %d (%v), want %d", r.CustomerID, err, u.ID)
		}

		before := user()
		long := strings.Repeat("a", 101)
		cases := []struct {
			name   string
			body   any
			status int
			msg    string
		}{
			{"bad email", map[string]any{"email": "ana@"}, 400, `El correo electrónico "ana@" (campo email) no es válido: debe tener la forma nombre@dominio.es.`},
			{"blank email", map[string]any{"email": "  "}, 400, "El correo electrónico es obligatorio."},
			{"email too long", map[string]any{"email": strings.Repeat("a", 250) + "@x.es"}, 400, "El campo email admite como máximo 254 caracteres."},
			{"phone with letters", map[string]any{"telefono": "600-ABC"}, 400, `El teléfono "600-ABC" (campo telefono) no es válido: escriba un número que exista, por ejemplo 612 345 678 o +34 612 345 678.`},
			{"phone too short", map[string]any{"telefono": "12345"}, 400, `El teléfono "12345" (campo telefono) no es válido: escriba un número que exista, por ejemplo 612 345 678 o +34 612 345 678.`},
			{"phone too long", map[string]any{"telefono": "123456789012345678901"}, 400, "El campo telefono admite como máximo 20 caracteres."},
			{"blank phone", map[string]any{"telefono": ""}, 400, "El teléfono es obligatorio."},
			{"blank name", map[string]any{"nombre": " "}, 400, "El nombre es obligatorio."},
			{"name too long", map[string]any{"nombre": long}, 400, "El campo nombre admite como máximo 100 caracteres."},
			{"name not text", map[string]any{"nombre": true}, 400, "El campo nombre debe ser un texto."},
			{"email of another account, other case", map[string]any{"email": "BOB@example.com"}, 409, "El correo electrónico BOB@example.com ya está registrado en otra cuenta."},
			{"phone of another account", map[string]any{"telefono": "600000002"}, 409,
				"El teléfono +34600000002 ya pertenece a otro cliente. Si hizo reservas con ese número antes de registrarse, contacte con el aparcamiento."},
			{"phone of a booking-flow customer", map[string]any{"telefono": "611111111"}, 409,
				"El teléfono +34611111111 ya pertenece a otro cliente. Si hizo reservas con ese número antes de registrarse, contacte con el aparcamiento."},
			{"empty body", nil, 400, "El cuerpo de la petición está vacío; se espera un objeto JSON."},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				status, body := webtest.CustCall(t, ana, "PUT", updateURL, c.body)
				if status != c.status {
					t.Fatalf("status = %d (%v), want %d", status, body, c.status)
				}
				webtest.CustWantBody(t, body, map[string]any{"success": false, "message": c.msg})
			})
		}
		webtest.CustWantBody(t, user(), before)

		// Cross-origin writes are refused before the handler (docs/errors.md#cross-site-requests).
		status, _ = webtest.CustCallRaw(t, ana, "PUT", updateURL, map[string]any{"nombre": "Mallory"}, http.Header{"Origin": {"https://evil.example"}})
		if status != http.StatusForbidden {
			t.Errorf("cross-origin update: status %d, want 403", status)
		}
		webtest.CustWantBody(t, user(), before)
	})
}

func TestCustomerChangePassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, u := apptest.Customer(t, a, "ana@example.com", "600000001")
		other := apptest.LoggedIn(t, a, u) // the same account on another device
		pwURL := a.URL + "/users/profile/password"
		ctx := context.Background()
		// An API token obtained with email and password (not tied to a session).
		webtest.CustExec(t, a, `INSERT INTO api_token (token_hash, id_customer, session_hash, created_at, expires_at) VALUES ('h1', $1, NULL, $2, $3)`,
			u.ID, apptest.Now(a), apptest.Now(a).Add(12*time.Hour))

		body := func(cur, nw, conf string) map[string]any {
			return map[string]any{"currentPassword": cur, "newPassword": nw, "confirmPassword": conf}
		}
		cases := []struct {
			name   string
			body   any
			status int
			msg    string
		}{
			{"confirmation mismatch", body("customer-password", "new-password-1", "new-password-2"), 400, account.ErrPasswordMismatch.Message},
			{"wrong current", body("not-my-password", "new-password-1", "new-password-1"), 401, account.ErrWrongCurrentPassword.Message},
			{"too short", body("customer-password", "short", "short"), 400, "La nueva contraseña debe tener al menos 8 caracteres."},
			{"too long for bcrypt", body("customer-password", strings.Repeat("x", 73), strings.Repeat("x", 73)), 400, "La nueva contraseña admite como máximo 72 bytes."},
			{"missing field", map[string]any{"currentPassword": "customer-password", "newPassword": "new-password-1"}, 400, account.ErrPasswordFieldsRequired.Message},
			{"same as current", body("customer-password", "customer-password", "customer-password"), 400, account.ErrPasswordUnchanged.Message},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				status, got := webtest.CustCall(t, ana, "PUT", pwURL, c.body)
				if status != c.status {
					t.Fatalf("status = %d (%v), want %d", status, got, c.status)
				}
				webtest.CustWantBody(t, got, map[string]any{"success": false, "message": c.msg})
			})
		}
		// Nothing changed: the old password still works and both sessions live.
		if _, err := a.Accounts.Authenticate(ctx, "ana@example.com", "customer-password"); err != nil {
			t.Fatalf("after refusals the old password fails: %v", err)
		}
		if status, _ := webtest.CustCall(t, other, "GET", a.URL+"/users/profile", nil); status != http.StatusOK {
			t.Fatalf("other session after refusals: %d", status)
		}

		// Success, as a form this time.
		status, got := webtest.CustCall(t, ana, "PUT", pwURL, url.Values{"currentPassword": {"customer-password"},
			"newPassword": {"brand-new-pass"}, "confirmPassword": {"brand-new-pass"}}.Encode())
		if status != http.StatusOK {
			t.Fatalf("status = %d (%v), want 200", status, got)
		}
		webtest.CustWantBody(t, got, map[string]any{"success": true, "message": "Contraseña actualizada correctamente. Se han cerrado las demás sesiones de la cuenta."})
		if _, err := a.Accounts.Authenticate(ctx, "ana@example.com", "brand-new-pass"); err != nil {
			t.Errorf("new password refused: %v", err)
		}
		if _, err := a.Accounts.Authenticate(ctx, "ana@example.com", "customer-password"); !errors.Is(err, account.ErrBadCredentials) {
			t.Errorf("old password: err = %v, want bad credentials", err)
		}
		// The other session is over: browser → login page, JSON → 401; this one still works.
		if status, _ := webtest.CustCallRaw(t, other, "GET", a.URL+"/users/profile", nil, http.Header{"Accept": {"text/html"}}); status != http.StatusSeeOther {
			t.Errorf("other session (browser): status %d, want 303 to login", status)
		}
		if status, _ := webtest.CustCall(t, other, "GET", a.URL+"/users/profile", nil); status != http.StatusUnauthorized {
			t.Errorf("other session (JSON): status %d, want 401", status)
		}
		if status, _ := webtest.CustCall(t, ana, "GET", a.URL+"/users/profile", nil); status != http.StatusOK {
			t.Errorf("current session: status %d, want 200", status)
		}
		var revoked bool
		if err := a.Store.DB().QueryRow(`SELECT revoked_at IS NOT NULL FROM api_token WHERE token_hash = 'h1'`).Scan(&revoked); err != nil || !revoked {
			t.Errorf("password-issued API token revoked = %v (%v), want true", revoked, err)
		}
	})
}

// docs/errors.md#operation-responses: an account created by social login has no password to change (400).
func TestCustomerChangePasswordSocialLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		c, u := apptest.Customer(t, a, "social@example.com", "600000003")
		webtest.CustExec(t, a, `UPDATE customer SET password_hash = 'SOCIAL_LOGIN_google_12345' WHERE id_customer = $1`, u.ID)
		status, got := webtest.CustCall(t, c, "PUT", a.URL+"/users/profile/password",
			map[string]any{"currentPassword": "anything1", "newPassword": "new-password-1", "confirmPassword": "new-password-1"})
		if status != http.StatusBadRequest {
			t.Fatalf("status = %d (%v), want 400", status, got)
		}
		webtest.CustWantBody(t, got, map[string]any{"success": false, "message": account.ErrSocialLoginPassword.Message})
		status, got = webtest.CustCall(t, c, "GET", a.URL+"/users/profile", nil)
		if status != http.StatusOK || got["user"].(map[string]any)["can_change_password"] != false {
			t.Errorf("profile of a social account: %d %v, want can_change_password false", status, got["user"])
		}
		var hash string
		if err := a.Store.DB().QueryRow(`SELECT password_hash FROM customer WHERE id_customer = $1`, u.ID).Scan(&hash); err != nil || hash != "SOCIAL_LOGIN_google_12345" {
			t.Errorf("hash = %q (%v), want unchanged", hash, err)
		}
	})
}
