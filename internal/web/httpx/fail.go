package httpx

import (
	"net/http"
	"net/url"

	"parking/internal/fault"
)

// Fail is the one answer to a refused or failed request on a route that serves both
// browsers and JSON clients (docs/errors.md#json-on-web-routes): a JSON client
// (browser false) gets {success:false, message} with the fault's status; a browser
// gets page, called with the fault's status (failures logged) and its message in
// the page's language (Message; a generic one for internal errors).
func (s *Kit) Fail(w http.ResponseWriter, r *http.Request, err error, browser bool, page func(status int, msg string)) {
	if !browser {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	page(s.FailureStatus(r, err), s.Message(r, err))
}

// FailBack answers a browser's form post that was refused by sending it back to
// target with ?error=<message> (then fragment, e.g. "#fotos"); a JSON client, and
// an unknown record (there is no page to go back to), get {success:false, message}.
func (s *Kit) FailBack(w http.ResponseWriter, r *http.Request, err error, browser bool, target, fragment string) {
	s.Fail(w, r, err, browser && fault.KindOf(err) != fault.NotFound, func(_ int, msg string) {
		SeeOther(w, r, target+"?error="+url.QueryEscape(msg)+fragment)
	})
}
