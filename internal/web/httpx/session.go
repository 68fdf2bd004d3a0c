package httpx

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"parking/internal/account"
	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
)

// SessionCookie holds the random session token; its hash is what the database keeps.
const SessionCookie = "parking_session"

type userKey struct{}

// sessionReadKey carries a live session's user read before the guards (the
// account's language, Kit.Languages), so that the request reads its session once.
type sessionReadKey struct{}

// WithUser returns a request carrying the session user, who is also the actor the
// audit trail records for every change made under the request (internal/audit):
// the guards call it, so no handler has to remember.
func WithUser(r *http.Request, u account.User) *http.Request {
	ctx := audit.WithActor(context.WithValue(r.Context(), userKey{}, u), u.Actor())
	return r.WithContext(ctx)
}

// CurrentUser returns the session user put on the request by RequireUser or
// RequireAdmin, or looks the session up for pages that work with and without one;
// there, a lookup that fails (the database is down) counts as no session. The
// guards use SessionUser instead, which tells the two apart.
func (s *Kit) CurrentUser(r *http.Request) (account.User, bool) {
	u, ok, err := s.SessionUser(r)
	if err != nil {
		s.log.WarnContext(r.Context(), "session lookup failed", "err", err)
	}
	return u, ok
}

// SessionUser is CurrentUser that reports a failed lookup: (user, true, nil) for a
// live session, (zero, false, nil) for none (no cookie, unknown, expired), and an
// error when the session could not be looked up, which is never "not logged in"
// (docs/reliability.md).
func (s *Kit) SessionUser(r *http.Request) (account.User, bool, error) {
	if u, ok := r.Context().Value(userKey{}).(account.User); ok {
		return u, true, nil
	}
	if u, ok := r.Context().Value(sessionReadKey{}).(account.User); ok {
		return u, true, nil // read by the language choice earlier in this request
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return account.User{}, false, nil
	}
	return s.lookupUser(r, c.Value, s.accounts.SessionUser, account.ErrNoSession)
}

// lookupUser asks lookup, within the request's database deadline, whose secret (a
// session or an API token) this is: (user, true, nil), (zero, false, nil) when
// lookup answers none (the error missing), or the failure.
func (s *Kit) lookupUser(r *http.Request, secret string, lookup func(context.Context, string) (account.User, error),
	missing error) (account.User, bool, error) {
	ctx, cancel := s.dbContext(r)
	defer cancel()
	u, err := lookup(ctx, secret)
	if errors.Is(err, missing) {
		return account.User{}, false, nil
	}
	if err != nil {
		return account.User{}, false, err
	}
	return u, true, nil
}

// DenyUnavailable answers a request whose session or token could not be looked up
// (docs/reliability.md): 503 with Retry-After, never the login page nor a 401. JSON
// clients get {"success": false, "message": …}, browsers the Spanish page.
func (s *Kit) DenyUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	s.FailureStatus(r, err)
	w.Header().Set("Retry-After", RetryAfterUnavailable)
	if WantsJSON(r) || s.errorPage == nil {
		WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"success": false, "message": fault.MsgUnavailable})
		return
	}
	s.errorPage(w, r, http.StatusServiceUnavailable, "Servicio no disponible", fault.MsgUnavailable)
}

// SessionToken returns the raw session token of the request, if any.
func SessionToken(r *http.Request) string {
	if c, err := r.Cookie(SessionCookie); err == nil {
		return c.Value
	}
	return ""
}

// SetSessionCookie sends the session cookie: HttpOnly, SameSite=Lax, Secure when the
// service is served over https (docs/accounts.md#sessions), living as long as the session may.
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

// DenyNoSession answers a request that lacks a suitable session (docs/errors.md#without-a-session;
// docs/accounts.md#sessions): JSON clients get 401, browsers a 303 to the login page.
func DenyNoSession(w http.ResponseWriter, r *http.Request) {
	if WantsJSON(r) {
		WriteJSON(w, http.StatusUnauthorized, map[string]any{"success": false, "message": i18n.T(LangOf(r), "err.httpx.no_session")})

		return
	}
	SeeOther(w, r, "/users/login")
}

// RequireUser guards customer routes: a live session is needed, and state-changing
// requests must come from this site (cross-origin protection, docs/errors.md#cross-site-requests).
func (s *Kit) RequireUser(next http.HandlerFunc) http.Handler {
	return s.crossOrigin.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok, err := s.SessionUser(r)
		if err != nil {
			s.DenyUnavailable(w, r, err)
			return
		}
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
		u, ok, err := s.SessionUser(r)
		if err != nil {
			s.DenyUnavailable(w, r, err)
			return
		}
		if !ok || !u.IsAdmin() {
			DenyNoSession(w, r)
			return
		}
		next(w, WithUser(r, u))
	}))
}

// RequireAdminOrToken is RequireAdmin for a browser, and RequireAdminToken for a
// request that presents a bearer token: an administrator's API client (a counter
// app uploading photos, docs/photos.md#api-tokens). A token's request carries no
// cookie's authority, so the cross-origin check is not needed for it.
func (s *Kit) RequireAdminOrToken(next http.HandlerFunc) http.Handler {
	session, token := s.RequireAdmin(next), s.RequireAdminToken(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if BearerToken(r) != "" {
			token(w, r)
			return
		}
		session.ServeHTTP(w, r)
	})
}

// GuardedUser returns the user that RequireUser or RequireAdmin put on the request
// (the zero User on a route without such a guard).
func GuardedUser(r *http.Request) account.User {
	u, _ := r.Context().Value(userKey{}).(account.User)
	return u
}

// dbContext bounds a guard's lookup by PARKING_DB_TIMEOUT even on the routes
// DBDeadline leaves without a deadline (the live board's stream, the CSV export),
// whose guard still reads the database (docs/reliability.md).
// DBContext is the request's context with the database deadline
// (PARKING_DB_TIMEOUT), for routes exempt from DBDeadline once their slow,
// database-free part is done.
func (s *Kit) DBContext(r *http.Request) (context.Context, context.CancelFunc) { return s.dbContext(r) }

func (s *Kit) dbContext(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), cmp.Or(s.dbTimeout, DefaultDBTimeout))
}
