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

// A Site is a running synthetic site. Its methods are safe for concurrent use.
type Site struct {
	cat       *catalogue
	pages     map[string]*page
	files     map[string]file
	redirects map[string]redirect
	robotsTxt []byte
	handler   http.Handler

	counters counters
	faults   tallies
	gate     gate
	done     chan struct{} // closed by Close: releases /hang, /delay and /dribble

	addr      string // host:port the listener got
	srv       *http.Server
	served    chan struct{} // closed when srv.Serve has returned
	serveErr  error         // what Serve returned, if not the usual ErrServerClosed
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
		pages:     cat.pages(),
		files:     staticFiles(),
		redirects: cat.redirects(),
		robotsTxt: robotsTxt(cfg.CrawlDelay),
		done:      make(chan struct{}),
		served:    make(chan struct{}),
	}
	s.counters.paths.Store(newPathTable())
	s.handler = http.HandlerFunc(s.serveHTTP)
	return s, nil
}

// Start builds the site for cfg and serves it on addr; "" means "127.0.0.1:0", a free
// port on the loopback interface. Other addresses must be loopback too, unless
// cfg.Public is set.
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
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	s.addr = ln.Addr().String()
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second, // a client that never finishes its headers cannot pin a connection
		IdleTimeout:       2 * time.Minute,  // keep-alive stays on: the crawler's pool reuses connections
		ConnState:         s.counters.connState,
	}
	go func() {
		defer close(s.served)
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.serveErr = err
		}
	}()
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

// URL is the root URL of the site, such as "http://127.0.0.1:41234/".
func (s *Site) URL() string { return "http://" + s.addr + "/" }

// Handler is the site's handler, instruments included, for mounting in a server of your
// own (a TLS one, say). Absolute links repeat the Host the client sent, so the site works
// under any address; connections are only counted by the server Start runs.
func (s *Site) Handler() http.Handler { return s.handler }

// Stats returns what the server has seen since it started or was last reset.
func (s *Site) Stats() Stats { return s.counters.snapshot() }

// Reset starts the counters anew and forgets every id the fault endpoints have seen.
func (s *Site) Reset() {
	s.counters.reset()
	s.faults.reset()
}

// Close stops the site: it releases the handlers that are waiting (/hang, /delay,
// /dribble), gives the others a second to finish, closes every connection and returns
// once every goroutine the site started has ended. Calling it again does nothing.
func (s *Site) Close() error {
	s.closeOnce.Do(s.shutdown)
	return s.serveErr
}

func (s *Site) shutdown() {
	close(s.done)
	if s.srv == nil {
		return // built by newSite, never served
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if s.srv.Shutdown(ctx) != nil {
		s.srv.Close() // the grace period is over: cut what is left
	}
	s.gate.closeAndWait()
	<-s.served
}
