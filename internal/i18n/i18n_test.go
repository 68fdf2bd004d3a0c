package i18n_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"parking/internal/i18n"
	"parking/internal/money"
)

var placeholder = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// placeholders are the distinct {{.Name}} of a text, sorted.
func placeholders(s string) string {
	seen := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		seen[m[1]] = true
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// Every key of the Spanish catalogue is in every language, with the same
// placeholders, no language has a key Spanish lacks, and none is empty.
func TestCataloguesComplete(t *testing.T) {
	if err := i18n.Check(); err != nil {
		t.Fatal(err)
	}
	es, err := i18n.Raw(i18n.Default)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) < 500 {
		t.Fatalf("Spanish catalogue has %d keys; the pages need many more", len(es))
	}
	for _, lang := range i18n.Languages[1:] {
		other, err := i18n.Raw(lang)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		for k, v := range es {
			o, ok := other[k]
			switch {
			case !ok:
				t.Errorf("%s: key %q missing", lang, k)
			case strings.TrimSpace(o) == "":
				t.Errorf("%s: key %q empty", lang, k)
			case placeholders(o) != placeholders(v):
				t.Errorf("%s: key %q has placeholders {%s}, Spanish {%s}", lang, k, placeholders(o), placeholders(v))
			}
		}
		for k := range other {
			if _, ok := es[k]; !ok {
				t.Errorf("%s: key %q is not in the Spanish catalogue", lang, k)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	for header, want := range map[string]string{
		"de-AT,de;q=0.9,en;q=0.8": "de",
		"en-GB,en;q=0.9":          "en",
		"fr-CH, fr;q=0.9":         "fr",
		"es-ES":                   "es",
		"ja":                      "",
		"":                        "",
		"x;;;=":                   "",
	} {
		if got := i18n.Match(header); got != want {
			t.Errorf("Match(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestMoney(t *testing.T) {
	for lang, want := range map[string]string{"en": "€12.50", "es": "12,50 €", "de": "12,50 €", "fr": "12,50 €"} {
		if got := i18n.Money(lang, money.Cents(1250)); got != want {
			t.Errorf("Money(%s, 12.50) = %q, want %q", lang, got, want)
		}
	}
	if got := i18n.Money("es", money.Cents(123450)); got != "1.234,50 €" {
		t.Errorf("es thousands: %q", got)
	}
	if got := i18n.Money("en", money.Cents(-123450)); got != "-€1,234.50" {
		t.Errorf("en negative thousands: %q", got)
	}
}

// Counts pick the language's plural form (CLDR rules); placeholders are filled.
func TestPluralsAndPlaceholders(t *testing.T) {
	cases := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"es", "band.days", []any{"Count", 1}, "1 día"},
		{"es", "band.days", []any{"Count", 3}, "3 días"},
		{"en", "band.days", []any{"Count", 1}, "1 day"},
		{"en", "band.or_more", []any{"Count", 16}, "16 days or more"},
		{"de", "band.range", []any{"Min", 1, "Count", 3}, "1–3 Tage"},
		{"fr", "band.days", []any{"Count", 1}, "1 jour"},
		{"en", "msg.claimed", []any{"Reference", "K7Q2-M9XD"}, "Booking K7Q2-M9XD is now in your account."},
		{"xx", "nav.book", nil, "Reservar"},
		{"en", "no.such.key", nil, "no.such.key"},
	}
	for _, c := range cases {
		if got := i18n.T(c.lang, c.key, c.args...); got != c.want {
			t.Errorf("T(%s, %s, %v) = %q, want %q", c.lang, c.key, c.args, got, c.want)
		}
	}
}

// Scripts get their texts with the placeholders as written, to fill themselves.
func TestPrefixedKeepsPlaceholders(t *testing.T) {
	for _, lang := range i18n.Languages {
		js := i18n.Prefixed(lang, "js.")
		if len(js) < 100 {
			t.Fatalf("%s: %d script texts", lang, len(js))
		}
		for k, v := range js {
			if strings.Contains(v, "<no value>") {
				t.Errorf("%s: js.%s = %q", lang, k, v)
			}
		}
		if got := js["booking.full_day"]; !strings.Contains(got, "{{.Days}}") {
			t.Errorf("%s: js.booking.full_day = %q, want its {{.Days}} placeholder", lang, got)
		}
	}
}
