package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/i18n"
)

// WriteJSON writes v with status. It encodes into a buffer first, so an encoding
// failure becomes a clean 500 instead of half a body.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	if body, ok := encodeJSON(w, v); ok {
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
}

// encodeJSON encodes v and sets the JSON answer's headers, or answers a clean 500
// and reports false.
func encodeJSON(w http.ResponseWriter, v any) ([]byte, bool) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":"Internal Server Error"}`, http.StatusInternalServerError)
		return nil, false
	}
	setJSONHeaders(w.Header())
	return buf.Bytes(), true
}

// setJSONHeaders sets a JSON answer's Content-Type and Cache-Control (canonical keys,
// values copied from built ones in one allocation).
func setJSONHeaders(h http.Header) {
	v := make([]string, 2)
	v[0], v[1] = "application/json; charset=utf-8", "no-store"
	h["Content-Type"], h["Cache-Control"] = v[0:1:1], v[1:2:2]
}

// WriteJSONBody writes body, an encoded JSON answer (ending in a newline, as
// WriteJSON's), with status and WriteJSON's headers: for handlers that encode their
// small answers themselves.
func WriteJSONBody(w http.ResponseWriter, status int, body []byte) {
	setJSONHeaders(w.Header())
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// WriteJSONCompressed is WriteJSON for answers that can be large (the parking
// board of a thousand spots is some 600 KB), gzip-compressed for clients that
// accept it; small answers go out as they are (WriteBody).
func WriteJSONCompressed(w http.ResponseWriter, r *http.Request, status int, v any) {
	if body, ok := encodeJSON(w, v); ok {
		WriteBody(w, r, status, body, nil)
	}
}

// statusOfKind is the one mapping from error kind to HTTP status; any other error
// is a 500.
var statusOfKind = map[fault.Kind]int{
	fault.Invalid:       http.StatusBadRequest,
	fault.NotFound:      http.StatusNotFound,
	fault.Forbidden:     http.StatusForbidden,
	fault.Unauthorized:  http.StatusUnauthorized,
	fault.Conflict:      http.StatusConflict,
	fault.TooMany:       http.StatusTooManyRequests,
	fault.Unprocessable: http.StatusUnprocessableEntity,
	fault.Unavailable:   http.StatusServiceUnavailable, // docs/reliability.md; the middleware adds Retry-After (RetryAfterUnavailable)
}

// StatusOf is the HTTP status of err (statusOfKind).
func StatusOf(err error) int {
	if status, ok := statusOfKind[fault.KindOf(err)]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// Generic messages for internal errors; the cause goes to the log only.
const (
	MsgInternalES = "Error interno del servidor. Inténtelo de nuevo más tarde."
	MsgInternalEN = "Internal Server Error"
	// MsgUnavailableEN is the {"error": …} shape's message for fault.Unavailable
	// (the other shapes carry fault.MsgUnavailable).
	MsgUnavailableEN = "Service Unavailable"
)

// The spec's three error shapes (docs/errors.md#refusals-by-operation).

// WriteErrorField writes {"error": …} (GET /api/reservations and the token API).
func (s *Kit) WriteErrorField(w http.ResponseWriter, r *http.Request, err error) {
	status := s.FailureStatus(r, err)
	msg := fault.MessageOf(err, MsgInternalEN)
	if status == http.StatusServiceUnavailable && !IsFault(err, fault.Unavailable) {
		msg = MsgUnavailableEN
	}
	WriteJSON(w, status, map[string]any{"error": msg})
}

// WriteSuccessFalse writes {"success": false, "message": …} (pricing, booking,
// administrator and customer actions).
func (s *Kit) WriteSuccessFalse(w http.ResponseWriter, r *http.Request, err error) {
	status := s.FailureStatus(r, err)
	body := map[string]any{"success": false, "message": s.Message(r, err)}
	// The fields the refusal names, by their names in the request, for a page's
	// script (docs/languages.md#messages-as-codes); a client that names no language
	// gets the spec's answer as it is.
	if _, named := s.answerLanguage(r); named {
		if f := fault.Fields(err); len(f) > 0 {
			body["fields"] = f
		}
	}
	// docs/capacity.md#refusals: a refusal for capacity names the full days.
	var full fault.FullDays
	if errors.As(err, &full) {
		body["full_days"] = full.FullDays()
	}
	// docs/exit.md#expected-total: a finalize refused for its amount names the amount due.
	var due fault.AmountDue
	if errors.As(err, &due) {
		body["total_price"] = due.AmountDue()
	}
	WriteJSON(w, status, body)
}

// Message is err's words for r (docs/languages.md#messages-as-codes): in the
// language answerLanguage chooses, the fields named as the forms label them; to a
// client that names no language we speak, the Spanish of the spec, which names
// fields as the API does.
func (s *Kit) Message(r *http.Request, err error) string {
	lang, named := s.answerLanguage(r)
	if !named {
		return GenericMessage(i18n.Default, fault.MessageOf(err, MsgInternalES))
	}
	return fault.MessageIn(err, lang, "error.internal")
}

// Words is the catalogue's text key with args for r, in the language Message
// chooses: a handler's own words (a success message) follow the page's language
// as its refusals do.
func (s *Kit) Words(r *http.Request, key string, args ...any) string {
	lang, named := s.answerLanguage(r)
	if !named {
		return i18n.Words(i18n.Default, key, true, args...)
	}
	return i18n.Words(lang, key, false, args...)
}

// answerLanguage is the language of r's JSON and page messages: the one chosen as
// for a page (?lang=, the lang cookie, the account's language, Accept-Language),
// on the API's routes too, whose callers include the site's own scripts; named is
// false when r names none we speak.
func (s *Kit) answerLanguage(r *http.Request) (lang string, named bool) {
	if !s.languageNamed(r) {
		return i18n.Default, false
	}
	if isAPI(r) {
		return s.chooseLanguage(r), true // the middleware leaves the API's requests unmarked
	}
	return s.Lang(r), true
}

// FailureStatus is the status that answers err; on the way it logs what an
// operator must see (our own failures, the database unavailable), and no more.
func (s *Kit) FailureStatus(r *http.Request, err error) int {
	status := StatusOf(err)
	if errors.Is(r.Context().Err(), context.Canceled) && errors.Is(err, context.Canceled) {
		// The client went away mid-request; nothing failed on our side, and the
		// transaction was rolled back. Nobody reads this answer.
		s.log.DebugContext(r.Context(), "client gone", "pattern", r.Pattern)
		return status
	}
	if status == http.StatusServiceUnavailable {
		// The database is down or slow (docs/reliability.md): an operator's matter, not a bug.
		s.log.WarnContext(r.Context(), "database unavailable", "pattern", r.Pattern, "err", err)
		return status
	}
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "pattern", r.Pattern, "err", err)
	}
	return status
}

// IsFault reports whether err carries a user-facing fault of kind k.
func IsFault(err error, k fault.Kind) bool {
	var fe *fault.Error
	return errors.As(err, &fe) && fe.Kind == k
}

// SetRetryAfter tells a throttled client how long to wait (RFC 9110 Retry-After);
// for any other error it does nothing, so a refusal handler calls it whatever err is.
func SetRetryAfter(w http.ResponseWriter, err error) {
	var th *account.ThrottledError
	if errors.As(err, &th) {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(th.RetryAfter.Seconds()))))
	}
}
