package httpx

import (
	"context"
	"net/http"
	"strings"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/i18n"
)

// The page's language (docs/languages.md#how-the-language-is-chosen): the first of
// ?lang= (which also sets the lang cookie for a year), the lang cookie, the
// signed-in account's language, the best match of Accept-Language, Spanish.

// LangCookie is the cookie that remembers a language picked with ?lang=.
const LangCookie = "lang"

// langCookieAge is how long a picked language is remembered: a year.
const langCookieAge = 365 * 24 * 60 * 60

type langKey struct{}

// Languages chooses each page's language, remembers one picked with ?lang= in the
// lang cookie, and names it in Content-Language; Vary tells caches that the answer
// depends on Accept-Language and the cookie. The API (/api/...) and static files
// keep their own answers.
func (s *Kit) Languages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if isAPI(r) || strings.HasPrefix(p, "/static/") || p == "/healthz" || p == "/readyz" || p == "/metrics" {
			next.ServeHTTP(w, r)
			return
		}
		if q := r.URL.Query().Get("lang"); i18n.Supported(q) {
			http.SetCookie(w, &http.Cookie{
				Name: LangCookie, Value: q, Path: "/", MaxAge: langCookieAge,
				HttpOnly: true, SameSite: http.SameSiteLaxMode,
			})
		}
		if u, ok := s.sessionRead(r); ok {
			// The account's language reads the session: the choice below, the
			// guards and the pages use that reading instead of reading it again.
			r = r.WithContext(context.WithValue(r.Context(), sessionReadKey{}, u))
		}
		lang := s.chooseLanguage(r)
		h := w.Header()
		h.Set("Content-Language", lang)
		h.Add("Vary", "Accept-Language, Cookie")
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), langKey{}, lang)))
	})
}

// chooseLanguage is the language of r, in the order above.
func (s *Kit) chooseLanguage(r *http.Request) string {
	if q := r.URL.Query().Get("lang"); i18n.Supported(q) {
		return q
	}
	return s.RequestLanguage(r)
}

// AccountLanguage is the signed-in account's language (its profile field), "" when
// there is no session or the account chose none. The middleware runs before the
// guards, so the session is read here (one read, and only for a request that sends a
// session cookie but neither ?lang= nor the lang cookie); the session user carries the
// account's language (docs/languages.md#how-the-language-is-chosen).
func (s *Kit) AccountLanguage(r *http.Request) string {
	u, _ := s.sessionRead(r)
	return u.Language
}

// sessionRead is the session's user for the language choice, read once per request:
// a request that already carries a reading (sessionReadKey) or a guard's user is not
// read again; only a live session is kept.
func (s *Kit) sessionRead(r *http.Request) (account.User, bool) {
	if SessionToken(r) == "" || s.accounts == nil {
		return account.User{}, false
	}
	if c, err := r.Cookie(LangCookie); (err == nil && i18n.Supported(c.Value)) || i18n.Supported(r.URL.Query().Get("lang")) {
		return account.User{}, false // the language is chosen before the account's
	}
	return s.CurrentUser(r)
}

// RequestLanguage is the language of a booking that names none
// (docs/languages.md#the-bookings-language): the page's choice above without ?lang=,
// so the booking page's script, posting to the API with the browser's cookies, gets
// the page's language, and an API client the best match of its Accept-Language.
func (s *Kit) RequestLanguage(r *http.Request) string {
	if c, err := r.Cookie(LangCookie); err == nil && i18n.Supported(c.Value) {
		return c.Value
	}
	if l := s.AccountLanguage(r); i18n.Supported(l) {
		return l
	}
	if l := i18n.Match(r.Header.Get("Accept-Language")); l != "" {
		return l
	}
	return i18n.Default
}

// languageNamed reports whether r names a language we speak in any of the ways the
// choice above reads.
func (s *Kit) languageNamed(r *http.Request) bool {
	if i18n.Supported(r.URL.Query().Get("lang")) || i18n.Match(r.Header.Get("Accept-Language")) != "" {
		return true
	}
	if c, err := r.Cookie(LangCookie); err == nil && i18n.Supported(c.Value) {
		return true
	}
	return i18n.Supported(s.AccountLanguage(r))
}

// Lang is the language chosen for r (Languages); a request that did not pass
// through Languages gets it chosen on the spot, except the API's, which speaks
// Spanish.
func (s *Kit) Lang(r *http.Request) string {
	if l, ok := r.Context().Value(langKey{}).(string); ok {
		return l
	}
	if isAPI(r) {
		return i18n.Default
	}
	return s.chooseLanguage(r)
}

// langOf is the language Languages chose for r, Spanish when none was (the API).
func langOf(r *http.Request) string {
	if l, ok := r.Context().Value(langKey{}).(string); ok {
		return l
	}
	return i18n.Default
}

func isAPI(r *http.Request) bool {
	return r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/")
}

// GenericMessage is msg in lang when it is one of the generic messages written
// here (an internal error, a service unavailable); any other message, written by
// an operation, is returned as it is (docs/languages.md#what-remains).
func GenericMessage(lang, msg string) string {
	switch msg {
	case MsgInternalES:
		return i18n.T(lang, "error.internal")
	case fault.MsgUnavailable:
		return i18n.T(lang, "error.service_unavailable")
	}
	return msg
}

// LangOf is the language Languages chose for r, Spanish when none was: for
// helpers without the kit at hand.
func LangOf(r *http.Request) string { return langOf(r) }
