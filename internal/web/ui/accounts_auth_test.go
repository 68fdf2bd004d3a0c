package ui_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/clock/clocktest"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Login (docs/accounts.md#refusals): each role's redirect, wrong
// credentials 401 on the login page, worker access refused to customers with 403
// and no session, JSON answers, the fields kept on error (never the password).
func TestLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		apptest.Account(t, a, reservation.Admin, "Ana Admin", "admin@example.com", "", "admin-password")
		cust := apptest.Account(t, a, reservation.Registered, "Carlos Cliente", "carlos@example.com", "600000001", "customer-password")
		social := "SOCIAL_LOGIN_google_123"
		webtest.Exec(t, a, `INSERT INTO customer (full_name, email, type, password_hash, created_at) VALUES ('Social', 'social@example.com', 'REGISTRADO', $1, $2)`, social, apptest.Now(a))

		cases := []struct {
			name, email, password, loginType string
			wantStatus                       int
			wantLocation, wantText           string
		}{
			{"admin through worker access", "admin@example.com", "admin-password", "worker", 303, "/admin/dashboard", ""},
			{"admin through customer access", "admin@example.com", "admin-password", "customer", 303, "/admin/dashboard", ""},
			{"customer", "carlos@example.com", "customer-password", "customer", 303, "/users/profile", ""},
			{"email ignores case and spaces", "  CARLOS@Example.com ", "customer-password", "customer", 303, "/users/profile", ""},
			{"loginType omitted is customer", "carlos@example.com", "customer-password", "", 303, "/users/profile", ""},
			{"wrong password", "carlos@example.com", "wrong-password", "customer", 401, "", "Correo electrónico o contraseña incorrectos."},
			{"unknown email", "nobody@example.com", "whatever-pass", "customer", 401, "", "Correo electrónico o contraseña incorrectos."},
			{"social login account never matches", "social@example.com", social, "customer", 401, "", "Correo electrónico o contraseña incorrectos."},
			{"customer through worker access", "carlos@example.com", "customer-password", "worker", 403, "", "Acceso denegado"},
			{"missing password", "carlos@example.com", "", "customer", 400, "", "Indique su correo electrónico y su contraseña."},
			{"unknown loginType", "carlos@example.com", "customer-password", "boss", 400, "", "Tipo de acceso no válido."},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				cl := apptest.Client(t)
				res := webtest.Login(t, cl, a, c.email, c.password, c.loginType)
				webtest.WantStatus(t, res, c.wantStatus)
				if got := res.Header.Get("Location"); got != c.wantLocation {
					t.Errorf("Location = %q, want %q", got, c.wantLocation)
				}
				ck := webtest.SessionCookie(res)
				if c.wantStatus == 303 {
					if ck == nil || ck.Value == "" {
						t.Fatal("no session cookie after a successful login")
					}
					return
				}
				if ck != nil {
					t.Errorf("refused login set a session cookie: %v", ck)
				}
				if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type = %q, want the login page", ct)
				}
				if !strings.Contains(res.Body, c.wantText) {
					t.Errorf("page lacks %q", c.wantText)
				}
				if c.password != "" && strings.Contains(res.Body, c.password) {
					t.Error("the page echoes the password")
				}
				if c.email != "" && c.wantStatus != 400 && !strings.Contains(res.Body, `value="`+strings.TrimSpace(c.email)+`"`) {
					t.Error("the page does not keep the email typed")
				}
			})
		}

		// The worker refusal grants no session at all: no row for that customer.
		// Three customer logins above succeeded ("customer", "email ignores case",
		// "loginType omitted"), each with its own client.
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1`, cust.ID); n != 3 {
			t.Errorf("customer sessions = %d, want 3 (none from the refused worker login)", n)
		}
		// The refused worker keeps the worker tab selected.
		res := webtest.Login(t, apptest.Client(t), a, "carlos@example.com", "customer-password", "worker")
		if !strings.Contains(res.Body, `name="loginType" value="worker"`) {
			t.Error("worker refusal page lost loginType=worker")
		}

		t.Run("JSON", func(t *testing.T) {
			cl := apptest.Client(t)
			res := webtest.PostJSON(t, cl, a.URL+"/users/login", map[string]string{"email": "carlos@example.com", "password": "customer-password", "loginType": "customer"})
			webtest.WantStatus(t, res, 200)
			webtest.WantBody(t, res, `{"message":"Sesión iniciada.","redirect":"/users/profile","success":true,"user":{"id":`+webtest.Itoa(cust.ID)+`,"nombre":"Carlos Cliente","email":"carlos@example.com","numero":"+34600000001","role":"REGISTRADO"}}`)
			if webtest.SessionCookie(res) == nil {
				t.Error("JSON login set no cookie")
			}
			res = webtest.PostJSON(t, cl, a.URL+"/users/login", map[string]string{"email": "carlos@example.com", "password": "nope-nope", "loginType": "customer"})
			webtest.WantStatus(t, res, 401)
			webtest.WantBody(t, res, `{"message":"Correo electrónico o contraseña incorrectos.","success":false}`)
			res = webtest.PostJSON(t, cl, a.URL+"/users/login", map[string]string{"email": "carlos@example.com", "password": "customer-password", "loginType": "worker"})
			webtest.WantStatus(t, res, 403)
			webtest.WantBody(t, res, `{"message":"Acceso denegado: esta cuenta no pertenece al personal del aparcamiento. Use el acceso de clientes.","success":false}`)
			// A form post from a client that prefers JSON is answered in JSON too.
			res = webtest.Login(t, cl, a, "carlos@example.com", "customer-password", "customer", "Accept: application/json")
			webtest.WantStatus(t, res, 200)
		})
	})
}

// The session (docs/accounts.md#sessions): renewed at login (a fresh token; the previous session
// ended), cookie flags, logout (GET and POST) ending it, idle and absolute expiry,
// browsers redirected and JSON clients answered 401.
func TestSessionLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		admin := apptest.Account(t, a, reservation.Admin, "Ana Admin", "admin@example.com", "", "admin-password")
		cl := apptest.Client(t)
		base, _ := url.Parse(a.URL)

		first := webtest.Login(t, cl, a, "admin@example.com", "admin-password", "worker")
		webtest.WantStatus(t, first, 303)
		ck := webtest.SessionCookie(first)
		if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure || ck.Path != "/" {
			t.Errorf("cookie flags: HttpOnly=%v SameSite=%v Secure=%v Path=%q; want HttpOnly, Lax, not Secure over http, /", ck.HttpOnly, ck.SameSite, ck.Secure, ck.Path)
		}
		webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/admin/dashboard", nil), 200)

		// Logging in again renews the session: a new token, the old one worthless.
		second := webtest.Login(t, cl, a, "admin@example.com", "admin-password", "worker")
		webtest.WantStatus(t, second, 303)
		if webtest.SessionCookie(second).Value == ck.Value {
			t.Fatal("login kept the previous session token")
		}
		old := apptest.Client(t)
		old.Jar.SetCookies(base, []*http.Cookie{{Name: "parking_session", Value: ck.Value}})
		res := webtest.Do(t, old, "GET", a.URL+"/admin/dashboard", nil)
		webtest.WantStatus(t, res, 303)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1`, admin.ID); n != 1 {
			t.Errorf("sessions after re-login = %d, want 1", n)
		}

		// Logout, by POST (the header's button) and by GET (docs/accounts.md#routes: /users/logout).
		for _, method := range []string{"POST", "GET"} {
			webtest.WantStatus(t, webtest.Login(t, cl, a, "admin@example.com", "admin-password", "worker"), 303)
			res := webtest.Do(t, cl, method, a.URL+"/users/logout", nil)
			webtest.WantStatus(t, res, 303)
			if loc := res.Header.Get("Location"); loc != "/users/login" {
				t.Errorf("%s logout Location = %q", method, loc)
			}
			if c := webtest.SessionCookie(res); c == nil || c.MaxAge >= 0 || c.Value != "" {
				t.Errorf("%s logout did not clear the cookie: %v", method, c)
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1`, admin.ID); n != 0 {
				t.Errorf("%s logout left %d sessions", method, n)
			}
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/admin/dashboard", nil), 303)
		}
		// Logout without a session still lands on the login page; JSON clients get JSON.
		webtest.WantStatus(t, webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/logout", nil), 303)
		res = webtest.Do(t, apptest.Client(t), "POST", a.URL+"/users/logout", nil, "Accept: application/json")
		webtest.WantStatus(t, res, 200)
		webtest.WantBody(t, res, `{"message":"Sesión cerrada.","success":true}`)

		// Without a suitable session: browsers are sent to the login page, JSON
		// clients get 401 (docs/accounts.md).
		anon := apptest.Client(t)
		res = webtest.Do(t, anon, "GET", a.URL+"/admin/dashboard", nil, "Accept: text/html")
		webtest.WantStatus(t, res, 303)
		if res.Header.Get("Location") != "/users/login" {
			t.Errorf("Location = %q", res.Header.Get("Location"))
		}
		res = webtest.Do(t, anon, "GET", a.URL+"/admin/dashboard", nil, "Accept: application/json")
		webtest.WantStatus(t, res, 401)
		webtest.WantBody(t, res, `{"message":"Debe iniciar sesión para continuar.","success":false}`)

		// Idle timeout (2 h) and absolute lifetime (24 h), by ageing the stored session.
		for _, c := range []struct{ name, update string }{
			{"idle", `UPDATE web_session SET last_seen_at = $1 WHERE id_customer = $2`},
			{"absolute", `UPDATE web_session SET expires_at = $1 WHERE id_customer = $2`},
		} {
			t.Run(c.name+" expiry", func(t *testing.T) {
				cl := apptest.Client(t)
				webtest.WantStatus(t, webtest.Login(t, cl, a, "admin@example.com", "admin-password", "worker"), 303)
				webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/admin/dashboard", nil, "Accept: application/json"), 200)
				at := apptest.Now(a).Add(-2*time.Hour - time.Minute)
				if c.name == "absolute" {
					at = apptest.Now(a).Add(-time.Second)
				}
				webtest.Exec(t, a, c.update, store.Time(at), admin.ID)
				webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/admin/dashboard", nil, "Accept: application/json"), 401)
				if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1`, admin.ID); n != 0 {
					t.Errorf("expired session still stored (%d)", n)
				}
			})
		}
		// Just inside the idle timeout the session lives, and its idle clock moves.
		t.Run("idle clock", func(t *testing.T) {
			cl := apptest.Client(t)
			webtest.WantStatus(t, webtest.Login(t, cl, a, "admin@example.com", "admin-password", "worker"), 303)
			webtest.Exec(t, a, `UPDATE web_session SET last_seen_at = $1 WHERE id_customer = $2`, store.Time(apptest.Now(a).Add(-2*time.Hour+time.Minute)), admin.ID)
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/admin/dashboard", nil, "Accept: application/json"), 200)
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1 AND last_seen_at > $2`, admin.ID, store.Time(apptest.Now(a).Add(-time.Minute))); n != 1 {
				t.Error("using the session did not move its idle clock")
			}
		})
	})
}

// Under an https base URL the cookie is Secure (docs/accounts.md#sessions).
func TestSessionCookieSecureUnderHTTPS(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.BaseURL = "https://parking.example.com"
		a := apptest.StartWith(t, cfg)
		apptest.Account(t, a, reservation.Registered, "Carlos", "carlos@example.com", "600000001", "customer-password")
		res := webtest.Login(t, apptest.Client(t), a, "carlos@example.com", "customer-password", "customer")
		webtest.WantStatus(t, res, 303)
		ck := webtest.SessionCookie(res)
		if !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
			t.Errorf("cookie flags: Secure=%v HttpOnly=%v SameSite=%v; want all set", ck.Secure, ck.HttpOnly, ck.SameSite)
		}
		if !strings.Contains(res.Header.Get("Set-Cookie"), "; Secure") {
			t.Errorf("Set-Cookie = %q, want Secure", res.Header.Get("Set-Cookie"))
		}
		res = webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/logout", nil)
		if c := webtest.SessionCookie(res); c == nil || !c.Secure {
			t.Errorf("clearing cookie not Secure: %v", c)
		}
	})
}

// Cross-site requests to the cookie routes are refused (docs/errors.md#cross-site-requests): login CSRF,
// logout CSRF, and the session's token endpoint.
func TestCrossOriginRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		adminClient, _ := apptest.Admin(t, a)
		form := url.Values{"email": {"admin@example.com"}, "password": {"admin-password"}, "loginType": {"worker"}}
		for _, c := range []struct {
			name, path string
			headers    []string
		}{
			{"login, foreign Origin", "/users/login", []string{"Origin: https://evil.example"}},
			{"login, cross-site fetch", "/users/login", []string{"Sec-Fetch-Site: cross-site"}},
			{"register, foreign Origin", "/users/register", []string{"Origin: https://evil.example"}},
			{"logout, foreign Origin", "/users/logout", []string{"Origin: https://evil.example"}},
			{"admin api token, foreign Origin", "/admin/api-token", []string{"Origin: https://evil.example"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				res := webtest.PostForm(t, adminClient, a.URL+c.path, form, c.headers...)
				webtest.WantStatus(t, res, 403)
				if webtest.SessionCookie(res) != nil {
					t.Error("refused request touched the session cookie")
				}
			})
		}
		// The admin's session survived the forged logout.
		webtest.WantStatus(t, webtest.Do(t, adminClient, "GET", a.URL+"/admin/dashboard", nil, "Accept: application/json"), 200)
		// The same requests from the site itself pass.
		webtest.WantStatus(t, webtest.PostForm(t, apptest.Client(t), a.URL+"/users/login", form, "Sec-Fetch-Site: same-origin"), 303)
		webtest.WantStatus(t, webtest.PostForm(t, apptest.Client(t), a.URL+"/users/login", form, "Origin: "+a.URL), 303)
	})
}

// Login throttling (issue 3): five failures for one account, then 429 even with the
// right password, with Retry-After and a Spanish message; the JSON variant; the
// token endpoint shares the count.
func TestLoginThrottling(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		apptest.Account(t, a, reservation.Registered, "Carlos", "carlos@example.com", "600000001", "customer-password")
		apptest.Account(t, a, reservation.Registered, "Dora", "dora@example.com", "600000002", "customer-password")
		cl := apptest.Client(t)
		for i := 0; i < 5; i++ {
			webtest.WantStatus(t, webtest.Login(t, cl, a, "carlos@example.com", "wrong-password", "customer"), 401)
		}
		res := webtest.Login(t, cl, a, "carlos@example.com", "customer-password", "customer")
		webtest.WantStatus(t, res, 429)
		if webtest.SessionCookie(res) != nil {
			t.Error("throttled login granted a session")
		}
		if ra := res.Header.Get("Retry-After"); ra != "30" && ra != "29" {
			t.Errorf("Retry-After = %q, want 30 (seconds)", ra)
		}
		if !strings.Contains(res.Body, "Demasiados intentos de acceso fallidos. Por seguridad, espere") {
			t.Errorf("429 page lacks the message:\n%.400s", res.Body)
		}
		res = webtest.PostJSON(t, cl, a.URL+"/users/login", map[string]string{"email": "CARLOS@example.com", "password": "customer-password"})
		webtest.WantStatus(t, res, 429)
		if m := webtest.Decode(t, res); m["success"] != false || !strings.HasPrefix(m["message"].(string), "Demasiados intentos") {
			t.Errorf("JSON 429 body = %s", res.Body)
		}
		res = webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "carlos@example.com", "password": "customer-password"})
		webtest.WantStatus(t, res, 429)
		if m := webtest.Decode(t, res); !strings.HasPrefix(m["error"].(string), "Demasiados intentos") || len(m) != 1 {
			t.Errorf("token 429 body = %s", res.Body)
		}
		// Another account from the same address is not affected.
		webtest.WantStatus(t, webtest.Login(t, cl, a, "dora@example.com", "customer-password", "customer"), 303)
		// Failures through the token endpoint count as well.
		for i := 0; i < 5; i++ {
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/api/auth/token", map[string]string{"email": "dora@example.com", "password": "bad-password"}), 401)
		}
		webtest.WantStatus(t, webtest.Login(t, cl, a, "dora@example.com", "customer-password", "customer"), 429)
		// Nothing identifying is stored: only hashes of the keys.
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM throttle_failure WHERE key_hash LIKE '%@%'`); n != 0 {
			t.Errorf("throttle_failure stores %d clear keys", n)
		}
	})
}

// Registration (docs/accounts.md#the-phone-rule): a REGISTRADO account, logged in, 303 to /users/profile;
// email unique ignoring case, phone unique; a NO-REGISTRADO customer with the same
// phone upgraded in place only when its email is the registration email.
func TestRegister(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		form := func(name, email, phone, pw, confirm string) url.Values {
			return url.Values{"full_name": {name}, "email": {email}, "phone": {phone}, "password": {pw}, "confirmPassword": {confirm}}
		}

		t.Run("success", func(t *testing.T) {
			cl := apptest.Client(t)
			res := webtest.PostForm(t, cl, a.URL+"/users/register", form(" Eva Nueva ", "Eva@Example.com", " 611000111 ", "eva-password", "eva-password"))
			webtest.WantStatus(t, res, 303)
			if loc := res.Header.Get("Location"); loc != "/users/profile" {
				t.Errorf("Location = %q", loc)
			}
			if webtest.SessionCookie(res) == nil {
				t.Fatal("registration did not log in")
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'Eva@Example.com' AND phone = '+34611000111' AND full_name = 'Eva Nueva' AND type = 'REGISTRADO' AND password_hash LIKE '$2%'`); n != 1 {
				t.Errorf("stored account not found as expected (%d)", n)
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session ws JOIN customer c ON c.id_customer = ws.id_customer WHERE c.phone = '+34611000111'`); n != 1 {
				t.Errorf("sessions = %d, want 1", n)
			}
			// The new account logs in with its password; it is no administrator.
			webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "eva@example.com", "eva-password", "customer"), 303)
			webtest.WantStatus(t, webtest.Do(t, cl, "GET", a.URL+"/admin/dashboard", nil, "Accept: application/json"), 401)
		})

		t.Run("JSON", func(t *testing.T) {
			res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]string{
				"full_name": "Juan Json", "email": "juan@example.com", "phone": "611000222", "password": "juan-password", "confirmPassword": "juan-password"})
			webtest.WantStatus(t, res, 201)
			m := webtest.Decode(t, res)
			u := m["user"].(map[string]any)
			if m["success"] != true || m["redirect"] != "/users/profile" || u["role"] != "REGISTRADO" || u["numero"] != "+34611000222" || u["nombre"] != "Juan Json" {
				t.Errorf("body = %s", res.Body)
			}
			if webtest.SessionCookie(res) == nil {
				t.Error("no session cookie")
			}
		})

		t.Run("duplicate email ignoring case", func(t *testing.T) {
			res := webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form("Otra Eva", "  EVA@example.COM", "611000333", "other-password", "other-password"))
			webtest.WantStatus(t, res, 409)
			if !strings.Contains(res.Body, `id="email-error">Ya existe una cuenta con este correo electrónico.`) {
				t.Errorf("no email error in place:\n%s", res.Body)
			}
			if !strings.Contains(res.Body, `value="Otra Eva"`) || !strings.Contains(res.Body, `value="611000333"`) || strings.Contains(res.Body, "other-password") {
				t.Error("form not kept (or password echoed)")
			}
			res = webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]string{
				"full_name": "Otra Eva", "email": "eva@example.com", "phone": "611000333", "password": "other-password", "confirmPassword": "other-password"})
			webtest.WantStatus(t, res, 409)
			webtest.WantBody(t, res, `{"errors":{"email":"Ya existe una cuenta con este correo electrónico. Inicie sesión con ella."},"message":"Ya existe una cuenta con este correo electrónico. Inicie sesión con ella.","success":false}`)
			// The administrator's email is taken too.
			apptest.Account(t, a, reservation.Admin, "Admin", "admin@example.com", "", "admin-password")
			webtest.WantStatus(t, webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form("X", "Admin@example.com", "611000444", "xxxxxxxx", "xxxxxxxx")), 409)
		})

		t.Run("phone of another account", func(t *testing.T) {
			res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]string{
				"full_name": "Intruso", "email": "intruso@example.com", "phone": "611000111", "password": "intruso-pass", "confirmPassword": "intruso-pass"})
			webtest.WantStatus(t, res, 409)
			m := webtest.Decode(t, res)
			if errs := m["errors"].(map[string]any); !strings.Contains(errs["phone"].(string), "póngase en contacto con el aparcamiento") {
				t.Errorf("body = %s", res.Body)
			}
		})

		// Booking-flow customers (NO-REGISTRADO), created by the public booking.
		book := func(phone, email, plate string) int64 {
			t.Helper()
			res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/api/reservations/public-new", map[string]any{
				"full_name": "Reserva Previa", "phone": phone, "email": email, "license_plate": plate, "vehicle_type": "COCHE",
				"entry_date": (clocktest.D("2026-12-01") + "T10:00"), "exit_date": (clocktest.D("2026-12-03") + "T10:00"), "id_main_service": 1})
			webtest.WantStatus(t, res, 201)
			return int64(webtest.Decode(t, res)["data"].(map[string]any)["id_reservation"].(float64))
		}

		t.Run("NO-REGISTRADO upgraded when the email matches", func(t *testing.T) {
			resID := book("622000111", "Pilar@Example.com", "1111AAA")
			var before int64
			if err := a.Store.DB().QueryRow(`SELECT id_customer FROM customer WHERE phone = '+34622000111'`).Scan(&before); err != nil {
				t.Fatal(err)
			}
			cl := apptest.Client(t)
			res := webtest.PostForm(t, cl, a.URL+"/users/register", form("Pilar Registrada", "pilar@example.com", "622000111", "pilar-password", "pilar-password"))
			webtest.WantStatus(t, res, 303)
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE id_customer = $1 AND type = 'REGISTRADO' AND full_name = 'Pilar Registrada' AND email = 'pilar@example.com'`, before); n != 1 {
				t.Error("customer not upgraded in place")
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE phone = '+34622000111'`); n != 1 {
				t.Errorf("customers with that phone = %d, want 1", n)
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND id_customer = $2`, resID, before); n != 1 {
				t.Error("the upgraded account lost its reservation")
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1`, before); n != 1 {
				t.Error("upgraded account not logged in")
			}
		})

		t.Run("NO-REGISTRADO with another email refused", func(t *testing.T) {
			book("622000222", "owner@example.com", "2222BBB")
			res := webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form("Otro", "attacker@example.com", "622000222", "attacker-pw", "attacker-pw"))
			webtest.WantStatus(t, res, 409)
			if webtest.SessionCookie(res) != nil {
				t.Error("refused registration logged in")
			}
			if !strings.Contains(res.Body, `id="phone-error">Este teléfono ya está asociado`) {
				t.Errorf("no phone error in place:\n%.2000s", res.Body)
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE phone = '+34622000222' AND type = 'NO-REGISTRADO' AND email = 'owner@example.com' AND password_hash IS NULL`); n != 1 {
				t.Error("the booking customer was changed")
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'attacker@example.com'`); n != 0 {
				t.Error("refused registration left a row")
			}
		})

		t.Run("NO-REGISTRADO without email refused", func(t *testing.T) {
			book("622000333", "", "3333CCC")
			webtest.WantStatus(t, webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form("Sin Correo", "sin@example.com", "622000333", "sincorreo", "sincorreo")), 409)
		})

		t.Run("invalid input", func(t *testing.T) {
			cases := []struct {
				name   string
				f      url.Values
				field  string
				expect string
			}{
				{"short password", form("A", "a@example.com", "633000111", "1234567", "1234567"), "password", "al menos 8 caracteres"},
				{"confirmation differs", form("A", "a@example.com", "633000111", "12345678", "12345679"), "confirmPassword", "no coinciden"},
				{"bad email", form("A", "not-an-email", "633000111", "12345678", "12345678"), "email", "no es válido"},
				{"no name", form(" ", "a@example.com", "633000111", "12345678", "12345678"), "full_name", "nombre completo"},
				{"no phone", form("A", "a@example.com", "", "12345678", "12345678"), "phone", "Indique su teléfono"},
				{"letters in phone", form("A", "a@example.com", "call me", "12345678", "12345678"), "phone", "no es válido"},
				{"password over 72 bytes", form("A", "a@example.com", "633000111", strings.Repeat("x", 73), strings.Repeat("x", 73)), "password", "72 bytes"},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					res := webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", c.f)
					webtest.WantStatus(t, res, 400)
					if !strings.Contains(res.Body, `id="`+c.field+`-error">`) || !strings.Contains(res.Body, c.expect) {
						t.Errorf("no %s error containing %q:\n%.3000s", c.field, c.expect, res.Body)
					}
				})
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'a@example.com'`); n != 0 {
				t.Error("invalid registration stored a row")
			}
		})

		// Concurrent registrations of one email: the unique index lets exactly one win.
		t.Run("concurrent", func(t *testing.T) {
			const n = 6
			var wg sync.WaitGroup
			statuses := make([]int, n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]string{
						"full_name": "Rápido", "email": "race@example.com", "phone": "64400000" + string(rune('0'+i)),
						"password": "race-password", "confirmPassword": "race-password"})
					statuses[i] = res.StatusCode
				}(i)
			}
			wg.Wait()
			won := 0
			for _, s := range statuses {
				switch s {
				case 201:
					won++
				case 409:
				default:
					t.Errorf("status %d", s)
				}
			}
			if won != 1 || webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE lower(email) = 'race@example.com'`) != 1 {
				t.Errorf("winners = %d (statuses %v), want exactly 1", won, statuses)
			}
		})
	})
}
