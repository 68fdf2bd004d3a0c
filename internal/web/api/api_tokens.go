package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/localtime"
	"parking/internal/web/httpx"
)

// tokenResponse is the token body (docs/accounts.md#api-tokens).
type tokenResponse struct {
	Token     string `json:"token"`
	TokenType string `json:"token_type"`
	ExpiresAt string `json:"expires_at"`
	Role      string `json:"role"`
}

// WriteToken writes an issued token as the token body (docs/accounts.md#api-tokens) (also the answer of the
// dashboard's POST /admin/api-token, internal/web/ui).
func WriteToken(w http.ResponseWriter, t account.Token, loc *time.Location) {
	httpx.WriteJSON(w, http.StatusOK, tokenResponse{
		Token: t.Token, TokenType: "Bearer",
		ExpiresAt: localtime.JSON(t.ExpiresAt, loc), Role: string(t.User.Role),
	})
}

// apiIssueToken is POST /api/auth/token (docs/accounts.md#api-tokens): {email, password} → 200
// {token, token_type, expires_at, role}; wrong credentials 401 {"error":"Unauthorized"};
// throttled like the login page (429 {error}, Retry-After).
func (s *Server) apiIssueToken(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	if strings.TrimSpace(req.Email) == "" || req.Password == "" {
		s.WriteErrorField(w, r, fault.Invalidf("email and password are required."))
		return
	}
	u, err := s.accounts.Login(r.Context(), req.Email, req.Password, httpx.ClientAddr(r))
	switch {
	case fault.KindOf(err) == fault.Unauthorized:
		httpx.DenyToken(w)
		return
	case fault.KindOf(err) == fault.TooMany:
		httpx.SetRetryAfter(w, err)
		s.WriteErrorField(w, r, err)
		return
	case err != nil:
		s.WriteErrorField(w, r, err)
		return
	}
	t, err := s.accounts.IssueToken(r.Context(), u, s.cfg.TokenTTL)
	if err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "api token issued", "id_customer", u.ID, "role", string(u.Role))
	WriteToken(w, t, s.cfg.Location)
}

// apiRevokeToken is DELETE /api/auth/token: revokes the presented token, 204; a
// missing or dead token is 401.
func (s *Server) apiRevokeToken(w http.ResponseWriter, r *http.Request) {
	err := s.accounts.RevokeToken(r.Context(), httpx.BearerToken(r))
	if errors.Is(err, account.ErrNoToken) {
		httpx.DenyToken(w)
		return
	}
	if err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
