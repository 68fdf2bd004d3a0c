package httpx

import (
	"net"
	"net/http"
	"net/netip"
)

// LoopbackOnly serves next only to a request whose TCP peer is the loopback
// address and that carries no X-Forwarded-For or Forwarded header: a proxy on the
// same host forwards the public, and says so. Every other request gets notFound
// (docs/security.md#metrics).
func LoopbackOnly(next, notFound http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackPeer(r.RemoteAddr) || len(r.Header.Values("X-Forwarded-For")) > 0 || len(r.Header.Values("Forwarded")) > 0 {
			notFound.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackPeer reports whether remote (r.RemoteAddr, the TCP peer) is a loopback
// address.
func loopbackPeer(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}
