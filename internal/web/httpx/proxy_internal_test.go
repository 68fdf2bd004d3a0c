package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Behind trusted proxies the client is the rightmost X-Forwarded-For address that
// is not a proxy; from anyone else the header is ignored.
func TestTrustedProxiesClient(t *testing.T) {
	tp, err := ParseTrustedProxies(" 10.0.0.0/8, 192.168.1.10 ,2001:db8::/32")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"no proxy: the header is a lie", "203.0.113.5:4000", []string{"1.2.3.4"}, "203.0.113.5"},
		{"one trusted proxy", "10.1.2.3:4000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"client spoofs the left part", "10.1.2.3:4000", []string{"1.2.3.4, 198.51.100.7"}, "198.51.100.7"},
		{"two proxies, the header on two lines", "192.168.1.10:80", []string{"6.6.6.6, 198.51.100.7", "10.9.9.9"}, "198.51.100.7"},
		{"all hops are proxies", "10.1.2.3:1", []string{"10.0.0.1"}, "10.0.0.1"},
		{"malformed hop: the last vouched address", "10.1.2.3:1", []string{"garbage, 10.0.0.2"}, "10.0.0.2"},
		{"malformed right after the peer", "10.1.2.3:1", []string{"garbage"}, "10.1.2.3"},
		{"IPv6 proxy and client", "[2001:db8::1]:443", []string{"2a00:1450::5"}, "2a00:1450::5"},
		{"IPv4-mapped peer", "[::ffff:10.1.2.3]:443", []string{"198.51.100.7"}, "198.51.100.7"},
		{"no header", "10.1.2.3:1", nil, "10.1.2.3"},
	} {
		if got := tp.Client(c.peer, c.xff); got != c.want {
			t.Errorf("%s: Client(%s, %q) = %s, want %s", c.name, c.peer, c.xff, got, c.want)
		}
	}
	if got := (TrustedProxies{}).Client("10.1.2.3:1", []string{"1.2.3.4"}); got != "10.1.2.3" {
		t.Errorf("no trusted proxies: %s", got)
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted", bad)
		}
	}

	// Resolve gives ClientAddr the client; without trusted proxies it is the peer.
	var got string
	h := tp.Resolve(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = ClientAddr(r) }))
	req := httptest.NewRequest("GET", "/", nil)
	req.RemoteAddr = "10.1.2.3:5555"
	req.Header.Set("X-Forwarded-For", "198.51.100.7")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got != "198.51.100.7" {
		t.Errorf("ClientAddr behind the proxy = %s", got)
	}
	TrustedProxies(nil).Resolve(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = ClientAddr(r) })).ServeHTTP(httptest.NewRecorder(), req)
	if got != "10.1.2.3" {
		t.Errorf("ClientAddr with no trusted proxy = %s", got)
	}
}
