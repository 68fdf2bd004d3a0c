package storetest

import (
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"

	"parking/internal/store"
)

// Proxy is a TCP forwarder between the service and the test PostgreSQL server that
// the test cuts (as if the server stopped: connections drop, new ones are refused)
// and restores on the same address.
type Proxy struct {
	t      *testing.T
	Addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
}

// NewProxy forwards a free local port to target until the test ends.
func NewProxy(t *testing.T, target string) *Proxy {
	p := &Proxy{t: t, target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(func() { p.Cut(); p.wg.Wait() })
	return p
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.ln != ln { // cut meanwhile
				p.mu.Unlock()
				c.Close()
				up.Close()
				continue
			}
			p.conns[c], p.conns[up] = true, true
			p.mu.Unlock()
			p.wg.Add(2)
			go func() { defer p.wg.Done(); _, _ = io.Copy(up, c); up.Close(); c.Close() }()
			go func() { defer p.wg.Done(); _, _ = io.Copy(c, up); up.Close(); c.Close() }()
		}
	}()
}

// Cut stops accepting and drops every open connection.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Restore listens again on the same address.
func (p *Proxy) Restore() {
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		p.t.Fatalf("proxy listen again on %s: %v", p.Addr, err)
	}
	p.serve(ln)
}

// ProxiedPostgres returns a fresh test database's URL rewritten to go through a
// proxy the test owns, or skips without PostgreSQL.
func ProxiedPostgres(t *testing.T) (string, *Proxy) {
	t.Helper()
	if os.Getenv(EnvPostgres) == "" {
		t.Skip(EnvPostgres + " not set: the outage needs a PostgreSQL behind a proxy")
	}
	u, err := url.Parse(URL(t, store.Postgres))
	if err != nil {
		t.Fatal(err)
	}
	p := NewProxy(t, u.Host)
	u.Host = p.Addr
	return u.String(), p
}
