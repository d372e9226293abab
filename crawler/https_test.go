package crawler_test

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/http1"
	"loopkit/internal/wirelog"
)

// trusting is client options that trust the test server's CA.
func trusting(srv *wirelog.Server) http1.Options {
	return http1.Options{TLS: &tls.Config{RootCAs: srv.CA().Pool()}}
}

// peakCounter is a handler's view of how many requests it serves at once.
type peakCounter struct {
	mu       sync.Mutex
	now, top int
}

func (p *peakCounter) serve(w http.ResponseWriter, r *http.Request, h http.HandlerFunc) {
	p.mu.Lock()
	p.now++
	p.top = max(p.top, p.now)
	p.mu.Unlock()
	defer func() { p.mu.Lock(); p.now--; p.mu.Unlock() }()
	time.Sleep(10 * time.Millisecond)
	h(w, r)
}

func (p *peakCounter) peak() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.top
}

// http://h and https://h are one server: one politeness for both. A host
// that serves both on one port (as a server does on 80 and 443) never
// sees more than --per_host requests at once, or two starts closer than
// --delay, whichever scheme they come by; and robots.txt is fetched once
// per scheme, since RFC 9309 scopes it to scheme and authority.
func TestHTTPAndHTTPSOfOneServerShareItsPoliteness(t *testing.T) {
	t.Parallel() // its own server; it mostly waits
	srv := wirelog.New(t)
	var counter peakCounter
	var httpsBase atomic.Value // known once the server is up; the root's handler reads it
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		counter.serve(w, r, func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				http.NotFound(w, r)
			case "/":
				var links []string
				for i := range 4 {
					links = append(links, fmt.Sprintf("/p%d", i), fmt.Sprintf("%s/s%d", httpsBase.Load(), i))
				}
				wirelog.Page(w, links...)
			default:
				wirelog.Page(w)
			}
		})
	})
	httpBase, httpsURL := srv.HostDual("h", site)
	httpsBase.Store(httpsURL)
	const delay = 150 * time.Millisecond
	c, _ := crawl(t, crawler.Config{Roots: []string{httpBase + "/"}, PerHost: 1, Delay: delay, HTTP: trusting(srv)})
	if n := c.Stats().Fetched; n != 9 {
		t.Fatalf("%d pages fetched, want the root and 8 links", n)
	}
	schemes := map[string]int{}
	for _, a := range srv.Arrivals("h") {
		schemes[a.Scheme+" "+a.Path[:min(len(a.Path), 2)]]++
	}
	if schemes["http /r"] != 1 || schemes["https /r"] != 1 || schemes["https /s"] != 4 || schemes["http /p"] != 4 {
		t.Fatalf("arrivals by scheme and path: %v; want robots.txt once per scheme, and each page", schemes)
	}
	if p := counter.peak(); p != 1 {
		t.Fatalf("the server saw %d requests at once over its two schemes, with --per_host 1", p)
	}
	// Without shared spacing, an http and an https request would often
	// arrive together; spacedApart allows for an arrival written down late.
	arrivals := srv.Arrivals("h")
	times := make([]time.Time, len(arrivals))
	for i, a := range arrivals {
		times[i] = a.At
	}
	if why := spacedApart(times, delay); why != "" {
		t.Fatalf("over its two schemes, with --delay %v: %s", delay, why)
	}
}

// An http root that redirects to https is followed like any redirect,
// through the filters (same site: the scheme does not change it), and
// the https pages are crawled, over one keep-alive connection.
func TestRedirectToHTTPSIsFollowed(t *testing.T) {
	srv := wirelog.New(t)
	var httpsBase string
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.TLS == nil:
			http.Redirect(w, r, httpsBase+r.URL.Path, http.StatusMovedPermanently)
		case r.URL.Path == "/":
			wirelog.Page(w, "/a", "/b")
		default:
			wirelog.Page(w)
		}
	})
	httpBase, httpsBase := srv.HostDual("h", site)
	c, byPath := crawl(t, crawler.Config{Roots: []string{httpBase + "/"}, PerHost: 1, HTTP: trusting(srv)})
	var redirect *crawler.Record
	for _, r := range c.Records() {
		if strings.HasPrefix(r.URL, "http:") {
			redirect = r
		}
	}
	if redirect == nil || status(redirect) != 301 || *redirect.NextURL != httpsBase+"/" {
		t.Fatalf("the http root: %+v", redirect)
	}
	for _, p := range []string{"/", "/a", "/b"} {
		if r := byPath[p]; status(r) != 200 || !strings.HasPrefix(r.URL, "https:") {
			t.Fatalf("%s: %+v, want fetched over https", p, r)
		}
	}
	if failed := c.FailedRoots(); len(failed) != 0 {
		t.Fatalf("failed roots: %v", failed)
	}
	https := 0
	for _, a := range srv.Arrivals("h") {
		if a.Scheme == "https" {
			https++
		}
	}
	if n := srv.Conns("h"); https != 4 || n != 2 {
		t.Fatalf("%d https requests on %d connections in all; want robots.txt and 3 pages, and one connection per scheme", https, n)
	}
}

// A certificate the crawler cannot trust is a recorded failure that says
// which host and why: its robots.txt's (so nothing else of it is
// fetched), or, with robots.txt off, the page's, of kind "certificate".
func TestUntrustedCertificateIsRecorded(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.HostTLS("h", wirelog.Fan(2, nil))
	host := strings.TrimPrefix(base, "https://")
	want := "TLS handshake with " + host + ": tls: failed to verify certificate: x509: certificate signed by unknown authority"
	for _, noRobots := range []bool{false, true} {
		c, _ := crawl(t, crawler.Config{Roots: []string{base + "/"}, NoRobots: noRobots, MaxTries: 3})
		recs := c.Records()
		kind := map[bool]string{false: "robots", true: "certificate"}[noRobots]
		if len(recs) != 1 || recs[0].ErrorKind != kind || !strings.Contains(*recs[0].Exception, want) || recs[0].Tries > 1 {
			t.Fatalf("robots off %v: records %+v, want one of kind %q saying %q, not retried", noRobots, recs[0], kind, want)
		}
	}
	if n := len(srv.Arrivals("h")); n != 0 {
		t.Fatalf("%d requests reached the host", n)
	}
}
