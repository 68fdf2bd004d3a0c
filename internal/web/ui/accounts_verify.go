package ui

import (
	"net/http"

	"parking/internal/account"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// Email verification and claims (docs/accounts.md#email-verification,
// docs/customer-area.md#claim):
//
//	GET  /users/verify?t=…         the emailed link: verifies, 303 to /users/profile
//	POST /users/verify/resend      a new link (signed in; limited per address and account)
//	POST /users/profile/claim      {reference, manage_token}: take a booking one holds

// verifyEmail is GET /users/verify?t=…. A good link, followed once or again, is a
// 303 to the profile; any other is a 400 page saying why, and nothing changes.
func (s accountPages) verifyEmail(w http.ResponseWriter, r *http.Request) {
	if err := s.accounts.VerifyEmail(r.Context(), r.URL.Query().Get("t")); err != nil {
		s.renderError(w, r, err, "error.email_verification", "/users/profile", "back.go_account")
		return
	}
	http.Redirect(w, r, "/users/profile?verified=1", http.StatusSeeOther)
}

// resendVerification is POST /users/verify/resend: JSON {success, message}, or a
// 303 back to the profile for the page's form.
func (s accountPages) resendVerification(w http.ResponseWriter, r *http.Request) {
	err := s.accounts.ResendVerification(r.Context(), httpx.GuardedUser(r).ID)
	if err != nil {
		s.customerFormRefused(w, r, err)
		return
	}
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.Words(r, account.MsgVerificationSent)})

		return
	}
	http.Redirect(w, r, "/users/profile?verify=sent", http.StatusSeeOther)
}

// customerFormRefused answers a refused profile form post: {success:false} to JSON
// clients, an error page with the way back to the profile otherwise.
func (s accountPages) customerFormRefused(w http.ResponseWriter, r *http.Request, err error) {
	httpx.SetRetryAfter(w, err) // throttled: when to try again
	if jsonClient(r) {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	s.renderError(w, r, err, "title.account", "/users/profile", "back.account")
}

// msgClaimed is the answer to a claim.
const msgClaimed = "msg.claimed"

// claimBooking is POST /users/profile/claim (reference, manage_token; JSON or the
// profile page's form): 200 {success, message, reference, id_reservation}, or a 303
// to the profile. A wrong reference or token is the same 404 whichever is wrong.
func (s accountPages) claimBooking(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ReadTexts(w, r, "reference", "manage_token")
	if err != nil {
		s.customerFormRefused(w, r, err)
		return
	}
	res, err := s.booking.ClaimBooking(r.Context(), httpx.GuardedUser(r).ID, deref(f["reference"]), deref(f["manage_token"]), httpx.ClientAddr(r))
	if err != nil {
		s.customerFormRefused(w, r, err)
		return
	}
	ref := reservation.ShowReference(res.Reference)
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, msgClaimed, "Reference", ref),
			"reference": ref, "id_reservation": res.ID})
		return
	}
	http.Redirect(w, r, "/users/profile?claimed="+ref+"#reservas", http.StatusSeeOther)
}
