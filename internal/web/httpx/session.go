package httpx

import (
	"context"
	"errors"
	"net/http"
	"time"

	"parking/internal/account"
)

// SessionCookie holds the random session token; its hash is what the database keeps.
const SessionCookie = "parking_session"

type userKey struct{}

// WithUser returns a request carrying the session user.
func WithUser(r *http.Request, u account.User) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), userKey{}, u))
}

// CurrentUser returns the session user put on the request by RequireUser or
// RequireAdmin, or looks the session up for pages that work with and without one.
func (s *Kit) CurrentUser(r *http.Request) (account.User, bool) {
	if u, ok := r.Context().Value(userKey{}).(account.User); ok {
		return u, true
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return account.User{}, false
	}
	u, err := s.accounts.SessionUser(r.Context(), c.Value)
	if err != nil {
		if !errors.Is(err, account.ErrNoSession) {
			s.log.ErrorContext(r.Context(), "session lookup failed", "err", err)
		}
		return account.User{}, false
	}
	return u, true
}

// SessionToken returns the raw session token of the request, if any.
func SessionToken(r *http.Request) string {
	if c, err := r.Cookie(SessionCookie); err == nil {
		return c.Value
	}
	return ""
}

// SetSessionCookie sends the session cookie: HttpOnly, SameSite=Lax, Secure when the
// service is served over https (CONTRACT §5), living as long as the session may.
func (s *Kit) SetSessionCookie(w http.ResponseWriter, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: token, Path: "/",
		MaxAge:   int(account.SessionAbsolute / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secure,
	})
}

// ClearSessionCookie removes the session cookie from the browser.
func (s *Kit) ClearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secure,
	})
}

// DenyNoSession answers a request that lacks a suitable session (spec, Authentication 3;
// CONTRACT §5): JSON clients get 401, browsers a 303 to the login page.
func DenyNoSession(w http.ResponseWriter, r *http.Request) {
	if WantsJSON(r) {
		WriteJSON(w, http.StatusUnauthorized, map[string]any{"success": false, "message": "Debe iniciar sesión para continuar."})
		return
	}
	http.Redirect(w, r, "/users/login", http.StatusSeeOther)
}

// RequireUser guards customer routes: a live session is needed, and state-changing
// requests must come from this site (cross-origin protection, CONTRACT §5).
func (s *Kit) RequireUser(next http.HandlerFunc) http.Handler {
	return s.crossOrigin.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := s.CurrentUser(r)
		if !ok {
			DenyNoSession(w, r)
			return
		}
		next(w, WithUser(r, u))
	}))
}

// RequireAdmin guards /admin/*: a live session of an ADMIN account is needed.
func (s *Kit) RequireAdmin(next http.HandlerFunc) http.Handler {
	return s.crossOrigin.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := s.CurrentUser(r)
		if !ok || !u.IsAdmin() {
			DenyNoSession(w, r)
			return
		}
		next(w, WithUser(r, u))
	}))
}

// MustUser returns the user that RequireUser or RequireAdmin put on the request.
func MustUser(r *http.Request) account.User {
	u, _ := r.Context().Value(userKey{}).(account.User)
	return u
}
