package ui_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The refusals of the operations reach the pages and the pages' JSON in the
// reader's language, fields named as the forms label them; a client naming no
// language gets the spec's Spanish (docs/languages.md#messages-as-codes).

// A registration's field errors: next to their fields on the page, and in the
// JSON's errors map, in the page's language.
func TestCodedRegistrationErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		form := url.Values{"full_name": {"Eve"}, "email": {"eve@example.com"}, "phone": {"12"}, "password": {"short"}, "confirmPassword": {"short"}}
		for _, c := range []struct{ lang, password, phone string }{
			{"en", "The password must have at least 8 characters.", `The phone number "12" («Phone») is not valid`},
			{"de", "Das Passwort muss mindestens 8 Zeichen lang sein.", `Die Telefonnummer „12“ («Telefon») ist ungültig`},
			{"fr", "Le mot de passe doit comporter au moins 8 caractères.", `Le numéro de téléphone « 12 » («Téléphone») n’est pas valide`},
		} {
			res := webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register?lang="+c.lang, form)
			webtest.WantStatus(t, res, http.StatusBadRequest)
			webtest.WantAll(t, c.lang+" page", res.Body,
				`id="password-error">`+html.EscapeString(c.password), `id="phone-error">`+html.EscapeString(c.phone))

			res = webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]string{
				"full_name": "Eve", "email": "eve@example.com", "phone": "12", "password": "short", "confirmPassword": "short"},
				"Accept-Language: "+c.lang)
			webtest.WantStatus(t, res, http.StatusBadRequest)
			errs, _ := webtest.Decode(t, res)["errors"].(map[string]any)
			if errs["password"] != c.password || !strings.HasPrefix(errs["phone"].(string), c.phone) {
				t.Errorf("%s JSON errors: %s", c.lang, res.Body)
			}
		}
		// No language named: the spec's Spanish, the field as the API names it.
		res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]string{
			"full_name": "Eve", "email": "eve@example.com", "phone": "12", "password": "short", "confirmPassword": "short"})
		errs, _ := webtest.Decode(t, res)["errors"].(map[string]any)
		if errs["password"] != "La contraseña debe tener al menos 8 caracteres." || !strings.HasPrefix(errs["phone"].(string), `El teléfono "12" (campo phone) no es válido`) {
			t.Errorf("Spanish JSON errors: %s", res.Body)
		}
	})
}

// A refused login: the login page and its JSON say it in the page's language; a
// client that names none gets Spanish.
func TestCodedLoginRefusal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		phones := map[string]string{"en": "611222331", "de": "611222332", "fr": "611222333"}
		for lang, want := range map[string]string{
			"en": "Incorrect email address or password.",
			"de": "E-Mail-Adresse oder Passwort ist falsch.",
			"fr": "Adresse e-mail ou mot de passe incorrect.",
		} {
			// One account a language, so that the failures stay below the throttle's.
			email := "lola-" + lang + "@example.com"
			apptest.Account(t, a, reservation.Registered, "Lola", email, phones[lang], "lola-password")
			res := webtest.Login(t, apptest.Client(t), a, email, "wrong-password", "customer", "Accept-Language: "+lang)
			webtest.WantStatus(t, res, http.StatusUnauthorized)
			webtest.CheckPageLang(t, res, lang)
			webtest.WantAll(t, lang+" login page", res.Body, html.EscapeString(want))

			res = webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/login?lang="+lang,
				map[string]string{"email": email, "password": "wrong-password"})
			webtest.WantStatus(t, res, http.StatusUnauthorized)
			if got := webtest.Decode(t, res)["message"]; got != want {
				t.Errorf("%s login JSON: %q, want %q", lang, got, want)
			}
		}
		// A client naming no language: the spec's Spanish.
		res := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/login",
			map[string]string{"email": "lola-en@example.com", "password": "wrong-password"})
		if got := webtest.Decode(t, res)["message"]; got != "Correo electrónico o contraseña incorrectos." {
			t.Errorf("login JSON without a language: %q", got)
		}
	})
}

// A catalog refusal (an unknown rate, a refused coefficient) in the staff's
// language on the catalog routes and page; the quote API's refusal in the language
// its client names, Spanish without one.
func TestCodedCatalogRefusal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		for lang, want := range map[string]string{
			"en": "The rate 999 does not exist.",
			"de": "Der Tarif 999 existiert nicht.",
			"fr": "Le tarif 999 n'existe pas.",
		} {
			status, _, body := e.Send("PATCH", "/admin/catalog/rates/999", "application/json", `{"daily_price": 1}`,
				"Accept", "application/json", "Accept-Language", lang)
			if status != http.StatusNotFound || !strings.Contains(body, `"message":"`+want+`"`) {
				t.Errorf("%s: %d %s, want %q", lang, status, body, want)
			}
		}
		// The page: a refused coefficient comes back in the page's language.
		status, loc, _ := e.Send("POST", "/admin/catalog/vehicle-types?lang=de", "application/x-www-form-urlencoded",
			url.Values{"vehicle_type": {"FURGONETA"}, "coefficient": {"0"}}.Encode(), "Accept", "text/html")
		if status != http.StatusSeeOther || !strings.Contains(loc, url.QueryEscape("Der Koeffizient muss größer als 0 sein")) {
			t.Errorf("catalog page post: %d %s", status, loc)
		}
		// The API the booking page's script calls speaks the language the client names,
		// and the spec's Spanish to a client that names none.
		quote := map[string]any{"entry_date": "2026-12-01T10:00", "exit_date": "2026-12-03T10:00", "id_main_service": 1}
		res := webtest.PostJSON(t, apptest.Client(t), e.A.URL+"/api/pricing/dynamic", quote)
		webtest.WantStatus(t, res, http.StatusBadRequest)
		if got := webtest.Decode(t, res)["message"]; got != "El tipo de vehículo es obligatorio." {
			t.Errorf("API message %q, want the Spanish", got)
		}
		res = webtest.PostJSON(t, apptest.Client(t), e.A.URL+"/api/pricing/dynamic", quote, "Accept-Language: en")
		webtest.WantStatus(t, res, http.StatusBadRequest)
		if got := webtest.Decode(t, res)["message"]; got == "El tipo de vehículo es obligatorio." || got == "" {
			t.Errorf("API message with Accept-Language en: %q, want English", got)
		}
	})
}
