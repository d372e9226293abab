package site

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// A Site is a running synthetic site, served by one host or several (Config.Hosts).
// Its methods are safe for concurrent use.
type Site struct {
	cat       *catalogue
	hosts     int                 // Config.Hosts
	pages     map[string]*page    // the hand-written pages, all on host 0
	fronts    []*page             // fronts[h] is "/" on host h ≥ 1 (hosts.go)
	files     map[string]file     // on host 0
	redirects map[string]redirect // on host 0
	robotsTxt []byte              // the same on every host
	handler   http.Handler        // host 0's
	handlers  []http.Handler      // every host's, in host order

	// With one host, counters are its counters. With several, they are the site's
	// totals (without the per-path table), and perHost holds each host's own.
	counters counters
	perHost  []counters
	faults   tallies
	gate     gate
	done     chan struct{} // closed by Close: releases /hang, /delay and /dribble

	addr      string // host:port that host 0's listener got; host h is on port+h
	servers   []*http.Server
	serving   sync.WaitGroup // the servers' Serve goroutines
	serveErrs []error        // what each Serve returned, if not the usual ErrServerClosed
	closeOnce sync.Once
}

// newSite builds the site for cfg without serving it.
func newSite(cfg Config) (*Site, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	cat := newCatalogue(cfg)
	s := &Site{
		cat:       cat,
		hosts:     cfg.Hosts,
		pages:     cat.pages(),
		fronts:    cat.fronts(),
		files:     staticFiles(),
		redirects: cat.redirects(),
		robotsTxt: robotsTxt(cfg.CrawlDelay),
		done:      make(chan struct{}),
	}
	tracked := int64(maxPaths)
	if cfg.TrackPaths > 0 {
		tracked = int64(cfg.TrackPaths)
	}
	if s.hosts == 1 {
		s.counters.paths.Store(&pathTable{limit: tracked})
	} else {
		s.perHost = make([]counters, s.hosts)
		for h := range s.perHost {
			// The per-path tables share one bound between them.
			s.perHost[h].paths.Store(&pathTable{limit: tracked / int64(s.hosts)})
		}
	}
	for h := range s.hosts {
		s.handlers = append(s.handlers, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.serveHTTP(h, w, r)
		}))
	}
	s.handler = s.handlers[0]
	return s, nil
}

// Start builds the site for cfg and serves it on addr; "" means "127.0.0.1:0", a free
// port on the loopback interface. Other addresses must be loopback too, unless
// cfg.Public is set.
//
// A site of several hosts (cfg.Hosts) listens on consecutive ports from addr's: host h
// on port+h. With port 0, the OS picks host 0's port and the others follow it if they
// are free; if one is taken, Start asks the OS again, a few times, before it fails.
// With any other port, the ports are taken as given, or Start fails.
func Start(cfg Config, addr string) (*Site, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := checkAddr(addr, cfg.Public); err != nil {
		return nil, err
	}
	s, err := newSite(cfg)
	if err != nil {
		return nil, err
	}
	lns, err := listenHosts(addr, s.hosts, net.Listen)
	if err != nil {
		return nil, err
	}
	s.addr = lns[0].Addr().String()
	s.serveErrs = make([]error, len(lns))
	for h, ln := range lns {
		srv := &http.Server{
			Handler:           s.handlers[h],
			ReadHeaderTimeout: 10 * time.Second, // a client that never finishes its headers cannot pin a connection
			IdleTimeout:       2 * time.Minute,  // keep-alive stays on: the crawler's pool reuses connections
			ConnState:         func(c net.Conn, state http.ConnState) { s.connState(h, c, state) },
		}
		s.servers = append(s.servers, srv)
		s.serving.Add(1)
		go func() {
			defer s.serving.Done()
			if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				s.serveErrs[h] = fmt.Errorf("site: host %d: %w", h, err)
			}
		}()
	}
	return s, nil
}

// checkAddr refuses to listen beyond this machine unless asked to.
func checkAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: address %q: %v", ErrConfig, addr, err)
	}
	if public || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%w: %s is not a loopback address; serving beyond this machine needs Config.Public (cmd/site: -public)", ErrConfig, addr)
}

// URL is the root URL of the site, such as "http://127.0.0.1:41234/": host 0's, where
// the home page is.
func (s *Site) URL() string { return s.rootOf(0) }

// URLs are the root URLs of every host, in host order: URLs()[0] is URL(), and host h
// is on the port after host h-1's. A crawl of the whole site starts from all of them.
func (s *Site) URLs() []string {
	out := make([]string, s.hosts)
	for h := range out {
		out[h] = s.rootOf(h)
	}
	return out
}

func (s *Site) rootOf(h int) string { return "http://" + hostAddr(s.addr, h) + "/" }

// Handler is the site's handler, instruments included, for mounting in a server of your
// own (a TLS one, say). Absolute links repeat the Host the client sent, so the site works
// under any address; connections are only counted by the server Start runs. On a site
// of several hosts it is host 0's, and links to the other hosts name the ports that
// Start listens on.
func (s *Site) Handler() http.Handler { return s.handler }

// Stats returns what the server has seen since it started or was last reset: the
// totals of every host, and on a site of several hosts each host's own in Hosts.
func (s *Site) Stats() Stats { return s.snapshot() }

// Reset starts the counters anew and forgets every id the fault endpoints have seen.
func (s *Site) Reset() {
	s.counters.reset()
	for h := range s.perHost {
		s.perHost[h].reset()
	}
	s.faults.reset()
}

// Close stops the site: it releases the handlers that are waiting (/hang, /delay,
// /dribble), gives the others a second to finish, closes every connection of every
// host and returns once every goroutine the site started has ended. Calling it again
// does nothing.
func (s *Site) Close() error {
	s.closeOnce.Do(s.shutdown)
	return errors.Join(s.serveErrs...)
}

func (s *Site) shutdown() {
	close(s.done)
	// The hosts shut down together, so that closing takes one grace period, not one each.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var stopping sync.WaitGroup
	for _, srv := range s.servers {
		stopping.Add(1)
		go func() {
			defer stopping.Done()
			if srv.Shutdown(ctx) != nil {
				srv.Close() // the grace period is over: cut what is left
			}
		}()
	}
	stopping.Wait()
	s.gate.closeAndWait()
	s.serving.Wait()
}
