package ui_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"parking/internal/clock/clocktest"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// GET / (exactly): welcome, services from the catalog with their lowest daily
// price, and a quick quote form that opens /booking with entrada and salida.
func TestHomePage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		anon := apptest.Client(t)
		res := webtest.Do(t, anon, "GET", a.URL+"/", nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		webtest.WantAll(t, "home", res.Body,
			`<form class="card quick-quote" method="get" action="/booking" data-quick-quote`,
			`<label for="entrada">`, `<input id="entrada" name="entrada" type="datetime-local" required`,
			`<label for="salida">`, `<input id="salida" name="salida" type="datetime-local" required`,
			`<h3>ECO</h3>`, `desde <strong>5,00 €</strong> al día a partir de 16 días</p>`, "Estancias de 1–3 días: 12,00 € al día",
			`<h3>TRANSFER</h3>`, `desde <strong>8,00 €</strong> al día a partir de 16 días</p>`,
			`<h3>MEET</h3>`, `desde <strong>11,00 €</strong> al día a partir de 16 días</p>`, `<a class="btn btn-primary" href="/booking">Reservar ahora</a>`,
			`<a class="brand" href="/">`, `<li><a href="/booking">Reservar</a></li>`, `href="/users/login">Ya tengo cuenta</a>`,
			// Search engines and link previews show this summary of the service.
			`<meta name="description" content="Reserve su plaza en el parking del aeropuerto en línea`,
		)
		if !regexp.MustCompile(`<link rel="stylesheet" href="/static/customer\.[0-9a-f]{12}\.css">`).MatchString(res.Body) ||
			!regexp.MustCompile(`<script src="/static/customer\.[0-9a-f]{12}\.js" defer></script>`).MatchString(res.Body) {
			t.Error("home does not load the customer pages' stylesheet and script by hashed name")
		}
		// Only the exact root is the home page.
		if res := webtest.Do(t, anon, "GET", a.URL+"/nothing-here", nil); res.StatusCode != 404 {
			t.Errorf("GET /nothing-here = %d, want 404", res.StatusCode)
		}
		// A logged-in customer is not offered the login link.
		cust, _ := apptest.Customer(t, a, "c@example.com", "655000111")
		res = webtest.Do(t, cust, "GET", a.URL+"/", nil)
		if strings.Contains(res.Body, "Ya tengo cuenta") {
			t.Error("logged-in home offers the login link")
		}
		webtest.WantAll(t, "customer home", res.Body, `<li><a href="/users/profile">Mi cuenta</a></li>`, `<li><a href="/booking">Reservar</a></li>`)
	})
}

// The home page's "desde X al día" is a price a stay of any length can have, or
// says from how many days: with ECO's cheapest band starting at 4 days it reads
// "desde 8,00 € al día a partir de 4 días" and gives the short stay's price; with
// TRANSFER's first band the cheapest, a bare "desde 7,00 € al día".
func TestHomePagePriceFrom(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		// ECO: 1–3 12 €, 4–10 8 €, 11–15 and 16+ 9 €. TRANSFER: 1–3 7 €, then 11, 9, 8.
		for _, c := range []struct {
			rate  int
			price string
		}{{3, "9"}, {4, "9"}, {5, "7"}} {
			if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/catalog/rates/%d", c.rate), map[string]any{"daily_price": c.price}); st != 200 {
				t.Fatalf("rate %d: %d %v", c.rate, st, b)
			}
		}
		anon := apptest.Client(t)
		res := webtest.Do(t, anon, "GET", e.A.URL+"/", nil)
		webtest.WantStatus(t, res, 200)
		card := func(name string) string {
			_, after, _ := strings.Cut(res.Body, "<h3>"+name+"</h3>")
			before, _, _ := strings.Cut(after, "</li>")
			return before
		}
		webtest.WantAll(t, "ECO card", card("ECO"), `<p class="from">desde <strong>8,00 €</strong> al día a partir de 4 días</p>`,
			`<p class="muted from-short">Estancias de 1–3 días: 12,00 € al día</p>`)
		webtest.WantAll(t, "TRANSFER card", card("TRANSFER"), `<p class="from">desde <strong>7,00 €</strong> al día</p>`)
		if strings.Contains(card("TRANSFER"), "a partir de") || strings.Contains(card("TRANSFER"), "from-short") {
			t.Errorf("TRANSFER's first band is its cheapest: %s", card("TRANSFER"))
		}
		res = webtest.Do(t, anon, "GET", e.A.URL+"/booking", nil)
		webtest.WantAll(t, "booking", res.Body, `<span class="service-from">desde 8,00 €/día a partir de 4 días</span>`,
			`<span class="service-from">desde 7,00 €/día</span>`)
	})
}

// GET /booking: the three steps, the offer, the dates from entrada/salida (read
// in the facility's zone, unreadable ones ignored with a notice), and a customer's
// own details and vehicles.
func TestBookingPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		anon := apptest.Client(t)
		res := webtest.Do(t, anon, "GET", a.URL+"/booking", nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		webtest.WantAll(t, "booking", res.Body,
			`data-booking data-now="`+apptest.Now(a).In(webtest.Madrid).Format("2006-01-02T15:04")+`"`, `data-quote-type="TURISMO"`, `data-quote-label="Turismo"`,
			`data-step="1"`, `data-step="2"`, `data-step="3"`, `data-step="done"`,
			`<label for="entry_date">Entrada</label>`, `<input id="entry_date" name="entry_date" type="datetime-local" required`,
			`<label for="exit_date">Salida</label>`, `value="" aria-describedby="dates-error">`,
			`<input type="radio" name="id_main_service" value="1" data-name="ECO" required>`,
			`<input type="radio" name="id_main_service" value="2" data-name="TRANSFER" required>`,
			`<span class="band"><span>1–3 días</span> <strong>12,00 €</strong></span>`,
			`<span class="band"><span>16 días o más</span> <strong>5,00 €</strong></span>`,
			`<input type="checkbox" name="additional_services" value="1" data-name="Lavado básico">`,
			`<span class="extra-price">100,00 €</span>`,
			`<label for="full_name">Nombre y apellidos</label>`, `<label for="phone">Teléfono</label>`,
			`<label for="license_plate">Matrícula</label>`, `autocapitalize="characters"`,
			`<option value="TURISMO">Turismo</option>`, `<option value="SUV">SUV / todoterreno (tarifa ×1,25)</option>`,
			`<option value="MOTOCICLETA">Motocicleta (tarifa ×0,5)</option>`,
			`<label for="brand">Marca`, `<label for="model">Modelo`, `<label for="email">Correo electrónico`,
			`data-price data-state="idle" aria-live="polite"`, `<button type="submit" class="btn btn-primary" data-next>Continuar</button>`,
			`<a href="/booking" aria-current="page">Reservar</a>`, `href="/reserva" data-done-manage>Gestionar mi reserva</a>`,
		)
		if strings.Contains(res.Body, "alert-warn") {
			t.Error("notice without a bad date")
		}

		// Dates from the link: datetime-local kept; an instant with an offset shown
		// in the facility's zone (Europe/Madrid: 10:30 in December, UTC+1).
		madridTZ, _ := time.LoadLocation("Europe/Madrid")
		exitUTC, _ := time.Parse(time.RFC3339, clocktest.D("2026-12-04")+"T09:30:00Z")
		res = webtest.Do(t, anon, "GET", a.URL+("/booking?entrada="+clocktest.D("2026-12-01")+"T10:00&salida="+clocktest.D("2026-12-04")+"T09:30:00Z"), nil)
		webtest.WantStatus(t, res, 200)
		webtest.WantAll(t, "prefilled booking", res.Body, (`value="` + clocktest.D("2026-12-01") + `T10:00" aria-describedby="dates-error">`), (`value="` + exitUTC.In(madridTZ).Format("2006-01-02T15:04") + `" aria-describedby="dates-error">`))
		res = webtest.Do(t, anon, "GET", a.URL+("/booking?entrada="+clocktest.D("2026-12-01")+"T10:00&salida=el+martes"), nil)
		webtest.WantStatus(t, res, 200)
		webtest.WantAll(t, "booking with a bad date", res.Body, (`value="` + clocktest.D("2026-12-01") + `T10:00" aria-describedby="dates-error">`),
			`<p class="alert alert-warn" role="status">La fecha indicada en el enlace no es válida; elíjala de nuevo.</p>`)

		// A customer: name, phone and email filled in; their vehicles offered.
		cust, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		webtest.CustBook(t, a, "600000001", "1111AAA", "SUV", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, nil)
		res = webtest.Do(t, cust, "GET", a.URL+"/booking", nil)
		webtest.WantStatus(t, res, 200)
		webtest.WantAll(t, "customer booking", res.Body,
			`data-quote-label="Turismo" data-customer`,
			`id="full_name" name="full_name" type="text" autocomplete="name" required maxlength="100" value="Cliente 600000001"`,
			`value="&#43;34600000001"`, `value="ana@example.com"`,
			`<button type="button" class="chip" data-pick-vehicle data-plate="1111AAA" data-type="SUV" data-brand="Desconocida" data-model="Desconocido">1111AAA</button>`,
			`<a class="btn" href="/users/profile">Ver mis reservas</a>`,
		)
		// An administrator books walk-ins elsewhere: nothing of theirs is filled in.
		admin, _ := apptest.Admin(t, a)
		res = webtest.Do(t, admin, "GET", a.URL+"/booking", nil)
		webtest.WantStatus(t, res, 200)
		if strings.Contains(res.Body, `value="admin@example.com"`) || strings.Contains(res.Body, "data-customer") {
			t.Error("the booking page is filled in with the administrator's details")
		}
	})
}

// GET /users/profile answers the page to browsers and the docs/errors.md#json-on-web-routes JSON to
// clients that prefer JSON; the page shows each state's allowed actions.
func TestProfilePage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		pending := webtest.CustBook(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-12-01") + "T10:00"), (clocktest.D("2026-12-04") + "T10:00"), 1, []int{2})
		inCourse := webtest.CustBook(t, a, "600000001", "2222BBB", "SUV", (clocktest.D("2026-12-20") + "T10:00"), (clocktest.D("2026-12-22") + "T10:00"), 2, nil)
		webtest.CustSetStatus(t, a, inCourse, reservation.InCourse)
		done := webtest.CustBookPast(t, a, "600000001", "1111AAA", "COCHE", (clocktest.D("2026-10-01") + "T10:00"), (clocktest.D("2026-10-02") + "T10:00"), 1, nil)
		webtest.CustSetStatus(t, a, done, reservation.Finalized)

		for _, accept := range []string{"", "*/*", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"} {
			headers := []string{}
			if accept != "" {
				headers = append(headers, "Accept: "+accept)
			}
			res := webtest.Do(t, ana, "GET", a.URL+"/users/profile", nil, headers...)
			webtest.WantStatus(t, res, 200)
			webtest.CheckPage(t, res)
		}
		res := webtest.Do(t, ana, "GET", a.URL+"/users/profile", nil, "Accept: text/html")
		body := res.Body
		webtest.WantAll(t, "profile", body,
			`<a href="/users/profile" aria-current="page">Mi cuenta</a>`, `data-profile`,
			`id="nombre" name="nombre" type="text" autocomplete="name" required maxlength="100" value="Cliente 600000001"`,
			`value="ana@example.com"`, `value="&#43;34600000001"`, `data-account-form="password" data-url="/users/profile/password"`,
			`<span class="plate-badge">2222BBB</span> <span class="muted">· SUV / todoterreno</span>`,
			`<h3 id="res-`+webtest.Itoa(pending)+`-title">Reserva nº `+webtest.Itoa(pending)+` <span class="res-ref" data-res="reference">· `+reference(t, a, pending)+`</span></h3>`,
			(`<dd data-res="entry">` + clocktest.ES("01/12/2026") + ` 10:00</dd>`), `<dd data-res="extras">Lavado interior</dd>`, `<dd data-res="total">61,00 €</dd>`,
			`data-vehicle-type="COCHE"`, (`name="entry_date" type="datetime-local" required value="` + clocktest.D("2026-12-01") + `T10:00">`),
			`<option value="1" data-name="ECO" selected>ECO</option>`,
			`<input type="checkbox" name="additional_services" value="2" data-name="Lavado interior" checked>`,
			`<dialog class="dialog" data-cancel-dialog`,
		)
		// Each list holds its reservations; each card its state's actions.
		active, past, _ := strings.Cut(body[strings.Index(body, `data-list="active"`):], `data-list="past"`)
		for _, id := range []int64{pending, inCourse} {
			if !strings.Contains(active, `data-reservation="`+webtest.Itoa(id)+`"`) {
				t.Errorf("reservation %d not in the active list", id)
			}
		}
		if !strings.Contains(past, `data-reservation="`+webtest.Itoa(done)+`"`) || strings.Contains(active, `data-reservation="`+webtest.Itoa(done)+`"`) {
			t.Errorf("reservation %d not (only) in the history", done)
		}
		card := func(id int64) string {
			i := strings.Index(body, `data-reservation="`+webtest.Itoa(id)+`"`)
			j := strings.Index(body[i:], "</article>")
			return body[i : i+j]
		}
		if c := card(pending); !strings.Contains(c, "data-cancel>") || !strings.Contains(c, "data-edit-toggle") || strings.Contains(c, "readonly") {
			t.Errorf("PENDIENTE card: want cancel, edit and an editable entry: %s", c)
		}
		// Spec: EN CURSO: entry date not editable, no cancel; exit and services editable.
		c := card(inCourse)
		if strings.Contains(c, "data-cancel>") || !strings.Contains(c, "data-edit-toggle") {
			t.Errorf("EN CURSO card: want edit without cancel: %s", c)
		}
		webtest.WantAll(t, "EN CURSO card", c, (`value="`+clocktest.D("2026-12-20")+`T10:00" readonly aria-describedby="edit-`)+webtest.Itoa(inCourse)+`-entry-hint">`,
			`pill pill-EN-CURSO`, `<div><dt>Plaza</dt><dd>A-1</dd></div>`, (`name="exit_date" type="datetime-local" required value="` + clocktest.D("2026-12-22") + `T10:00"`))
		if c := card(done); strings.Contains(c, "data-cancel") || strings.Contains(c, "data-edit") || !strings.Contains(c, "Pagada (TARJETA)") {
			t.Errorf("FINALIZADA card: want no actions and the payment: %s", c)
		}

		// JSON clients still get the data.
		status, j := webtest.CustCall(t, ana, "GET", a.URL+"/users/profile", nil)
		if status != 200 || len(j["active_reservations"].([]any)) != 2 {
			t.Errorf("JSON profile: %d %v", status, j)
		}
		// Browsers without a session go to the login page.
		res = webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/profile", nil, "Accept: text/html")
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/users/login" {
			t.Errorf("no session: %d %s", res.StatusCode, res.Header.Get("Location"))
		}

		// An account from a social login has no password to change.
		bob, _ := apptest.Customer(t, a, "bob@example.com", "600000002")
		webtest.Exec(t, a, `UPDATE customer SET password_hash = 'SOCIAL_LOGIN_google_1' WHERE email = 'bob@example.com'`)
		res = webtest.Do(t, bob, "GET", a.URL+"/users/profile", nil)
		webtest.WantStatus(t, res, 200)
		if strings.Contains(res.Body, `data-account-form="password"`) || !strings.Contains(res.Body, "no tiene contraseña propia") {
			t.Error("a social-login account is offered the password form")
		}
		webtest.WantAll(t, "empty profile", res.Body, `<p class="empty-state" data-empty="active">No tiene reservas activas.`,
			`Sus vehículos aparecerán aquí`)
	})
}

// Each page, with everything it loads, stays under 100 KB transferred (the
// issue's budget); nothing is loaded from another origin. Pages and static files
// go gzip-compressed to clients that accept it, and plain to the others. The
// profile is that of a customer with 3 active reservations and 40 past ones.
func TestPageWeight(t *testing.T) {
	a := apptest.Start(t, store.SQLite)
	cust, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
	for i := range 43 {
		id := webtest.CustBookPast(t, a, "600000001", "1111AAA", "COCHE", fmt.Sprintf("2026-%02d-%02dT10:00", 1+i%12, 1+i%25), fmt.Sprintf("2026-%02d-%02dT10:00", 1+i%12, 3+i%25), 1+i%3, []int{1, 2})
		if i >= 3 {
			webtest.CustSetStatus(t, a, id, reservation.Finalized)
		}
	}
	cookies := cust.Jar
	get := func(u string, gzip bool) (*http.Response, []byte) {
		t.Helper()
		c := &http.Client{Jar: cookies, Transport: &http.Transport{DisableCompression: true}}
		req, _ := http.NewRequest("GET", u, nil)
		if gzip {
			req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", u, res.StatusCode)
		}
		return res, b
	}
	assets := regexp.MustCompile(`(?:href|src)="([^"#]+\.(?:css|js|svg|png|woff2?))"`)
	for _, p := range []string{"/", "/booking", "/users/profile"} {
		res, plain := get(a.URL+p, false)
		if res.Header.Get("Content-Encoding") != "" || !strings.Contains(string(plain), "</html>") {
			t.Errorf("%s without Accept-Encoding: encoding %q", p, res.Header.Get("Content-Encoding"))
		}
		raw, sent := len(plain), 0
		res, body := get(a.URL+p, true)
		if res.Header.Get("Content-Encoding") != "gzip" || !varies(res.Header, "Accept-Encoding") {
			t.Errorf("%s: Content-Encoding %q, Vary %q", p, res.Header.Get("Content-Encoding"), res.Header.Values("Vary"))
		}
		sent += len(body)
		for _, m := range assets.FindAllStringSubmatch(string(plain), -1) {
			if !strings.HasPrefix(m[1], "/static/") {
				t.Errorf("%s loads %s from elsewhere", p, m[1])
				continue
			}
			_, b := get(a.URL+m[1], false)
			raw += len(b)
			_, gz := get(a.URL+m[1], true)
			sent += len(gz)
		}
		t.Logf("%s: %d bytes transferred with its files (%d uncompressed; page alone %d)", p, sent, raw, len(plain))
		if sent > 100<<10 {
			t.Errorf("%s transfers %d bytes with its files, over 100 KB", p, sent)
		}
	}
}

// reference is reservation id's booking reference as shown (K7Q2-M9XD).
func reference(t *testing.T, a *app.App, id int64) string {
	t.Helper()
	var ref string
	if err := a.Store.DB().QueryRow(`SELECT reference FROM reservation WHERE id_reservation = $1`, id).Scan(&ref); err != nil || len(ref) != 8 {
		t.Fatalf("reference of %d: %q %v", id, ref, err)
	}
	return ref[:4] + "-" + ref[4:]
}

// varies reports whether a Vary header of h names field (pages also vary by
// language: docs/languages.md).
func varies(h http.Header, field string) bool {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), field) {
				return true
			}
		}
	}
	return false
}
