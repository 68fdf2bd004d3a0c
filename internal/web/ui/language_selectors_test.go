package ui_test

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The walk-in form chooses the customer's language and the profile the account's,
// each with a labelled selector listing the four languages by their own names;
// the detail page shows the booking's language by its name
// (docs/languages.md#the-bookings-language).
func TestLanguageSelectors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		options := func(selected string) []string {
			out := []string{}
			for _, o := range []struct{ code, name string }{{"es", "Español"}, {"en", "English"}, {"de", "Deutsch"}, {"fr", "Français"}} {
				sel := ""
				if o.code == selected {
					sel = " selected"
				}
				out = append(out, `<option value="`+o.code+`" lang="`+o.code+`"`+sel+`>`+o.name+`</option>`)
			}
			return out
		}

		// The walk-in: Spanish unless chosen; a refused form keeps the choice.
		page := e.Page("/admin/reservations/new")
		webtest.WantStatus(t, page, 200)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "walk-in form", page.Body, append(options("es"),
			`<label for="language">Idioma del cliente</label>`, `<select id="language" name="language" aria-describedby="language-error">`)...)
		entry := time.Now().Add(time.Hour).Truncate(time.Hour)
		form := url.Values{"phone": {"611000333"}, "full_name": {"Hans Müller"}, "license_plate": {"3333KKK"}, "vehicle_type": {"COCHE"},
			"id_main_service": {"1"}, "entry_date": {entry.In(webtest.Madrid).Format("2006-01-02T15:04")}, "language": {"de"}}
		bad := url.Values{"language": {"fr"}}
		for k, v := range form {
			if k != "phone" && k != "language" {
				bad[k] = v
			}
		}
		status, _, body := e.Form("/admin/reservations/new", bad)
		if status != http.StatusBadRequest {
			t.Errorf("walk-in without phone: %d", status)
		}
		webtest.WantAll(t, "refused walk-in", body, options("fr")...)
		status, location, _ := e.Form("/admin/reservations/new", form)
		if status != http.StatusSeeOther || !strings.HasPrefix(location, "/admin/reservations/details/") {
			t.Fatalf("walk-in form: %d %q", status, location)
		}
		detail := strings.SplitN(location, "?", 2)[0]
		id := strings.TrimPrefix(detail, "/admin/reservations/details/")
		var lang string
		if err := e.A.Store.DB().QueryRow(`SELECT language FROM reservation WHERE id_reservation = $1`, id).Scan(&lang); err != nil || lang != "de" {
			t.Errorf("walk-in form with language de stored %q (%v)", lang, err)
		}
		page = e.Page(detail)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "detail page", page.Body, `<dt>Idioma de la reserva</dt><dd data-fact="language" lang="de">Deutsch</dd>`)

		// The profile: none chosen, then French.
		c, _ := apptest.Customer(t, e.A, "idioma@example.com", "611000444")
		res := webtest.Do(t, c, "GET", e.A.URL+"/users/profile", nil)
		webtest.WantStatus(t, res, 200)
		webtest.CheckPage(t, res)
		webtest.WantAll(t, "profile", res.Body, append(options(""), `<label for="language">Idioma de la cuenta</label>`,
			`<option value="" selected>Sin elegir (según el navegador)</option>`)...)
		if st, b := webtest.CustCall(t, c, "PUT", e.A.URL+"/users/profile/update", map[string]any{"language": "fr"}); st != 200 {
			t.Fatalf("profile language fr: %d %v", st, b)
		}
		res = webtest.Do(t, c, "GET", e.A.URL+"/users/profile", nil)
		webtest.WantAll(t, "profile in French", res.Body, append(options("fr"), `<label for="language">Langue du compte</label>`)...)
	})
}

// The pages' scripts send the selectors' language with the walk-in and the
// profile.
func TestScriptsSendLanguage(t *testing.T) {
	for file, want := range map[string]string{
		"static/admin.js":   "language: f.language.value",
		"static/profile.js": "profile: ['nombre', 'email', 'telefono', 'language']",
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not send the language (%q)", file, want)
		}
	}
}
