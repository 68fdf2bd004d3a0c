package ui

import (
	"net/http"
	"net/url"
	"strings"

	"parking/internal/i18n"
)

// languageLinks are the language switcher's links (the same page with ?lang=, the
// current one marked) and, on public pages answered 200, the hreflang alternates,
// absolute when the service knows its address
// (docs/languages.md#switcher-and-alternates). The switcher's links are relative
// ("?lang=en", keeping the other parameters, such as a manage link's token), so
// an error page reads the same whatever address it answers.
func (s *base) languageLinks(r *http.Request, status int, current string) (switcher, alternates []langLink) {
	for _, l := range i18n.Languages {
		q := r.URL.Query()
		q.Set("lang", l)
		switcher = append(switcher, langLink{Lang: l, Name: i18n.Name(l), Href: "?" + q.Encode(), Current: l == current})
	}
	if status != http.StatusOK || !publicPath(r.URL.Path) {
		return switcher, nil
	}
	base := strings.TrimSuffix(s.cfg.BaseURL, "/")
	for _, l := range i18n.Languages {
		alternates = append(alternates, langLink{Lang: l, Href: base + r.URL.Path + "?" + url.Values{"lang": {l}}.Encode()})
	}
	alternates = append(alternates, langLink{Lang: "x-default", Href: base + r.URL.Path})
	return switcher, alternates
}

// publicPath reports whether a page is public, the same for every visitor and
// worth indexing in each language: not the staff's pages, the customer's area,
// nor the pages reached with a private link.
func publicPath(p string) bool {
	for _, prefix := range []string{"/admin", "/users/profile", "/users/verify", "/users/password/reset", "/users/oidc", "/media/", "/reserva/"} {
		if strings.HasPrefix(p, prefix) {
			return false
		}
	}
	return true
}

// languageChoice is one option of a language selector (the walk-in's customer
// language, the profile's account language): the code, the language's name in
// itself, whether it is the chosen one.
type languageChoice struct {
	Code, Name string
	Selected   bool
}

// languageChoices are the options of a language selector, one per language we
// speak, with selected chosen ("" or an unknown code: none).
func languageChoices(selected string) []languageChoice {
	out := make([]languageChoice, 0, len(i18n.Languages))
	for _, l := range i18n.Languages {
		out = append(out, languageChoice{Code: l, Name: i18n.Name(l), Selected: l == selected})
	}
	return out
}
