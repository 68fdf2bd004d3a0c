package i18n

import (
	"strings"
	"time"

	"parking/internal/money"
)

// separators are each language's group and decimal separators.
type separators struct{ group, decimal string }

var seps = map[string]separators{
	"es": {".", ","},
	"de": {".", ","},
	"fr": {"\u00a0", ","},
	"en": {",", "."},
}

func sepsOf(lang string) separators {
	if s, ok := seps[lang]; ok {
		return s
	}
	return seps[Default]
}

// group writes digits with the language's group separator every three.
func group(whole, sep string) string {
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(d)
	}
	return b.String()
}

// Money formats an amount of euros the language's way: "1.234,50 €" (es, de),
// "1 234,50 €" (fr), "€1,234.50" (en).
func Money(lang string, c money.Cents) string {
	s := c.String() // "1234.50"
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	sp := sepsOf(lang)
	num := group(whole, sp.group) + sp.decimal + frac
	sign := ""
	if neg {
		sign = "-"
	}
	if lang == "en" {
		return sign + "€" + num
	}
	return sign + num + " €"
}

// Decimal formats a decimal string ("1234.5", as money.Multiplier and the
// like write it) with the language's separators.
func Decimal(lang, s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasFrac := strings.Cut(s, ".")
	sp := sepsOf(lang)
	out := group(whole, sp.group)
	if hasFrac {
		out += sp.decimal + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// Number formats a whole number with the language's group separator.
func Number(lang string, n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	digits := itoa(n)
	out := group(digits, sepsOf(lang).group)
	if neg {
		out = "-" + out
	}
	return out
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// dateLayouts are each language's date and date-time layouts for people.
var dateLayouts = map[string][2]string{
	"es": {"02/01/2006", "02/01/2006 15:04"},
	"fr": {"02/01/2006", "02/01/2006 15:04"},
	"de": {"02.01.2006", "02.01.2006 15:04"},
	"en": {"2 Jan 2006", "2 Jan 2006, 15:04"},
}

// Date formats a day for people in lang (the caller has put t in the facility's zone).
func Date(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	l, ok := dateLayouts[lang]
	if !ok {
		l = dateLayouts[Default]
	}
	return t.Format(l[0])
}

// DateTime formats an instant for people in lang (t already in the facility's zone).
func DateTime(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	l, ok := dateLayouts[lang]
	if !ok {
		l = dateLayouts[Default]
	}
	return t.Format(l[1])
}
