package ui_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/languages.md#how-the-language-is-chosen, step 3: the language the account
// chose on its profile is the page's when neither ?lang= nor the cookie names one;
// ?lang= sets only the cookie, never the account; an unknown language is a 400
// naming the field.
func TestAccountLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		c, u := apptest.Customer(t, a, "idioma@example.com", "611000777")
		stored := func() string {
			t.Helper()
			var l *string
			if err := a.Store.DB().QueryRow(`SELECT language FROM customer WHERE id_customer = $1`, u.ID).Scan(&l); err != nil {
				t.Fatal(err)
			}
			if l == nil {
				return ""
			}
			return *l
		}
		if l := stored(); l != "" {
			t.Fatalf("a new account has language %q, want none", l)
		}
		res := webtest.Do(t, c, "GET", a.URL+"/users/profile", nil, "Accept-Language: en")
		wantLang(t, "no account language", res, "en")

		status, body := webtest.CustCall(t, c, "PUT", a.URL+"/users/profile/update", map[string]any{"language": "klingon"})
		if status != http.StatusBadRequest || !strings.Contains(body["message"].(string), "language") {
			t.Errorf("unknown language: %d %v", status, body)
		}
		status, body = webtest.CustCall(t, c, "PUT", a.URL+"/users/profile/update", map[string]any{"language": "de"})
		if status != http.StatusOK || stored() != "de" {
			t.Fatalf("language de: %d %v, stored %q", status, body, stored())
		}
		res = webtest.Do(t, c, "GET", a.URL+"/users/profile", nil, "Accept-Language: en")
		wantLang(t, "account de over Accept-Language en", res, "de")
		res = webtest.Do(t, c, "GET", a.URL+"/", nil, "Accept-Language: en")
		wantLang(t, "account de on the home page", res, "de")

		// ?lang= changes the cookie only.
		res = webtest.Do(t, c, "GET", a.URL+"/users/profile?lang=fr", nil)
		wantLang(t, "?lang=fr", res, "fr")
		if l := stored(); l != "de" {
			t.Errorf("?lang=fr changed the account's language to %q", l)
		}
		res = webtest.Do(t, c, "GET", a.URL+"/users/profile", nil)
		wantLang(t, "cookie fr over account de", res, "fr")

		// Other profile changes keep the language.
		status, body = webtest.CustCall(t, c, "PUT", a.URL+"/users/profile/update", map[string]any{"nombre": "Otro Nombre"})
		if status != http.StatusOK || stored() != "de" {
			t.Errorf("name change: %d %v, language %q", status, body, stored())
		}
	})
}

// docs/languages.md#the-bookings-language: staff choose a walk-in customer's
// language (Spanish when they do not); the detail record shows it.
func TestWalkInLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		entry := time.Now().Add(time.Hour).Truncate(time.Hour)
		f := webtest.WalkInFields(1, entry, 2, "")
		f["language"] = "fr"
		id := e.WalkIn(f)
		if l := e.Stored(id).Language; l != "fr" {
			t.Errorf("walk-in with language fr stored %q", l)
		}
		status, _, body := e.Send("GET", "/admin/reservations/details/"+webtest.Itoa(id), "", "", "Accept", "application/json")
		if status != http.StatusOK || !strings.Contains(body, `"language":"fr"`) {
			t.Errorf("detail JSON: %d %s", status, body)
		}
		id = e.WalkIn(webtest.WalkInFields(2, entry, 2, ""))
		if l := e.Stored(id).Language; l != "es" {
			t.Errorf("walk-in without language stored %q, want es", l)
		}
		f = webtest.WalkInFields(3, entry, 2, "")
		f["language"] = "pt"
		status, resp := e.JSON("POST", "/admin/reservations/new", f)
		if status != http.StatusBadRequest || !strings.Contains(resp["message"].(string), "language") {
			t.Errorf("walk-in with language pt: %d %v", status, resp)
		}
	})
}
