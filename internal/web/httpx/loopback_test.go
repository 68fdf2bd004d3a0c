package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"parking/internal/web/httpx"
)

func TestLoopbackOnly(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	h := httpx.LoopbackOnly(ok, http.NotFoundHandler())
	for _, c := range []struct {
		peer, header, value string
		want                int
	}{
		{"127.0.0.1:5000", "", "", 200},
		{"[::1]:5000", "", "", 200},
		{"127.0.0.2:5000", "", "", 200},
		{"[::ffff:127.0.0.1]:5000", "", "", 200},
		{"192.0.2.10:5000", "", "", 404},
		{"10.0.0.1:5000", "", "", 404},
		{"[2001:db8::1]:5000", "", "", 404},
		{"127.0.0.1:5000", "X-Forwarded-For", "203.0.113.9", 404},
		{"127.0.0.1:5000", "X-Forwarded-For", "127.0.0.1", 404},
		{"127.0.0.1:5000", "Forwarded", "for=203.0.113.9", 404},
		{"garbage", "", "", 404},
	} {
		req := httptest.NewRequest("GET", "/metrics", nil)
		req.RemoteAddr = c.peer
		if c.header != "" {
			req.Header.Set(c.header, c.value)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != c.want {
			t.Errorf("peer %s %s=%q: %d, want %d", c.peer, c.header, c.value, w.Code, c.want)
		}
	}
}
