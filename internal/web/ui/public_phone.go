package ui

import (
	"net/http"
	"strings"

	"parking/internal/i18n"
	"parking/internal/web/httpx"
)

// phoneCheck is the answer of POST /booking/check-phone: whether the phone the
// booking page's step 2 holds would be accepted by the booking, its stored form
// when it would, and otherwise why not, in the page's language.
type phoneCheck struct {
	Valid   bool   `json:"valid"`
	Message string `json:"message,omitempty"`
	E164    string `json:"e164,omitempty"`
}

// checkPhone reads {phone} with the booking's own phone rule (internal/input), so
// the page refuses before its last step what the booking would refuse after it:
// a phone abroad typed without its country code is asked for it, with the number
// as it should be typed (docs/input-rules.md#phones).
func (s publicPages) checkPhone(w http.ResponseWriter, r *http.Request) {
	in, err := httpx.ReadInput(w, r)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	typed := in.Str("phone")
	e164, err := s.phones.Phone("phone", typed)
	if err == nil {
		httpx.WriteJSON(w, http.StatusOK, phoneCheck{Valid: true, E164: e164})
		return
	}
	lang := s.Lang(r)
	var msg string
	if example, ok := s.phones.ForeignPhone(typed); ok {
		msg = i18n.T(lang, "js.ui.phone_country_code", "Example", example)
	} else if strings.TrimSpace(typed) == "" {
		msg = i18n.T(lang, "js.booking.phone_missing")
	} else {
		msg = i18n.T(lang, "js.ui.bad_phone")
	}
	httpx.WriteJSON(w, http.StatusOK, phoneCheck{Message: msg})
}

// checkPhoneRefused answers a check beyond PARKING_PUBLIC_RATE: the 429 JSON
// refusal; the page then leaves the phone to the booking's own check.
func (s publicPages) checkPhoneRefused(w http.ResponseWriter, r *http.Request, err error) {
	s.WriteSuccessFalse(w, r, err)
}
