// Package fault is the service's one error type: a kind that decides the HTTP status
// (in web, the only place that knows statuses) and a message fit to show a user.
package fault

import (
	"errors"
	"fmt"

	"parking/internal/i18n"
	"parking/internal/money"
)

// Kind classifies an error for the caller.
type Kind int

const (
	Internal     Kind = iota // a bug or an outage; the message is generic
	Invalid                  // the request breaks a rule; the message says which
	NotFound                 // the thing asked for does not exist
	Forbidden                // the caller may not do this
	Unauthorized             // the caller is not who they must be
	Conflict                 // the request clashes with stored data (a taken spot, a used email)
	TooMany                  // slow down (login throttling)
	// Unavailable: the database cannot be reached, or the request's database
	// deadline passed (docs/reliability.md#every-requests-database-work-has-a-deadline). Nothing was saved; the client may try again.
	Unavailable
	// Unprocessable: the request is well formed but cannot be applied as sent (an
	// Idempotency-Key sent again with another body).
	Unprocessable
)

// MsgUnavailable is the message of an Unavailable error (docs/reliability.md).
const MsgUnavailable = "Servicio no disponible, inténtelo en un momento."

// unavailable is the store's classification of driver errors meaning "the database
// is unavailable" (database.IsUnavailable, registered once by the engine at init), so
// the one decision lives where the drivers are known and every caller of KindOf
// sees it without importing the store.
var unavailable func(error) bool

// RegisterUnavailable sets the classification KindOf uses for errors that carry no
// fault of their own kind. The store calls it once, at init.
func RegisterUnavailable(fn func(error) bool) { unavailable = fn }

// Error carries a kind and a user-facing message (Spanish where the spec says so).
// A coded error (Coded) also carries its catalogue key and arguments, so that each
// answer says it in its reader's language (docs/languages.md#messages-as-codes).
type Error struct {
	Kind    Kind
	Message string // the Spanish words: the API's message, the logs'
	Code    string // the message catalogue's key ("err.input.required"); "" for a text of its own
	Args    []any  // Code's placeholders as name/value pairs ("Field", i18n.FieldName("phone"))
	Err     error  // the cause, for logs; never shown to users
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// New makes an error of a kind with a formatted message.
func New(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// Coded makes an error of a kind whose words are the catalogue's message code with
// args (placeholder name/value pairs); its Message is the Spanish of the API.
func Coded(k Kind, code string, args ...any) *Error {
	return &Error{Kind: k, Code: code, Args: args, Message: i18n.Words(i18n.Default, code, true, args...)}
}

// Invalidf is the common case: a broken rule.
func Invalidf(format string, args ...any) *Error { return New(Invalid, format, args...) }

// KindOf returns the kind of err: the kind of the fault.Error it carries, unless
// that is Internal (or there is none) and the cause is a database that cannot be
// reached or did not answer in time, which is Unavailable; Internal otherwise.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal {
		return e.Kind
	}
	if err != nil && unavailable != nil && unavailable(err) {
		return Unavailable
	}
	return Internal
}

// MessageOf returns the user-facing message of err, or fallback for internal errors.
func MessageOf(err error, fallback string) string {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal {
		return e.Message
	}
	if KindOf(err) == Unavailable {
		return MsgUnavailable
	}
	return fallback
}

// MessageIn is err's message for a page or its scripts in lang: a coded error in
// lang's words with its fields named as the forms label them, any other as written;
// the generic words of an unavailable database, or fallback (a catalogue key) for
// an internal error.
func MessageIn(err error, lang, fallback string) string {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal {
		if e.Code == "" {
			return e.Message
		}
		return i18n.Words(lang, e.Code, false, e.Args...)
	}
	if KindOf(err) == Unavailable {
		return i18n.T(lang, "error.service_unavailable")
	}
	return i18n.T(lang, fallback)
}

// Fields are the form fields a coded refusal names (its i18n.FieldName
// arguments), in order: the JSON answer lists them, so that a page's script marks
// the fields without reading the words (docs/languages.md#messages-as-codes).
func Fields(err error) []string {
	var e *Error
	if !errors.As(err, &e) || e.Kind == Internal {
		return nil
	}
	var out []string
	for i := 1; i < len(e.Args); i += 2 {
		if f, ok := e.Args[i].(i18n.FieldName); ok {
			out = append(out, string(f))
		}
	}
	return out
}

// FullDays is implemented by the cause of a capacity refusal (docs/capacity.md#refusals):
// the days over the limit as YYYY-MM-DD, which the web layer answers as full_days.
type FullDays interface{ FullDays() []string }

// AmountDue is implemented by the cause of a finalize refused for its amount
// (docs/exit.md#expected-total): the amount due, which the web layer answers as total_price.
type AmountDue interface{ AmountDue() money.Cents }
