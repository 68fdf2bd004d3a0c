package ui

import (
	"errors"
	"mime"
	"net/http"
	"strings"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/web/httpx"
)

// Login, registration and logout (docs/accounts.md#sessions). Browsers
// post forms and get pages and 303s; a client that posts JSON or prefers JSON
// (Accept) gets JSON bodies with the same statuses, and 200 (login) or 201
// (registration) with {"success":true,…,"redirect"} where a browser gets a 303.

// Messages of the login page.
const (
	msgLoginMissing   = "msg.login_missing"
	msgWorkerDenied   = "msg.worker_denied"
	msgBadLoginType   = "msg.bad_login_type"
	loginTypeCustomer = "customer"
	loginTypeWorker   = "worker"
)

// homeOf is where a user goes after logging in (docs/accounts.md#refusals).
func homeOf(u account.User) string {
	if u.IsAdmin() {
		return "/admin/dashboard"
	}
	return "/users/profile"
}

// sessionUserJSON is the session user of the spec (Authentication 5).
type sessionUserJSON struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
	Email  string `json:"email"`
	Numero string `json:"numero"`
	Role   string `json:"role"`
}

func userJSON(u account.User) sessionUserJSON {
	return sessionUserJSON{ID: u.ID, Nombre: u.Nombre, Email: u.Email, Numero: u.Numero, Role: string(u.Role)}
}

// postsJSON reports whether the request body is JSON.
func postsJSON(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/json"
}

// jsonClient: answer in JSON when the client sent JSON or prefers it.
func jsonClient(r *http.Request) bool { return postsJSON(r) || httpx.WantsJSON(r) }

// readForm reads the named text fields of a login or registration post (a form, or
// JSON from a script) through the one request reader, httpx.ReadInput; a field not
// sent is "".
func readForm(w http.ResponseWriter, r *http.Request, names ...string) (map[string]string, error) {
	in, err := httpx.ReadInput(w, r)
	if err != nil {
		return nil, err
	}
	texts, err := in.Texts(names...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(names))
	for n, v := range texts {
		out[n] = *v
	}
	return out, nil
}

// startSession renews the session at login and registration (docs/accounts.md#sessions): the
// session the request came with, if any, is ended (and its API tokens revoked), and
// a new one with a fresh token is started.
func (s accountPages) startSession(w http.ResponseWriter, r *http.Request, u account.User) error {
	if old := httpx.SessionToken(r); old != "" {
		if err := s.accounts.EndSession(r.Context(), old); err != nil {
			return err
		}
	}
	token, err := s.accounts.StartSession(r.Context(), u.ID)
	if err != nil {
		return err
	}
	s.SetSessionCookie(w, token)
	return nil
}

// loginView is the data of login.html.
type loginView struct {
	LoginType string
	Email     string
	Error     string
	Notice    string // after a password reset
}

func loginTypeOf(v string) string {
	if v == loginTypeWorker {
		return loginTypeWorker
	}
	return loginTypeCustomer
}

// loginPage is GET /users/login; ?loginType=worker preselects the staff tab.
func (s accountPages) loginPage(w http.ResponseWriter, r *http.Request) {
	v := loginView{LoginType: loginTypeOf(r.URL.Query().Get("loginType"))}
	if r.URL.Query().Get("reset") == "1" {
		v.Notice = s.T(r, msgPasswordReset)
	}
	s.render(w, r, http.StatusOK, "login.html", "title.login", v)
}

// login is POST /users/login.
func (s accountPages) login(w http.ResponseWriter, r *http.Request) {
	f, err := readForm(w, r, "email", "password", "loginType")
	if err != nil {
		s.loginFailed(w, r, loginView{LoginType: loginTypeCustomer}, err)
		return
	}
	v := loginView{LoginType: loginTypeOf(f["loginType"]), Email: strings.TrimSpace(f["email"])}
	if lt := f["loginType"]; lt != "" && lt != loginTypeCustomer && lt != loginTypeWorker {
		s.loginFailed(w, r, v, fault.Coded(fault.Invalid, msgBadLoginType))
		return
	}
	if v.Email == "" || f["password"] == "" {
		s.loginFailed(w, r, v, fault.Coded(fault.Invalid, msgLoginMissing))
		return
	}
	u, err := s.accounts.Login(r.Context(), v.Email, f["password"], httpx.ClientAddr(r))
	if err != nil {
		s.loginFailed(w, r, v, err)
		return
	}
	// docs/accounts.md#refusals: the worker access is for ADMIN accounts only; the
	// refusal grants no session.
	if v.LoginType == loginTypeWorker && !u.IsAdmin() {
		s.log.InfoContext(r.Context(), "worker login refused", "id_customer", u.ID)
		s.loginFailed(w, r, v, fault.Coded(fault.Forbidden, msgWorkerDenied))
		return
	}
	if err := s.startSession(w, r, u); err != nil {
		s.loginFailed(w, r, v, err)
		return
	}
	s.log.InfoContext(r.Context(), "login", "id_customer", u.ID, "role", string(u.Role))
	s.signedIn(w, r, u, http.StatusOK, "msg.logged_in")
}

// signedIn answers a login or a registration that opened a session: JSON
// {success, message, redirect, user} with status, or a redirect to the account's
// home page.
func (s accountPages) signedIn(w http.ResponseWriter, r *http.Request, u account.User, status int, msgKey string) {
	if jsonClient(r) {
		httpx.WriteJSON(w, status, map[string]any{
			"success": true, "message": s.T(r, msgKey), "redirect": homeOf(u), "user": userJSON(u),
		})
		return
	}
	httpx.SeeOther(w, r, homeOf(u))
}

// refusedJSON answers a refusal to a JSON client and reports true; a throttled one
// carries Retry-After either way. A page's caller renders it with status.
func (s accountPages) refusedJSON(w http.ResponseWriter, r *http.Request, err error) (status int, answered bool) {
	httpx.SetRetryAfter(w, err) // throttled: when to try again
	if jsonClient(r) {
		s.WriteSuccessFalse(w, r, err)
		return 0, true
	}
	return s.FailureStatus(r, err), false
}

// loginFailed answers a refused login: the login page (or JSON) with the status of
// err: 400 incomplete, 401 wrong credentials, 403 worker access denied, 429 throttled.
func (s accountPages) loginFailed(w http.ResponseWriter, r *http.Request, v loginView, err error) {
	status, answered := s.refusedJSON(w, r, err)
	if answered {
		return
	}
	v.Error = s.failText(r, err)
	s.render(w, r, status, "login.html", "title.login", v)
}

// registerView is the data of register.html: the values typed (never the
// passwords) and the errors by field.
type registerView struct {
	FullName, Email, Phone string
	Marketing              bool // the marketing box stays ticked when the form comes back
	Error                  string
	Errors                 account.FieldErrors
}

// registerPage is GET /users/register.
func (s accountPages) registerPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "register.html", "title.register", registerView{})
}

// register is POST /users/register (docs/accounts.md#the-phone-rule): a REGISTRADO account, logged in,
// 303 to /users/profile.
func (s accountPages) register(w http.ResponseWriter, r *http.Request) {
	f, consent, err := readRegistration(w, r)
	if err != nil {
		s.registerFailed(w, r, registerView{}, err)
		return
	}
	v := registerView{FullName: f["full_name"], Email: f["email"], Phone: f["phone"], Marketing: consent.MarketingConsent != nil && *consent.MarketingConsent}
	reg := account.Registration{
		FullName: f["full_name"], Email: f["email"], Phone: f["phone"],
		Password: f["password"], ConfirmPassword: f["confirmPassword"],
		PrivacyAck: consent.PrivacyAck, MarketingConsent: consent.MarketingConsent,
		// docs/manage-booking.md#pages: a post from the registration page (it says so with its hidden
		// privacy_notice field, next to the notice it showed) must carry the
		// acknowledgement; spec clients, which post the spec's fields only, need not.
		RequirePrivacyAck: consent.NoticeShown,
	}
	u, err := s.accounts.Register(r.Context(), reg)
	if err != nil {
		s.registerFailed(w, r, v, err)
		return
	}
	if err := s.startSession(w, r, u); err != nil {
		s.registerFailed(w, r, v, err)
		return
	}
	s.log.InfoContext(r.Context(), "account registered", "id_customer", u.ID)
	s.signedIn(w, r, u, http.StatusCreated, "msg.account_created")
}

// registerFailed re-renders the form with the errors next to their fields (400
// invalid, 409 email or phone taken), or answers JSON {success:false, message, errors}.
func (s accountPages) registerFailed(w http.ResponseWriter, r *http.Request, v registerView, err error) {
	status := s.FailureStatus(r, err)
	var fields account.FieldErrors
	errors.As(err, &fields)
	if jsonClient(r) {
		body := map[string]any{"success": false, "message": s.failText(r, err)}
		if len(fields) > 0 {
			body["errors"] = fields.Words(func(err error) string { return s.Message(r, err) })
		}

		httpx.WriteJSON(w, status, body)
		return
	}
	v.Errors = fields
	if len(fields) == 0 {
		v.Error = s.failText(r, err)
	} else if status == http.StatusBadRequest {
		v.Error = s.T(r, "msg.check_fields")
	}
	s.render(w, r, status, "register.html", "title.register", v)
}

// logout is GET and POST /users/logout: the session ends, its API tokens are
// revoked, the cookie is cleared; 303 to the login page.
func (s accountPages) logout(w http.ResponseWriter, r *http.Request) {
	if token := httpx.SessionToken(r); token != "" {
		if err := s.accounts.EndSession(r.Context(), token); err != nil {
			s.WriteSuccessFalse(w, r, err)
			return
		}
	}
	s.ClearSessionCookie(w)
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, "msg.logged_out")})
		return
	}
	httpx.SeeOther(w, r, "/users/login")
}

// registerRefused answers a registration beyond PARKING_PUBLIC_RATE (docs/public-booking.md#limits-on-anonymous-traffic):
// the form again with the message and 429, or JSON for JSON clients.
func (s accountPages) registerRefused(w http.ResponseWriter, r *http.Request, err error) {
	s.registerFailed(w, r, registerView{}, err)
}

// consents are the privacy fields of the registration (docs/privacy.md#consents).
type consents struct {
	NoticeShown      bool // the post comes from a page that showed the privacy notice
	PrivacyAck       bool
	MarketingConsent *bool
}

// readRegistration reads the registration's text fields and its two optional
// booleans, privacy_ack and marketing_consent (a checkbox sends "on").
func readRegistration(w http.ResponseWriter, r *http.Request) (map[string]string, consents, error) {
	var c consents
	in, err := httpx.ReadInput(w, r)
	if err != nil {
		return nil, c, err
	}
	texts, err := in.Texts("full_name", "email", "phone", "password", "confirmPassword")
	if err != nil {
		return nil, c, err
	}
	out := make(map[string]string, len(texts))
	for n, v := range texts {
		out[n] = *v
	}
	c.NoticeShown = in.Str("privacy_notice") != ""
	ack, err := in.OptBool("privacy_ack")
	if err != nil {
		return nil, c, err
	}
	c.PrivacyAck = ack != nil && *ack
	if c.MarketingConsent, err = in.OptBool("marketing_consent"); err != nil {
		return nil, c, err
	}
	return out, c, nil
}
