// Package demo starts the world that the tutorial's programs fetch from:
// loopkit's demo site (package site, a small book shop), served on 127.0.0.1
// behind a server that waits a little before each answer, as a server on
// the other side of the world would. Without that wait every fetch on
// loopback takes a fraction of a millisecond, and the difference between
// waiting one page at a time and waiting for many at once would not show.
//
// The server side uses net/http: it plays somebody else's web server. The
// programs themselves speak HTTP over sockets they drive by hand.
package demo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"loopkit/site"
)

// Server is the demo site behind a slow front door.
type Server struct {
	Addr  netip.AddrPort // where the programs connect
	Host  string         // "127.0.0.1:port", for the Host header
	Paths []string       // the pages to fetch, each of which answers 200

	site    *site.Site
	srv     *http.Server
	latency time.Duration
	closed  chan struct{}

	inFlight, peak atomic.Int64
}

// Start serves the demo site on a free port of 127.0.0.1, answering each
// request after latency, and picks the paths of n of its pages.
func Start(latency time.Duration, n int) (*Server, error) {
	st, err := site.Start(site.Config{Pages: 100}, "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		st.Close()
		return nil, err
	}
	s := &Server{site: st, latency: latency, closed: make(chan struct{})}
	s.Addr = netip.MustParseAddrPort(ln.Addr().String())
	s.Host = s.Addr.String()
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	if s.Paths, err = s.pages(n); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// serve waits, then lets the site answer. It counts requests in flight
// here, on the server side: only the server sees how many it really got.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for old := s.peak.Load(); n > old && !s.peak.CompareAndSwap(old, n); old = s.peak.Load() {
	}
	select {
	case <-time.After(s.latency):
	case <-s.closed:
		return
	}
	s.site.Handler().ServeHTTP(w, r)
}

// URL is the site's home page.
func (s *Server) URL() string { return "http://" + s.Host + "/" }

// pages returns the paths of n book pages, each of which answers 200.
func (s *Server) pages(n int) ([]string, error) {
	var paths []string
	root := s.site.URL()
	for _, u := range s.site.Expected(true) {
		p := "/" + strings.TrimPrefix(u, root)
		if strings.HasPrefix(p, "/catalogue/") && !strings.HasPrefix(p, "/catalogue/category/") && s.site.Status(u) == 200 {
			paths = append(paths, p)
		}
	}
	if n > len(paths) {
		return nil, fmt.Errorf("demo: asked for %d pages, the site has %d", n, len(paths))
	}
	return paths[:n], nil
}

// Expected is how many URLs a correct crawler fetches from this site, robots.txt obeyed.
func (s *Server) Expected() int { return len(s.site.Expected(true)) }

// Peak is the most requests the server had in flight at once.
func (s *Server) Peak() int64 { return s.peak.Load() }

// ResetPeak starts counting the peak anew.
func (s *Server) ResetPeak() { s.peak.Store(s.inFlight.Load()) }

// Close stops both servers.
func (s *Server) Close() {
	close(s.closed)
	s.srv.Close()
	s.site.Close()
}

// Request is an HTTP/1.0 GET for path: the server answers and closes the
// connection, so the end of the response is simply EOF. (HTTP/1.1 keeps
// the connection open and frames the body by length or in chunks; that is
// crawler/http1's job, not these programs'.)
func (s *Server) Request(path string) []byte { return Request(s.Host, path) }

// Request is the same GET for a server on host ("127.0.0.1:port") that
// runs elsewhere — in another process, say, so that strace of this one
// sees only the client's system calls.
func Request(host, path string) []byte {
	return []byte("GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n")
}

// Print writes a line about one fetch — its path, status and size, or
// what went wrong — and reports whether the page came back with a 200.
func Print(w io.Writer, path string, response []byte, err error) bool {
	status := 0
	if err == nil {
		status, err = Status(response)
	}
	if err == nil && status != 200 {
		err = fmt.Errorf("status %d", status)
	}
	if err != nil {
		fmt.Fprintf(w, "%s error: %v\n", path, err)
		return false
	}
	fmt.Fprintf(w, "%s %d %d bytes\n", path, status, len(response))
	return true
}

// Status reads the status code from a raw response ("HTTP/1.0 200 OK...").
func Status(response []byte) (int, error) {
	line, _, _ := bytes.Cut(response, []byte("\r\n"))
	fields := strings.Fields(string(line))
	if len(fields) < 2 || !strings.HasPrefix(fields[0], "HTTP/") {
		return 0, errors.New("demo: not an HTTP response")
	}
	return strconv.Atoi(fields[1])
}
