package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"parking/internal/web/httpx"
)

func TestLocalTarget(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/admin/history", "/admin/history"},
		{"/reserva/K7Q2-M9XD?t=a.b&hecho=modificada", "/reserva/K7Q2-M9XD?t=a.b&hecho=modificada"},
		{"/admin/catalog?ok=x#rates", "/admin/catalog?ok=x#rates"},
		{"/users/profile/", "/users/profile/"},
		{"/reserva/..%2F..%2F%5Cevil.example?t=x", "/reserva/..%2F..%2F%5Cevil.example?t=x"},
		{"/reserva/../admin", "/admin"},
		{"/reserva/../../\\evil.example?t=x", "/"},
		{"/\\evil.example", "/"},
		{"//evil.example/x", "/"},
		{"/%2Fevil.example", "/"},
		{"/%5Cevil.example", "/"},
		{"https://evil.example/", "/"},
		{"javascript:alert(1)", "/"},
		{"evil.example", "/"},
		{"", "/"},
		{"/a\r\nSet-Cookie: x=1", "/"},
		{"/a\x00b", "/"},
		{"/a\tb", "/"},
		{"/reserva/x/../../..//evil.example", "/evil.example"},
	} {
		if got := httpx.LocalTarget(c.in, "/"); got != c.want {
			t.Errorf("LocalTarget(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Redirect sends what LocalTarget keeps, and "/" for the rest.
func TestRedirectKeepsOnSite(t *testing.T) {
	for in, want := range map[string]string{"/admin/staff?ok=1": "/admin/staff?ok=1", "/../..//evil.example": "/evil.example", "/\\evil.example": "/"} {
		w := httptest.NewRecorder()
		httpx.SeeOther(w, httptest.NewRequest("POST", "/x", nil), in)
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("SeeOther(%q): %d %q, want %q", in, w.Code, w.Header().Get("Location"), want)
		}
	}
}
