package httpx

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// LocalTarget returns target, cleaned as a browser would resolve its path, when it
// stays on this site: a path starting with a single "/" (never "//…" or "/\…"),
// with no scheme or host, no backslash and no control character. Anything else
// gives fallback (docs/security.md#redirects).
func LocalTarget(target, fallback string) string {
	for _, c := range target {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return fallback
		}
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return fallback
	}
	p, rest := target, ""
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		p, rest = target[:i], target[i:]
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return fallback
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	// The decoded path must not start with "//" or "/\" either: a browser may read
	// "/%2F…" or "/%5C…" back that way once a proxy decodes it.
	if dec, err := url.PathUnescape(clean); err != nil || strings.HasPrefix(dec, "//") || strings.HasPrefix(dec, "/\\") {
		return fallback
	}
	return clean + rest
}

// Redirect answers a redirect to target when it stays on this site (LocalTarget),
// and to "/" otherwise: every Location built from request values goes through it.
func Redirect(w http.ResponseWriter, r *http.Request, target string, code int) {
	http.Redirect(w, r, LocalTarget(target, "/"), code)
}

// SeeOther is Redirect with 303, the answer to a form post.
func SeeOther(w http.ResponseWriter, r *http.Request, target string) {
	Redirect(w, r, target, http.StatusSeeOther)
}
