package httpx

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// WantsJSON reports whether the client prefers JSON to HTML
// (docs/errors.md#json-on-web-routes), reading Accept as RFC 9110 §12.5.1 says:
// the most specific range that matches each type gives its weight (q, 1 when not
// given; q=0 refuses it); the higher weight wins; at equal weights the type named
// more specifically wins, then the one listed first; "*/*" alone, or no Accept,
// is a browser's and gets the page.
func WantsJSON(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return false
	}
	j := acceptWeight(accept, "application", "json")
	h := acceptWeight(accept, "text", "html")
	switch {
	case j.q != h.q:
		return j.q > h.q
	case j.q == 0:
		return false
	case j.specific != h.specific:
		return j.specific > h.specific
	default:
		return j.specific > 0 && j.pos < h.pos
	}
}

// IsJSONBody reports whether the request body is declared JSON (application/json
// or a +json type).
func IsJSONBody(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// BrowserForm reports whether the request is a plain HTML form submitted by a
// browser (a form body, and an Accept that prefers HTML), which is answered with a
// redirect to a page rather than JSON. Scripts and tests that send no Accept, or
// ask for JSON, keep the JSON answers.
func BrowserForm(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" && mt != "multipart/form-data" {
		return false
	}
	return acceptWeight(r.Header.Get("Accept"), "text", "html").specific == 2 && !WantsJSON(r)
}

// weight is how an Accept header ranks one media type: q from the most specific
// matching range, how specific that range was (2 type/subtype, 1 type/*, 0 */*),
// and its position in the header.
type weight struct {
	q        float64
	specific int
	pos      int
}

func acceptWeight(accept, typ, sub string) weight {
	best := weight{specific: -1}
	for pos, part := range strings.Split(accept, ",") {
		rng, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		t, s, ok := strings.Cut(strings.ToLower(strings.TrimSpace(rng)), "/")
		if !ok {
			continue
		}
		specific := -1
		switch {
		case t == typ && (s == sub || strings.HasSuffix(s, "+"+sub)):
			specific = 2
		case t == typ && s == "*":
			specific = 1
		case t == "*" && s == "*":
			specific = 0
		}
		if specific <= best.specific {
			continue
		}
		best = weight{q: qValue(params), specific: specific, pos: pos}
	}
	if best.specific < 0 {
		return weight{pos: 1 << 30}
	}
	return best
}

// qValue reads the q parameter of a media range (1 when absent or unreadable).
func qValue(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q >= 0 && q <= 1 {
				return q
			}
		}
	}
	return 1
}
