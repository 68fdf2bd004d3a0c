package httpx

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the networks of the reverse proxies in front of the service
// (PARKING_TRUSTED_PROXIES). Only a request whose connection comes from one of
// them has its X-Forwarded-For believed; the empty list believes nobody.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads a comma-separated list of CIDRs or single addresses
// ("10.0.0.0/8, 192.168.1.10, ::1").
func ParseTrustedProxies(s string) (TrustedProxies, error) {
	var out TrustedProxies
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or a CIDR such as 10.0.0.0/8", f)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a CIDR such as 10.0.0.0/8", f)
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func (t TrustedProxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Client is the client's address for a connection from peer (r.RemoteAddr) with
// the X-Forwarded-For values xff. A peer that is not a trusted proxy is the client
// and its header is ignored (anyone can send one). Behind trusted proxies, the
// header is read from the right, each proxy having appended the address it got
// the request from: the first address that is not a trusted proxy is the client;
// everything to its left was written by the client itself and is not believed. A
// malformed entry ends the walk at the last address a trusted proxy vouched for.
func (t TrustedProxies) Client(peer string, xff []string) string {
	host := peer
	if h, _, err := net.SplitHostPort(peer); err == nil {
		host = h
	}
	a, err := netip.ParseAddr(host)
	if err != nil || len(t) == 0 || !t.trusts(a) {
		return host
	}
	client := a.Unmap()
	for i := len(xff) - 1; i >= 0; i-- {
		hops := strings.Split(xff[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(hops[j]))
			if err != nil {
				return client.String()
			}
			client = hop.Unmap()
			if !t.trusts(client) {
				return client.String()
			}
		}
	}
	return client.String()
}

type clientKey struct{}

// Resolve records, for requests that come through a trusted proxy, the client's
// address that ClientAddr reports. It runs before everything else.
func (t TrustedProxies) Resolve(next http.Handler) http.Handler {
	if len(t) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			r = r.WithContext(context.WithValue(r.Context(), clientKey{}, t.Client(r.RemoteAddr, xff)))
		}
		next.ServeHTTP(w, r)
	})
}
