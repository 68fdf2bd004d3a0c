package i18n

import (
	"strings"
	"time"
)

// Term is a catalogue key as a coded message's argument, written as lang's text of
// it: a reservation's status ("js.status.PENDIENTE": PENDIENTE, PENDING, ...).
type Term string

// Days are calendar days as one argument, a list in the language's form:
// "12/03/2027, 13/03/2027 y 14/03/2027", "12 Mar 2027, 13 Mar 2027 and 14 Mar 2027".
type Days []time.Time

// listAnd is each language's word joining the last item of a list.
var listAnd = map[string]string{"es": "y", "en": "and", "de": "und", "fr": "et"}

func (d Days) in(lang string) string {
	s := make([]string, len(d))
	for i, t := range d {
		s[i] = Date(lang, t)
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	and, ok := listAnd[lang]
	if !ok {
		and = listAnd[Default]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + and + " " + s[len(s)-1]
}

// moment is an instant as a coded message's argument (t already in the facility's
// zone): the API's Spanish writes it as the specification does, with its seconds
// ("21/11/2026, 10:00:05"); a page in lang's date-time form.
func moment(lang string, apiNames bool, t time.Time) string {
	if apiNames {
		return t.Format("02/01/2006, 15:04:05")
	}
	return DateTime(lang, t)
}
