// Package wirelog is a test web server that writes down every request the
// moment it arrives: when, on which host, over which connection, for what.
// It is how loopkit's tests judge politeness from the other side of the
// wire: a crawler's own counters only prove what it believes it did.
//
// internal/wirelog sits beside the library, for tests only; it may use
// net/http because it plays somebody else's server. Each host is its own
// listener on 127.0.0.1 with its own port, so one machine plays several
// sites and a crawler keeps a separate politeness state for each. A host
// may speak https (HostTLS), or both http and https on one port
// (HostDual), with certificates from the server's own test CA.
package wirelog

import (
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"loopkit/internal/testca"
)

// Arrival is one request as the server saw it arrive.
type Arrival struct {
	At     time.Time
	Host   string // the name the test gave the host
	Scheme string // "http" or "https"
	Conn   string // the client's address: one per connection
	Path   string // path and query
	Agent  string // the User-Agent: which of several crawlers sent it
}

// Server is a set of logging hosts. Its methods may be called from any
// goroutine.
type Server struct {
	t        testing.TB
	mu       sync.Mutex
	arrivals []Arrival
	bases    map[string]string
	ca       *testca.CA // made with the first https host
}

// New returns a server with no hosts yet; they are closed when the test ends.
func New(t testing.TB) *Server {
	return &Server{t: t, bases: map[string]string{}}
}

// Host starts a host called name that logs each request and then serves it
// with h, and returns its base URL ("http://127.0.0.1:PORT").
func (s *Server) Host(name string, h http.Handler) string {
	return "http://" + s.serve(name, s.listen(), h)
}

func (s *Server) listen() net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	return ln
}

// serve logs and serves what arrives on ln, and returns ln's address.
func (s *Server) serve(name string, ln net.Listener, h http.Handler) string {
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		s.mu.Lock()
		s.arrivals = append(s.arrivals, Arrival{At: time.Now(), Host: name, Scheme: scheme, Conn: r.RemoteAddr, Path: r.URL.RequestURI(), Agent: r.UserAgent()})
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	s.t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	s.mu.Lock()
	s.bases[name] = addr
	s.mu.Unlock()
	return addr
}

// Arrivals returns what arrived so far, in order of arrival; with names,
// only what arrived at those hosts.
func (s *Server) Arrivals(names ...string) []Arrival {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Arrival
	for _, a := range s.arrivals {
		if len(names) == 0 || slices.Contains(names, a.Host) {
			out = append(out, a)
		}
	}
	return out
}

// Paths returns the paths requested from host, in order, robots.txt
// included.
func (s *Server) Paths(host string) []string {
	var out []string
	for _, a := range s.Arrivals(host) {
		out = append(out, a.Path)
	}
	return out
}

// Conns is how many connections the requests that arrived at host came on.
func (s *Server) Conns(host string) int {
	seen := map[string]bool{}
	for _, a := range s.Arrivals(host) {
		seen[a.Conn] = true
	}
	return len(seen)
}

// Count is how many requests for path arrived at host.
func (s *Server) Count(host, path string) int {
	n := 0
	for _, a := range s.Arrivals(host) {
		if a.Path == path {
			n++
		}
	}
	return n
}

// Within returns the arrivals at host strictly after from and before to.
func (s *Server) Within(host string, from, to time.Time) []Arrival {
	var out []Arrival
	for _, a := range s.Arrivals(host) {
		if a.At.After(from) && a.At.Before(to) {
			out = append(out, a)
		}
	}
	return out
}

// ClosedPort returns a 127.0.0.1 address nothing listens on: a connection
// to it is refused.
func ClosedPort(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
