package ui

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"time"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/social"
	"parking/internal/web/httpx"
)

// Social login (docs/social-login.md): the buttons
// "Continuar con <proveedor>" on the login and registration pages start an OpenID
// Connect authorization code flow with PKCE, state and nonce.
//
//	GET  /users/oidc/{provider}/start     → 303 to the provider
//	GET  /users/oidc/{provider}/callback  → session and 303 home, or the login page with the refusal
//	GET  /users/oidc/link                 → "Vincular": the existing account's password
//	POST /users/oidc/link                 → linked, session, 303 home
//
// The state is also kept in a cookie of the browser that started the login, so a
// callback carried to another browser (login CSRF) is refused; the login in
// progress itself is in the database (account.BeginSocialLogin), for any instance.

const (
	oidcStateCookie = "parking_oidc_state"
	oidcLinkCookie  = "parking_oidc_link"
	oidcCookiePath  = "/users/oidc/"
)

// Messages of the social-login pages.
const (
	msgSocialUnknown     = "msg.social_unknown"
	msgSocialUnreachable = "msg.social_unreachable"
	msgSocialRejected    = "msg.social_rejected"
	msgSocialCancelled   = "msg.social_cancelled"
	msgSocialMisconfig   = "msg.social_misconfig"
)

func (s accountPages) setOIDCCookie(w http.ResponseWriter, name, value string, ttl time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: oidcCookiePath, MaxAge: int(ttl / time.Second),
		// Lax: the provider's redirect back is a top-level GET, which carries it.
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(s.cfg.BaseURL, "https://"),
	})
}

func (s accountPages) clearOIDCCookie(w http.ResponseWriter, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: oidcCookiePath, MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(s.cfg.BaseURL, "https://")})
}

// socialLoginFailed shows a refusal on the login page with its status.
func (s accountPages) socialLoginFailed(w http.ResponseWriter, r *http.Request, err error) {
	status := s.FailureStatus(r, err)
	httpx.SetRetryAfter(w, err) // throttled: when to try again
	s.render(w, r, status, "login.html", "title.login", loginView{
		LoginType: loginTypeCustomer, Error: s.failText(r, err),
	})
}

// socialMisconfigured answers a provider whose configuration does not match it
// (social.ErrMisconfigured): an error in the log naming the mismatch for the
// operator, and the login page saying that this way in does not work, as a 500
// (the service's own configuration is at fault; trying again cannot help).
func (s accountPages) socialMisconfigured(w http.ResponseWriter, r *http.Request, p social.ProviderConfig, err error) {
	s.log.ErrorContext(r.Context(), "social login provider misconfigured: fix PARKING_OIDC_*", "provider", p.ID, "issuer", p.Issuer, "err", err)
	s.render(w, r, http.StatusInternalServerError, "login.html", "title.login", loginView{
		LoginType: loginTypeCustomer, Error: s.T(r, msgSocialMisconfig, "Provider", p.Name),
	})
}

// oidcStart is GET /users/oidc/{provider}/start.
func (s accountPages) oidcStart(w http.ResponseWriter, r *http.Request) {
	p, ok := s.social.Lookup(r.PathValue("provider"))
	if !ok {
		s.ErrorPage(w, r, http.StatusNotFound, "error.provider_unavailable", msgSocialUnknown)
		return
	}
	req, err := s.social.Begin(r.Context(), p)
	if errors.Is(err, social.ErrMisconfigured) {
		s.socialMisconfigured(w, r, p, err)
		return
	}
	if err != nil {
		s.log.WarnContext(r.Context(), "social login provider unreachable", "provider", p.ID, "err", err)
		s.socialLoginFailed(w, r, fault.Coded(fault.Unavailable, msgSocialUnreachable, "Provider", p.Name))
		return
	}
	if err := s.accounts.BeginSocialLogin(r.Context(), req.State, account.LoginState{
		Provider: p.ID, Nonce: req.Nonce, Verifier: req.Verifier,
	}); err != nil {
		s.socialLoginFailed(w, r, err)
		return
	}
	s.setOIDCCookie(w, oidcStateCookie, req.State, account.SocialStateTTL)
	http.Redirect(w, r, req.URL, http.StatusSeeOther) // the provider's own address, from its discovery document
}

// oidcCallback is GET /users/oidc/{provider}/callback: the provider's answer.
func (s accountPages) oidcCallback(w http.ResponseWriter, r *http.Request) {
	p, ok := s.social.Lookup(r.PathValue("provider"))
	if !ok {
		s.ErrorPage(w, r, http.StatusNotFound, "error.provider_unavailable", msgSocialUnknown)
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	cookie := ""
	if c, err := r.Cookie(oidcStateCookie); err == nil {
		cookie = c.Value
	}
	s.clearOIDCCookie(w, oidcStateCookie)
	// The login in progress is used up whatever happens next: a state is good once.
	ls, err := s.accounts.TakeSocialLogin(r.Context(), p.ID, state)
	if err != nil {
		s.socialLoginFailed(w, r, err)
		return
	}
	if cookie == "" || subtle.ConstantTimeCompare([]byte(cookie), []byte(state)) != 1 {
		s.log.InfoContext(r.Context(), "social login refused: state not from this browser", "provider", p.ID)
		s.socialLoginFailed(w, r, account.ErrSocialStateInvalid)
		return
	}
	if q.Get("error") != "" || q.Get("code") == "" {
		s.socialLoginFailed(w, r, fault.Coded(fault.Invalid, msgSocialCancelled, "Provider", p.Name))
		return
	}
	id, err := s.social.Finish(r.Context(), p, q.Get("code"), ls.Verifier, ls.Nonce)
	if errors.Is(err, social.ErrMisconfigured) {
		s.socialMisconfigured(w, r, p, err)
		return
	}
	if err != nil {
		s.log.InfoContext(r.Context(), "social login refused", "provider", p.ID, "err", err)
		if errors.Is(err, social.ErrUnreachable) {
			s.socialLoginFailed(w, r, fault.Coded(fault.Unavailable, msgSocialUnreachable, "Provider", p.Name))
			return
		}
		s.socialLoginFailed(w, r, fault.Coded(fault.Invalid, msgSocialRejected, "Provider", p.Name))
		return
	}
	out, err := s.accounts.SocialLogin(r.Context(), account.SocialIdentity{
		Provider: p.ID, ProviderName: p.Name, Subject: id.Subject, Email: id.Email,
		EmailVerified: id.EmailVerified, Name: id.Name,
	})
	if err != nil {
		s.socialLoginFailed(w, r, err)
		return
	}
	if out.LinkToken != "" {
		s.setOIDCCookie(w, oidcLinkCookie, out.LinkToken, account.SocialLinkTTL)
		httpx.SeeOther(w, r, "/users/oidc/link")
		return
	}
	if err := s.startSession(w, r, out.User); err != nil {
		s.socialLoginFailed(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "social login", "id_customer", out.User.ID, "provider", p.ID, "created", out.Created)
	httpx.SeeOther(w, r, homeOf(out.User))
}

// linkView is the data of social_link.html.
type linkView struct {
	Email string
	Error string
}

func linkToken(r *http.Request) string {
	if c, err := r.Cookie(oidcLinkCookie); err == nil {
		return c.Value
	}
	return ""
}

// oidcLinkPage is GET /users/oidc/link: an existing account has the provider's
// verified email; the person proves it is theirs with its password.
func (s accountPages) oidcLinkPage(w http.ResponseWriter, r *http.Request) {
	email, err := s.accounts.PendingLinkEmail(r.Context(), linkToken(r))
	if err != nil {
		s.socialLoginFailed(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "social_link.html", "title.link", linkView{Email: email})
}

// oidcLink is POST /users/oidc/link.
func (s accountPages) oidcLink(w http.ResponseWriter, r *http.Request) {
	token := linkToken(r)
	email, err := s.accounts.PendingLinkEmail(r.Context(), token)
	if err != nil {
		s.socialLoginFailed(w, r, err)
		return
	}
	f, err := readForm(w, r, "password")
	if err == nil {
		var u account.User
		if u, err = s.accounts.LinkSocial(r.Context(), token, f["password"], r.RemoteAddr); err == nil {
			s.clearOIDCCookie(w, oidcLinkCookie)
			if err = s.startSession(w, r, u); err == nil {
				httpx.SeeOther(w, r, homeOf(u))
				return
			}
		}
	}
	status := s.FailureStatus(r, err)
	httpx.SetRetryAfter(w, err) // throttled: when to try again
	s.render(w, r, status, "social_link.html", "title.link", linkView{Email: email, Error: s.failText(r, err)})
}

// oidcRefused answers a start beyond PARKING_PUBLIC_RATE (docs/public-booking.md#limits-on-anonymous-traffic).
func (s accountPages) oidcRefused(w http.ResponseWriter, r *http.Request, err error) {
	s.socialLoginFailed(w, r, err)
}
