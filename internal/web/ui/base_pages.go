package ui

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"parking/internal/i18n"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/occupancy"
	"parking/internal/pricing"
	"parking/internal/web/httpx"
)

// The administrator pages (issue 7): the routes of the administrator area render
// HTML for browsers and keep answering JSON to clients that prefer it
// (docs/errors.md#json-on-web-routes). The pages share static/admin.css and static/admin.js, on top of the customer
// pages' customer.css and customer.js (window.ParkingUI: requests that always end
// in a message, busy buttons, field errors, the live quote). Every form also works
// without JavaScript: a browser form post gets a 303 back to its page with the
// outcome in the query string, which the page shows.

// errorView is the data of error.html.
type errorView struct {
	Heading   string
	Message   string
	BackHref  string
	BackLabel string
}

// renderError shows a refusal or failure as a page with its status: the fault's
// message (a generic one for internal errors, which are logged) and a way back.
func (s *base) renderError(w http.ResponseWriter, r *http.Request, err error, heading, backHref, backLabel string) {
	s.Fail(w, r, err, true, s.errorPage(w, r, heading, backHref, backLabel))
}

// listUnavailable answers a staff list that could not be read: the refusal as
// JSON ({success:false}), or the error page headed heading with the way back to the
// dashboard.
func (s *base) listUnavailable(w http.ResponseWriter, r *http.Request, err error, heading string) {
	if httpx.WantsJSON(r) {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	s.renderError(w, r, err, heading, "/admin/dashboard", "back.dashboard")
}

// errorPage draws error.html with a refusal's status and message and a way back
// (the page half of httpx.Kit.Fail).
func (s *base) errorPage(w http.ResponseWriter, r *http.Request, heading, backHref, backLabel string) func(status int, msg string) {
	return func(status int, msg string) {
		msg = humanize(s.Lang(r), httpx.GenericMessage(s.Lang(r), msg))
		s.render(w, r, status, "error.html", heading, errorView{
			Heading: heading, Message: msg, BackHref: backHref, BackLabel: backLabel,
		})
	}
}

// statusClass is the CSS class suffix of a state's pill: "EN CURSO" → "EN-CURSO".
func statusClass(status string) string { return strings.ReplaceAll(status, " ", "-") }

// shortTime formats an instant for people in the facility's zone: "21/11/2026 10:00".
func (s *base) shortTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(s.cfg.Location).Format("02/01/2006 15:04")
}

// optTime is shortTime of an optional instant ("" when absent).
func (s *base) optTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return s.shortTime(*t)
}

// isoText formats an RFC 3339 text (the notification history's dates) like
// shortTime; an unreadable one is shown as it is.
func (s *base) isoText(v *string) string {
	if v == nil || *v == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, *v)
	if err != nil {
		return *v
	}
	return s.shortTime(t)
}

// nowInput is the facility's current time as a datetime-local value.
func (s *base) nowInput() string { return s.inputTime(s.now()) }

// todayISO is the facility's current day, YYYY-MM-DD.
func (s *base) todayISO() string { return localtime.JSON(s.now(), s.cfg.Location)[:10] }

// words writes for people in a request's language (docs/languages.md): amounts,
// dates in the facility's zone, the seed's vehicle types, rate bands.
type words struct {
	lang string
	loc  *time.Location
}

// words is the writing of r's language.
func (s *base) words(r *http.Request) words { return words{lang: s.Lang(r), loc: s.cfg.Location} }

func (w words) t(key string, args ...any) string { return i18n.T(w.lang, key, args...) }
func (w words) money(c money.Cents) string       { return i18n.Money(w.lang, c) }
func (w words) multiplier(m money.Multiplier) string {
	return i18n.Decimal(w.lang, m.String())
}

// dateTime and date write an instant and its day ("" for none).
func (w words) dateTime(t time.Time) string { return i18n.DateTime(w.lang, t.In(w.loc)) }
func (w words) date(t time.Time) string     { return i18n.Date(w.lang, t.In(w.loc)) }
func (w words) optDateTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return w.dateTime(*t)
}

// vehicleType names one of the seed's vehicle types; a type added by an
// administrator shows as stored.
func (w words) vehicleType(t string) string {
	if _, ok := vehicleTypeLabels[t]; ok {
		return w.t("vehicle." + t)
	}
	return t
}

// days lists days ("01/12/2026, 02/12/2026 y 03/12/2026"), the Spanish way
// occupancy writes them in Spanish.
func (w words) days(days []occupancy.Day) string {
	if w.lang == i18n.Default {
		return occupancy.Spanish(days)
	}
	s := make([]string, len(days))
	for i, d := range days {
		s[i] = i18n.Date(w.lang, d.Date())
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + w.t("js.booking.and") + s[len(s)-1]
}

// band describes a rate's range of days ("1 día", "3–7 días", "8 días o más"),
// with the language's plural rules.
func (w words) band(r pricing.Rate) string {
	switch {
	case r.MaxDays >= 9999:
		return w.t("band.or_more", "Count", r.MinDays)
	case r.MinDays == r.MaxDays:
		return w.t("band.days", "Count", r.MinDays)
	default:
		return w.t("band.range", "Min", r.MinDays, "Count", r.MaxDays)
	}
}

// T is a text of the catalogues in r's language (docs/languages.md), for the
// messages the pages' handlers write themselves.
func (s *base) T(r *http.Request, key string, args ...any) string {
	return i18n.T(s.Lang(r), key, args...)
}

// failText is err's message for a page, in r's language where it is written here
// (the generic ones) and with the fields named as the forms label them.
func (s *base) failText(r *http.Request, err error) string {
	return humanize(s.Lang(r), s.Message(r, err))
}

// backToPage answers a browser's form post (no script): 303 back to page with the
// outcome to show: ok=message, or error= and err's text (err logged as any
// failure is).
func (s *base) backToPage(w http.ResponseWriter, r *http.Request, page, message string, err error) {
	q := "ok=" + url.QueryEscape(message)
	if err != nil {
		s.FailureStatus(r, err)
		q = "error=" + url.QueryEscape(s.failText(r, err))
	}
	httpx.SeeOther(w, r, page+"?"+q)
}
