package ui_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// langCookie is the lang cookie an answer sets ("" for none).
func langCookie(r webtest.Response) *http.Cookie {
	for _, c := range r.Cookies() {
		if c.Name == "lang" {
			return c
		}
	}
	return nil
}

// wantLang checks a page's language: <html lang>, Content-Language and the Vary
// that tells caches the page depends on Accept-Language and the cookie.
func wantLang(t *testing.T, what string, r webtest.Response, lang string) {
	t.Helper()
	if !strings.Contains(r.Body, `<html lang="`+lang+`">`) {
		t.Errorf("%s: page not marked %s", what, lang)
	}
	if got := r.Header.Get("Content-Language"); got != lang {
		t.Errorf("%s: Content-Language %q, want %q", what, got, lang)
	}
	if !varies(r.Header, "Accept-Language") || !varies(r.Header, "Cookie") {
		t.Errorf("%s: Vary %q, want Accept-Language and Cookie", what, r.Header.Values("Vary"))
	}
}

// The page's language (docs/languages.md#how-the-language-is-chosen): ?lang=
// (which sets the cookie for a year), then the cookie, then Accept-Language, then
// Spanish.
func TestLanguageChoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)

		c := apptest.Client(t)
		res := webtest.Do(t, c, "GET", a.URL+"/?lang=en", nil, "Accept-Language: de")
		webtest.WantStatus(t, res, http.StatusOK)
		wantLang(t, "?lang=en", res, "en")
		ck := langCookie(res)
		if ck == nil || ck.Value != "en" || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.MaxAge != 365*24*3600 {
			t.Errorf("?lang=en cookie: %+v, want lang=en, HttpOnly, SameSite=Lax, Path=/, a year", ck)
		}
		// The cookie beats Accept-Language, on every page, and only ?lang= sets it.
		res = webtest.Do(t, c, "GET", a.URL+"/booking", nil, "Accept-Language: de-AT,de;q=0.9")
		wantLang(t, "cookie en, Accept-Language de", res, "en")
		if langCookie(res) != nil {
			t.Error("a page without ?lang= set the lang cookie")
		}
		res = webtest.Do(t, c, "GET", a.URL+"/users/login?lang=fr", nil)
		wantLang(t, "?lang=fr over cookie en", res, "fr")
		res = webtest.Do(t, c, "GET", a.URL+"/", nil)
		wantLang(t, "cookie now fr", res, "fr")

		for header, want := range map[string]string{
			"de-AT,de;q=0.9,en;q=0.8": "de",
			"en-US,en;q=0.5":          "en",
			"fr-BE":                   "fr",
			"ja,zh;q=0.8":             "es",
			"":                        "es",
		} {
			fresh := apptest.Client(t)
			var h []string
			if header != "" {
				h = append(h, "Accept-Language: "+header)
			}
			res := webtest.Do(t, fresh, "GET", a.URL+"/", nil, h...)
			wantLang(t, "Accept-Language "+header, res, want)
			if langCookie(res) != nil {
				t.Errorf("Accept-Language %q set the lang cookie", header)
			}
		}
		// An unknown ?lang= or cookie is ignored.
		res = webtest.Do(t, apptest.Client(t), "GET", a.URL+"/?lang=xx", nil, "Accept-Language: de", "Cookie: lang=zz")
		wantLang(t, "?lang=xx, cookie zz", res, "de")
		if langCookie(res) != nil {
			t.Error("?lang=xx set the lang cookie")
		}
	})
}

// The public pages, the login and the staff's board in English, German and
// French: translated texts, amounts the language's way, the switcher with the
// current language marked, the hreflang alternates on public pages only, and the
// accessibility statement linked from the footer.
func TestPagesInEachLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		admin, _ := apptest.Admin(t, a)
		pages := []struct {
			path  string
			admin bool
			want  map[string][]string
		}{
			{"/", false, map[string][]string{
				"en": {"Park next to the airport and travel relaxed", "<strong>€5.00</strong> per day", "Stays of 1–3 days: €12.00 per day", "Manage my booking", `>Book</a>`},
				"de": {"Parken Sie direkt am Flughafen und reisen Sie entspannt", "<strong>5,00 €</strong> pro Tag", "Aufenthalte von 1–3 Tage: 12,00 € pro Tag", "Meine Buchung verwalten"},
				"fr": {"Garez-vous à côté de", "<strong>5,00 €</strong> par jour", "Séjours de 1–3 jours : 12,00 € par jour", "Gérer ma réservation"},
			}},
			{"/booking", false, map[string][]string{
				"en": {"Dates of your stay", "Your details and your vehicle", "Review and confirm", "Booking steps"},
				"de": {"Daten Ihres Aufenthalts", "Ihre Angaben und Ihr Fahrzeug", "Prüfen und bestätigen"},
				"fr": {"Dates de votre séjour", "Vos coordonnées et votre véhicule", "Vérifiez et confirmez"},
			}},
			{"/users/login", false, map[string][]string{
				"en": {"Customer sign-in", "Forgot your password?", "<title>Sign in · Airport Parking</title>"},
				"de": {"Anmeldung für Kunden", "Passwort vergessen?", "<title>Anmelden · Flughafenparkplatz</title>"},
				"fr": {"Accès clients", "Mot de passe oublié ?", "<title>Connexion · Parking Aéroport</title>"},
			}},
			{"/reserva", false, map[string][]string{
				"en": {"See my booking", "Phone or email"},
				"de": {"Meine Buchung ansehen", "Telefon oder E-Mail"},
				"fr": {"Voir ma réservation", "Téléphone ou e-mail"},
			}},
			{"/admin/dashboard", true, map[string][]string{
				"en": {"Today&#39;s board", "Arrivals", "Departures", "Overdue departure"},
				"de": {"Tagesübersicht", "Ankünfte", "Abfahrten", "Abfahrt überfällig"},
				"fr": {"Tableau du jour", "Arrivées", "Départs", "Départ dépassé"},
			}},
		}
		names := map[string]string{"en": "English", "de": "Deutsch", "fr": "Français"}
		for _, p := range pages {
			for lang, frags := range p.want {
				c := apptest.Client(t)
				if p.admin {
					c = admin
				}
				res := webtest.Do(t, c, "GET", a.URL+p.path, nil, "Accept-Language: "+lang)
				what := lang + " " + p.path
				webtest.WantStatus(t, res, http.StatusOK)
				wantLang(t, what, res, lang)
				webtest.WantAll(t, what, res.Body, frags...)
				webtest.WantAll(t, what, res.Body,
					`href="?lang=`+lang+`" hreflang="`+lang+`" lang="`+lang+`" aria-current="true">`+names[lang]+`</a>`,
					`href="?lang=es" hreflang="es" lang="es">Español</a>`,
					`<a href="/accesibilidad">`)
				// The alternates are absolute when the service knows its address.
				xDefault := regexp.MustCompile(`<link rel="alternate" hreflang="x-default" href="[^"?]*` + regexp.QuoteMeta(p.path) + `">`)
				if shown := xDefault.MatchString(res.Body); shown == p.admin {
					t.Errorf("%s: x-default alternate shown: %v", what, shown)
				}
				if !p.admin {
					for _, l := range []string{"es", "en", "de", "fr"} {
						alt := regexp.MustCompile(`<link rel="alternate" hreflang="` + l + `" href="[^"?]*` + regexp.QuoteMeta(p.path+"?lang="+l) + `">`)
						if !alt.MatchString(res.Body) {
							t.Errorf("%s: no hreflang %s alternate", what, l)
						}
					}
				} else if strings.Contains(res.Body, `rel="alternate"`) {
					t.Errorf("%s: a staff page lists hreflang alternates", what)
				}
				if strings.Contains(res.Body, "Iniciar sesión") || strings.Contains(res.Body, "Saltar al contenido") {
					t.Errorf("%s: Spanish text left on the page", what)
				}
			}
		}
		// Spanish stays the default: the same pages without any choice.
		res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/", nil)
		wantLang(t, "default", res, "es")
		webtest.WantAll(t, "es /", res.Body, "<strong>5,00 €</strong> al día", `aria-current="true">Español</a>`)
	})
}

// The JSON messages the pages write follow the page's language (cookie,
// Accept-Language), Spanish without either; field names and codes do not change.
func TestJSONMessagesInLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		for lang, want := range map[string]string{
			"":   "Indique su correo electrónico y su contraseña.",
			"en": "Enter your email and your password.",
			"de": "Geben Sie Ihre E-Mail und Ihr Passwort ein.",
			"fr": "Saisissez votre e-mail et votre mot de passe.",
		} {
			h := []string{"Accept: application/json", "Content-Type: application/x-www-form-urlencoded"}
			if lang != "" {
				h = append(h, "Accept-Language: "+lang)
			}
			form := url.Values{"email": {""}, "password": {""}, "loginType": {"customer"}}
			res := webtest.Do(t, apptest.Client(t), "POST", a.URL+"/users/login", strings.NewReader(form.Encode()), h...)
			body := webtest.Decode(t, res)
			if body["success"] != false || body["message"] != want {
				t.Errorf("login without credentials (%q): %d %v, want message %q", lang, res.StatusCode, body, want)
			}
		}
		// The cookie counts too; an unknown page's JSON answer is translated.
		res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/no-such-page", nil, "Accept: application/json", "Cookie: lang=de")
		if body := webtest.Decode(t, res); res.StatusCode != http.StatusNotFound || body["message"] != "Die angeforderte Adresse existiert nicht." {
			t.Errorf("404 in German: %d %v", res.StatusCode, body)
		}
		// An address the API does not have answers in Spanish, with no Content-Language
		// (no page and none of the site's scripts calls it).
		res = webtest.Do(t, apptest.Client(t), "GET", a.URL+"/api/no-such-route", nil, "Accept: application/json", "Accept-Language: en")
		if body := webtest.Decode(t, res); body["message"] != "La dirección solicitada no existe." || res.Header.Get("Content-Language") != "" {
			t.Errorf("API 404 with Accept-Language en: %v, Content-Language %q", body, res.Header.Get("Content-Language"))
		}
	})
}

// The accessibility statement (docs/languages.md#accessibility-statement): the
// WCAG 2.1 AA target, partial conformance, and how to report a problem: the
// facility's email when the settings have one, the terms page otherwise.
func TestAccessibilityPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		want := map[string][]string{
			"es": {"Declaración de accesibilidad", "WCAG", "2.1", "parcialmente conforme"},
			"en": {"Accessibility statement", "WCAG", "partially conformant"},
			"de": {"Erklärung zur Barrierefreiheit", "WCAG", "teilweise"},
			"fr": {"Déclaration d&#39;accessibilité", "WCAG", "partiellement conforme"},
		}
		for lang, frags := range want {
			res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/accesibilidad?lang="+lang, nil)
			webtest.WantStatus(t, res, http.StatusOK)
			webtest.CheckPageLang(t, res, lang)
			webtest.WantAll(t, lang+" /accesibilidad", res.Body, frags...)
			webtest.WantAll(t, lang+" /accesibilidad", res.Body, `data-a11y-contact="page"`, `<a href="/condiciones">`)
		}
		f, err := a.CatalogOps.Facility(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		f.Email = "accesibilidad@parking.example"
		if _, err := a.CatalogOps.SaveFacility(context.Background(), f); err != nil {
			t.Fatal(err)
		}
		res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/accesibilidad", nil)
		webtest.WantAll(t, "with email", res.Body, `data-a11y-contact="email"`, `href="mailto:accesibilidad@parking.example"`)
	})
}

// A refused form shows the field as the form labels it, never its internal name.
func TestPagesNameFieldsByLabel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		form := url.Values{"full_name": {"Ana López"}, "email": {"ana@example.com"}, "phone": {"12"},
			"password": {"una-contraseña-larga"}, "privacy_ack": {"true"}}
		res := webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form, "Accept: text/html", "Origin: "+a.URL)
		if strings.Contains(res.Body, "campo telefono") || strings.Contains(res.Body, "campo phone") {
			t.Errorf("register page names the field by its internal name: %d %s", res.StatusCode, res.Body)
		}
		if !strings.Contains(res.Body, "«Teléfono»") {
			t.Errorf("register page does not name the phone as labelled: %d", res.StatusCode)
		}
	})
}
