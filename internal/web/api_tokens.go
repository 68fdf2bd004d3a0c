package web

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/localtime"
)

// tokenResponse is CONTRACT §5's token body.
type tokenResponse struct {
	Token     string `json:"token"`
	TokenType string `json:"token_type"`
	ExpiresAt string `json:"expires_at"`
	Role      string `json:"role"`
}

func (s *Server) writeToken(w http.ResponseWriter, t account.Token) {
	writeJSON(w, http.StatusOK, tokenResponse{
		Token: t.Token, TokenType: "Bearer",
		ExpiresAt: localtime.JSON(t.ExpiresAt, s.cfg.Location), Role: string(t.User.Role),
	})
}

// setRetryAfter tells a throttled client how long to wait (RFC 9110 Retry-After).
func setRetryAfter(w http.ResponseWriter, err error) {
	var th *account.ThrottledError
	if errors.As(err, &th) {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(th.RetryAfter.Seconds()))))
	}
}

// apiIssueToken is POST /api/auth/token (CONTRACT §5): {email, password} → 200
// {token, token_type, expires_at, role}; wrong credentials 401 {"error":"Unauthorized"};
// throttled like the login page (429 {error}, Retry-After).
func (s *Server) apiIssueToken(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		s.writeErrorField(w, r, err)
		return
	}
	if strings.TrimSpace(req.Email) == "" || req.Password == "" {
		s.writeErrorField(w, r, fault.Invalidf("email and password are required."))
		return
	}
	u, err := s.accounts.Login(r.Context(), req.Email, req.Password, r.RemoteAddr)
	switch {
	case fault.KindOf(err) == fault.Unauthorized:
		denyToken(w)
		return
	case fault.KindOf(err) == fault.TooMany:
		setRetryAfter(w, err)
		s.writeErrorField(w, r, err)
		return
	case err != nil:
		s.writeErrorField(w, r, err)
		return
	}
	t, err := s.accounts.IssueToken(r.Context(), u, s.cfg.TokenTTL)
	if err != nil {
		s.writeErrorField(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "api token issued", "id_customer", u.ID, "role", string(u.Role))
	s.writeToken(w, t)
}

// apiRevokeToken is DELETE /api/auth/token: revokes the presented token, 204; a
// missing or dead token is 401.
func (s *Server) apiRevokeToken(w http.ResponseWriter, r *http.Request) {
	err := s.accounts.RevokeToken(r.Context(), bearerToken(r))
	if errors.Is(err, account.ErrNoToken) {
		denyToken(w)
		return
	}
	if err != nil {
		s.writeErrorField(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// adminAPIToken is POST /admin/api-token (session ADMIN): a token for the
// dashboard page, bound to the session (CONTRACT §5: the dashboard obtains its
// token through its session); logout revokes it.
func (s *Server) adminAPIToken(w http.ResponseWriter, r *http.Request) {
	t, err := s.accounts.IssueSessionToken(r.Context(), sessionToken(r), s.cfg.TokenTTL)
	if errors.Is(err, account.ErrNoSession) {
		denyNoSession(w, r)
		return
	}
	if err != nil {
		s.writeErrorField(w, r, err)
		return
	}
	s.writeToken(w, t)
}
