package ui

import (
	"errors"
	"net/http"

	"parking/internal/account"
	"parking/internal/web/httpx"
)

// Password reset (docs/manage-booking.md#password-reset): "¿Olvidó su contraseña?" on the login page leads
// to /users/password/forgot (an email → the same answer whether or not an account
// has it), and the emailed link to /users/password/reset?t=… (the new password;
// every session of the account ends). JSON clients get {success, message}.

type forgotView struct {
	Email string
	Error string
	Sent  string
}

type resetView struct {
	Token     string
	Usable    bool
	Error     string
	MinLength int
}

// msgPasswordReset is the login page's notice after a reset.
const msgPasswordReset = "msg.password_reset"

// forgotPage is GET /users/password/forgot.
func (s accountPages) forgotPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "password_forgot.html", "title.reset", forgotView{})
}

// forgot is POST /users/password/forgot (email): limited per client address
// (docs/reliability.md) by its route, per account by account.RequestPasswordReset.
func (s accountPages) forgot(w http.ResponseWriter, r *http.Request) {
	f, err := readForm(w, r, "email")
	if err == nil {
		err = s.accounts.RequestPasswordReset(r.Context(), f["email"])
	}
	if err != nil {
		s.forgotRefused(w, r, err)
		return
	}
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.Words(r, account.MsgResetRequested)})
		return
	}
	s.render(w, r, http.StatusOK, "password_forgot.html", "title.reset", forgotView{Sent: s.T(r, account.MsgResetRequested)})

}

// forgotRefused answers a malformed or throttled reset request.
func (s accountPages) forgotRefused(w http.ResponseWriter, r *http.Request, err error) {
	status, answered := s.refusedJSON(w, r, err)
	if answered {
		return
	}
	s.render(w, r, status, "password_forgot.html", "title.reset",
		forgotView{Error: s.failText(r, err)})
}

// resetPage is GET /users/password/reset?t=…: the form, or the link's expiry.
func (s accountPages) resetPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	ok, err := s.accounts.PasswordResetUsable(r.Context(), token)
	if err != nil {
		s.renderError(w, r, err, "title.reset", "/users/login", "password_forgot.volver_a_iniciar_sesion")
		return
	}
	status := http.StatusOK
	if !ok {
		status = http.StatusNotFound
	}
	s.render(w, r, status, "password_reset.html", "title.reset",
		resetView{Token: token, Usable: ok, MinLength: account.MinPasswordLength})
}

// reset is POST /users/password/reset (token, newPassword, confirmPassword): 303
// to the login page with a notice; JSON clients 200 {success, message}.
func (s accountPages) reset(w http.ResponseWriter, r *http.Request) {
	f, err := readForm(w, r, "token", "newPassword", "confirmPassword")
	if err == nil {
		err = s.accounts.ResetPassword(r.Context(), f["token"], f["newPassword"], f["confirmPassword"])
	}
	if err != nil {
		if jsonClient(r) {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		status := s.FailureStatus(r, err)
		s.render(w, r, status, "password_reset.html", "title.reset", resetView{
			Token: f["token"], Usable: !errors.Is(err, account.ErrResetLink), Error: s.failText(r, err),
			MinLength: account.MinPasswordLength,
		})
		return
	}
	// The reset ended every session, this browser's too: its cookie is stale.
	s.ClearSessionCookie(w)
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, msgPasswordReset), "redirect": "/users/login"})
		return
	}
	httpx.SeeOther(w, r, "/users/login?reset=1")
}
