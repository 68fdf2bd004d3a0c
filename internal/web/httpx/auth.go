package httpx

import (
	"net/http"
	"strings"

	"parking/internal/account"
)

// BearerToken returns the token of an "Authorization: Bearer <token>" header (the
// scheme is case-insensitive, RFC 9110), or "" when there is none.
func BearerToken(r *http.Request) string {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// TokenUser returns the user of the request's bearer token, if it is a live one; a
// lookup that fails counts as none (the guard uses lookupToken, which tells).
func (s *Kit) TokenUser(r *http.Request) (account.User, bool) {
	u, ok, err := s.lookupToken(r)
	if err != nil {
		s.log.WarnContext(r.Context(), "api token lookup failed", "err", err)
	}
	return u, ok
}

// lookupToken is TokenUser reporting a failed lookup as an error.
func (s *Kit) lookupToken(r *http.Request) (account.User, bool, error) {
	token := BearerToken(r)
	if token == "" {
		return account.User{}, false, nil
	}
	return s.lookupUser(r, token, s.accounts.TokenUser, account.ErrNoToken)
}

// msgUnauthorized and msgAdminRequired are the bodies of the token API's refusals
// (docs/errors.md#refusals-by-operation).
const (
	MsgUnauthorized  = "Unauthorized"
	MsgAdminRequired = "Forbidden: admin access required"
)

// DenyToken answers a request without a live bearer token: 401 {"error":"Unauthorized"}.
func DenyToken(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="parking"`)
	WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": MsgUnauthorized})
}

// RequireAdminToken guards the JSON API of administrators (docs/accounts.md#api-tokens):
// a missing, unknown, expired or revoked token is 401; a live token of an account
// that is not ADMIN is 403. Bearer requests carry no cookies' authority, so they
// need no cross-origin check (docs/errors.md#cross-site-requests).
func (s *Kit) RequireAdminToken(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, ok, err := s.lookupToken(r)
		if err != nil { // never a 401 (docs/reliability.md)
			s.WriteErrorField(w, r, err)
			return
		}
		if !ok {
			DenyToken(w)
			return
		}
		if !u.IsAdmin() {
			WriteJSON(w, http.StatusForbidden, map[string]string{"error": MsgAdminRequired})
			return
		}
		next(w, WithUser(r, u))
	}
}

// Viewer is the caller: the bearer token's user when the request presents one, the
// session's otherwise. A request with neither an Authorization nor a Cookie header
// (an anonymous price quote) has nothing to look up: only a guard's user is read.
func (s *Kit) Viewer(r *http.Request) (account.User, bool) {
	if len(r.Header["Authorization"]) == 0 && len(r.Header["Cookie"]) == 0 {
		u, ok := r.Context().Value(userKey{}).(account.User)
		return u, ok
	}
	if BearerToken(r) != "" {
		return s.TokenUser(r)
	}
	return s.CurrentUser(r)
}

// ViewerIsAdmin reports whether the request comes from an administrator: a bearer
// token when the request presents one, the session otherwise.
func (s *Kit) ViewerIsAdmin(r *http.Request) bool {
	u, ok := s.Viewer(r)
	return ok && u.IsAdmin()
}
