package ui

// Pages: server-rendered HTML with html/template, parsed once at start-up.
//
// How a page is added (for whoever builds the next one):
//
//  1. Create internal/web/ui/templates/NAME.html containing one
//     {{define "content"}}…{{end}} block. It is rendered inside layout.html, which
//     provides <head>, the header with the navigation, who is logged in and the
//     logout button, and <main>. Inside the block, "." is a view: .Title, .User
//     (*account.User, nil when anonymous), .Nav, .Path, and .Data, the value the
//     handler passed. Files named _something.html are partials parsed into every
//     page: put {{define "name"}} blocks there that several pages share.
//  2. In the handler call s.render(w, r, http.StatusOK, "NAME.html", "Título", data).
//     The page is rendered into a buffer first, so a template error becomes a clean
//     500, never half a page. A page missing at start-up is a start-up failure
//     (New panics), not a runtime surprise.
//  3. Static files: put them in internal/web/ui/static/. Templates refer to them with
//     {{asset "app.css"}}, which gives /static/app.<hash>.css: the name changes
//     whenever the content does, so they are served with a one-year immutable cache.
//  4. The content security policy (httpx/middleware.go) allows scripts, styles and fetches
//     from this origin only: no inline <script>, no style="…" attributes, no
//     onclick="…". Behaviour goes in static/app.js, keyed on data-* attributes
//     (see the login tabs and the dashboard there); styling in static/app.css.
//  5. Pages answer JSON too when the client prefers it (httpx.WantsJSON, docs/errors.md#json-on-web-routes):
//     branch at the top of the handler and write the same data with httpx.WriteJSON.
//  6. Forms post to the same origin; state-changing routes are wrapped by
//     RequireUser/RequireAdmin or SameOrigin, which refuse cross-site requests.
//     Re-render a form with the values typed (never the password) and the errors
//     next to their fields (see register.html and FieldErrors).
//  7. Text comes from the catalogues (internal/i18n, docs/languages.md), never
//     written in the template: {{t "page.key" "Name" .Value}}; the title passed to
//     render is a key too. Dates for people: {{localDateTime .T}} / {{localDate .T}}
//     in the facility's zone and the page's language; money: {{money .Cents}};
//     for inputs: {{inputDate .T}} (YYYY-MM-DD). A script's texts are keys
//     "js.…", given to it in the page (app.js's T).
//  8. Navigation entries per role are in navFor below.

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/social"
	"parking/internal/web/httpx"
)

//go:embed templates/*.html
var templateFiles embed.FS

// view is what every page template receives as ".".
type view struct {
	Title string
	User  *account.User
	Nav   []navItem
	Path  string
	Data  any
	// SellerMissing: a staff page while the facility settings lack the seller's
	// name, tax id or address (receipts need them); the layout shows a banner.
	SellerMissing bool
	// StaffNav: a staff member's page: the header has the search box (/admin/find)
	// and, on a phone, folds the links into a menu.
	StaffNav bool
	// Lang is the page's language (docs/languages.md); Switch the language
	// switcher's links; Alternates the hreflang alternates of a public page (none
	// on the customer's and staff's pages).
	Lang       string
	Switch     []langLink
	Alternates []langLink
	// JS is the texts the page's scripts show, in Lang, as a JSON object (the
	// body's data-texts; app.js's T reads it).
	JS string
	// Brand names the car park in the header, the title and the footer: the
	// settings' name, else the service's own in Lang.
	Brand string
}

// langLink is the same page in one language.
type langLink struct {
	Lang, Name, Href string
	Current          bool
}

// navItem is one entry of the header navigation.
type navItem struct {
	Href, Label string
	Current     bool
}

// navFor lists the navigation of a visitor, by role, labelled in lang.
func navFor(lang string, u *account.User, current string) []navItem {
	var items []navItem
	switch {
	case u == nil:
		items = []navItem{{Href: "/booking", Label: "nav.book"}, {Href: "/users/login", Label: "nav.login"}, {Href: "/users/register", Label: "nav.register"}}
	case u.IsAdmin():
		items = []navItem{
			{Href: "/admin/dashboard", Label: "nav.dashboard"}, {Href: "/admin/reservations/new", Label: "nav.new"},
			{Href: "/admin/history", Label: "nav.history"}, {Href: "/admin/parking", Label: "nav.parking"},
			{Href: "/admin/catalog", Label: "nav.catalog"}, {Href: "/admin/settings", Label: "nav.settings"},
			{Href: "/admin/staff", Label: "nav.staff"}, {Href: "/admin/audit", Label: "nav.audit"},
			{Href: "/admin/devices", Label: "nav.devices"},
			{Href: "/admin/reports", Label: "nav.reports"}, {Href: "/admin/partners", Label: "nav.partners"},
		}
	default:
		items = []navItem{{Href: "/users/profile", Label: "nav.account"}, {Href: "/booking", Label: "nav.book"}}
	}
	for i := range items {
		items[i].Current = items[i].Href == current
		items[i].Label = i18n.T(lang, items[i].Label)
	}
	return items
}

// pages holds one parsed template set per page.
type pages map[string]*template.Template

// localized is the pages in each language: parsed once per language, with that
// language's t and formatting functions; Spanish at start-up (so a broken
// template fails it), the others on their first page. The map is filled at
// start-up and only read afterwards; each language parses under its own Once.
type localized struct {
	funcs func(lang string) template.FuncMap
	langs map[string]*langPages
}

// langPages is one language's pages, parsed on first use.
type langPages struct {
	once sync.Once
	set  pages
	err  error
}

func newLocalized(funcs func(lang string) template.FuncMap) (*localized, error) {
	l := &localized{funcs: funcs, langs: map[string]*langPages{}}
	for _, lang := range i18n.Languages {
		l.langs[lang] = &langPages{}
	}
	if err := i18n.Check(); err != nil {
		return nil, err
	}
	if _, err := l.in(i18n.Default); err != nil {
		return nil, err
	}
	return l, nil
}

// in is the pages in lang (Spanish for a language we do not speak).
func (l *localized) in(lang string) (pages, error) {
	p, ok := l.langs[lang]
	if !ok {
		lang, p = i18n.Default, l.langs[i18n.Default]
	}
	p.once.Do(func() { p.set, p.err = parsePages(lang, l.funcs(lang)) })
	return p.set, p.err
}

// parsePages parses layout.html and the partials with each page, in lang.
func parsePages(lang string, funcs template.FuncMap) (pages, error) {
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	base := template.New("layout.html").Funcs(funcs)
	for _, n := range names {
		if name := path.Base(n); name == "layout.html" || strings.HasPrefix(name, "_") {
			if err := parseIn(base, lang, n); err != nil {
				return nil, fmt.Errorf("parse layout: %w", err)
			}
		}
	}
	out := pages{}
	for _, n := range names {
		name := path.Base(n)
		if name == "layout.html" || strings.HasPrefix(name, "_") {
			continue
		}
		t := template.Must(base.Clone())
		if err := parseIn(t, lang, n); err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		if t.Lookup("content") == nil {
			return nil, fmt.Errorf("template %s defines no \"content\" block", name)
		}
		out[name] = t
	}
	return out, nil
}

// fixedText is a catalogue text without placeholders in a template, {{t "key"}}.
var fixedText = regexp.MustCompile(`\{\{t "([a-z0-9_.]+)"\}\}`)

// parseIn parses the template file n into set (named by its base name, as
// ParseFS names it) with its fixed texts written in, in lang and escaped for
// HTML: a page is some 700 such texts, and calling the catalogue for each on every
// request made the home page several times slower (docs/performance.md#pages-in-four-languages).
// Only the texts with placeholders stay calls of t.
func parseIn(set *template.Template, lang, n string) error {
	src, err := fs.ReadFile(templateFiles, n)
	if err != nil {
		return err
	}
	text := fixedText.ReplaceAllStringFunc(string(src), func(call string) string {
		t := i18n.T(lang, fixedText.FindStringSubmatch(call)[1])
		if strings.Contains(t, "{{") || strings.Contains(t, "<no value>") {
			return call // a text with placeholders, called without them: leave it to t
		}
		return html.EscapeString(t)
	})
	t := set
	if name := path.Base(n); name != set.Name() {
		t = set.New(name)
	}
	_, err = t.Parse(text)
	return err
}

// templateFuncs are the helpers every template may call, for pages in lang.
func (s *base) templateFuncs(lang string) template.FuncMap {
	return template.FuncMap{
		// t is a text of the catalogue (internal/i18n) with its placeholders as
		// name, value pairs: {{t "booking.total" "Amount" .Total}}.
		"t": func(key string, args ...any) string { return i18n.T(lang, key, args...) },
		// doc is a text of a receipt or entry document, whose language is the
		// booking's, not the page's: Spanish, and docLang beside it when it is
		// another ({{doc $d.Lang "common.total"}}: "Total / Total";
		// docs/languages.md#receipts-and-the-entry-document).
		"doc": func(docLang, key string, args ...any) string { return i18n.Both(docLang, key, args...) },
		// status names a reservation's status (the code stays in classes and data).
		"status": func(code any) string {
			key := statusKey + fmt.Sprint(code)
			if t := i18n.T(lang, key); t != key {
				return t
			}
			return fmt.Sprint(code)
		},
		// money, number and decimal write amounts the language's way.
		"money":   func(c money.Cents) string { return i18n.Money(lang, c) },
		"number":  func(n int) string { return i18n.Number(lang, int64(n)) },
		"decimal": func(s string) string { return i18n.Decimal(lang, s) },
		"percent": input.PercentText, // a partner's commission (docs/partners.md#for-staff)
		"asset":   s.assets.url,
		// limit is a docs/input-rules.md#length-limits length limit by name, so that the pages' maxlength
		// attributes and the server's checks come from one place (internal/input).
		"limit": func(name string) (int, error) {
			if n, ok := inputLimits[name]; ok {
				return n, nil
			}
			return 0, fmt.Errorf("no input limit %q", name)
		},
		"localDateTime": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return i18n.DateTime(lang, t.In(s.cfg.Location))
		},
		"localDate": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return i18n.Date(lang, t.In(s.cfg.Location))
		},
		"inputDate": func(t time.Time) string { return t.In(s.cfg.Location).Format("2006-01-02") },
		"isoTime":   func(t time.Time) string { return localtime.JSON(t, s.cfg.Location) },
		// field looks up a field's error in a FieldErrors map ("" if none).
		// The message names fields as the forms label them (fields.go).
		"field": func(errs account.FieldErrors, name string) string {
			if errs[name] == nil {
				return ""
			}
			return fault.MessageIn(errs[name], lang, "error.internal")
		},

		// consentView is the data of the "privacyConsent" block (_privacy_consent.html);
		// purpose is the catalogue key of what the data is for.
		"consentView": func(errMsg string, marketing bool, purpose string) consentBlock {
			return consentBlock{Error: errMsg, Marketing: marketing, Purpose: purpose}
		},
		// socialProviders are the buttons "Continuar con <proveedor>" (accounts_social.go).
		"socialProviders": func() []social.ProviderConfig { return s.social.List() },
	}
}

// render writes page name (a file in templates/) with the layout, status and title.
func (s *base) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) {
	lang := s.Lang(r)
	set, err := s.pages.in(lang)
	if err != nil {
		s.log.ErrorContext(r.Context(), "parse pages", "lang", lang, "err", err)
		http.Error(w, i18n.T(lang, "error.internal"), http.StatusInternalServerError)
		return
	}
	t, ok := set[name]
	if !ok {
		s.log.ErrorContext(r.Context(), "unknown page template", "template", name)
		http.Error(w, i18n.T(lang, "error.internal"), http.StatusInternalServerError)
		return
	}
	v := view{Title: i18n.T(lang, title), Path: r.URL.Path, Data: data, Lang: lang, JS: jsTexts(lang, adminScript(name))}
	if u, ok := s.CurrentUser(r); ok {
		v.User = &u
	}
	v.Nav = navFor(lang, v.User, r.URL.Path)
	v.StaffNav = v.User != nil && v.User.IsAdmin()
	v.Brand = s.brand(r.Context(), lang)
	v.Switch, v.Alternates = s.languageLinks(r, status, lang)
	if v.User != nil && v.User.IsAdmin() && strings.HasPrefix(r.URL.Path, "/admin") {
		f, err := s.catalogOps.Facility(r.Context())
		v.SellerMissing = err == nil && len(f.SellerMissing()) > 0
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		s.log.ErrorContext(r.Context(), "render page", "template", name, "err", err)
		http.Error(w, i18n.T(lang, "error.internal"), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Pages carry personal data: never stored by shared caches or the back button's cache.
	h.Set("Cache-Control", "no-store")
	httpx.WriteBody(w, r, status, buf.Bytes(), nil)
}

// statusKey prefixes a reservation status's name in the catalogues (shared with
// the scripts, app.js's status).
const statusKey = "js.status."

// adminScript reports whether page name loads admin.js (its head is
// {{template "adminHead"}}, _admin.html) or shows the day's board (app.js): the
// staff's pages and the receipt, entry document and error pages they share with
// customers.
func adminScript(name string) bool {
	return strings.HasPrefix(name, "admin_") || name == "receipt.html" || name == "entry_document.html" || name == "error.html"
}

// jsTexts are the texts a page's scripts show, in lang, as a JSON object (keys
// "js.…" without the prefix); the texts of admin.js and of the day's board
// (js.admin., js.app.) only on the pages that load admin.js. Computed once per
// language and kind of page.
func jsTexts(lang string, staff bool) string {
	jsTextsOnce.Do(func() {
		jsTextsJSON = map[string][2]string{}
		for _, l := range i18n.Languages {
			all := i18n.Prefixed(l, "js.")
			public := map[string]string{}
			for k, v := range all {
				if !strings.HasPrefix(k, "admin.") && !strings.HasPrefix(k, "app.") {
					public[k] = v
				}
			}
			pub, _ := json.Marshal(public)
			adm, _ := json.Marshal(all)
			jsTextsJSON[l] = [2]string{string(pub), string(adm)}
		}
	})
	texts, ok := jsTextsJSON[lang]
	if !ok {
		texts = jsTextsJSON[i18n.Default]
	}
	if staff {
		return texts[1]
	}
	return texts[0]
}

var (
	jsTextsOnce sync.Once
	jsTextsJSON map[string][2]string
)

// inputLimits are the limits the templates ask for by name ({{limit "name"}}).
var inputLimits = map[string]int{
	"name": input.MaxName, "email": input.MaxEmail, "phone": input.MaxPhone, "plate": input.MaxPlate,
	"text": input.MaxText, "notes": input.MaxNotes, "spot": input.MaxSpot,
	"photo_description": input.MaxPhotoDescription, "search": input.MaxSearch,
}
