package site

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// Stats is what the server has seen since it started or was last reset. It is counted
// on the server side, because that is where politeness is measured: a client can only
// say how many requests it meant to have in flight, the server sees how many it got.
//
// Requests to /stats and /reset are not counted, so that reading the instruments does
// not move them (their connections are counted: a connection carries any request).
type Stats struct {
	Requests     int64            `json:"requests"`       // requests received
	InFlight     int64            `json:"in_flight"`      // requests being handled now
	PeakInFlight int64            `json:"peak_in_flight"` // most requests handled at once
	OpenConns    int64            `json:"open_conns"`     // connections open now
	PeakConns    int64            `json:"peak_conns"`     // most connections open at once
	Conns        int64            `json:"conns"`          // connections accepted
	TrapHits     int64            `json:"trap_hits"`      // requests a correct crawler never makes (see isTrap)
	Paths        map[string]int64 `json:"paths"`          // requests per path (the query left out)
}

// maxPaths bounds the per-path table, so that a client requesting random paths cannot
// grow it forever; the paths after that are counted under otherPaths.
const (
	maxPaths   = 1 << 17
	otherPaths = "(other)"
)

// counters are the live numbers behind Stats. Every number is an atomic, so the hot
// path takes no lock but the one for the per-path table.
type counters struct {
	requests, inFlight, peakInFlight atomic.Int64
	open, peakOpen, conns            atomic.Int64
	traps                            atomic.Int64

	mu    sync.Mutex
	paths map[string]int64
}

// begin and end bracket every counted request.
func (c *counters) begin(path string) {
	c.requests.Add(1)
	raise(&c.peakInFlight, c.inFlight.Add(1))
	if isTrap(path) {
		c.traps.Add(1)
	}
	c.mu.Lock()
	if _, ok := c.paths[path]; !ok && len(c.paths) >= maxPaths {
		path = otherPaths
	}
	c.paths[path]++
	c.mu.Unlock()
}

func (c *counters) end() { c.inFlight.Add(-1) }

// connState is the http.Server's ConnState hook. A hijacked connection leaves the
// server's hands, so it stops counting as open there; the handler closes it soon after.
func (c *counters) connState(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		c.conns.Add(1)
		raise(&c.peakOpen, c.open.Add(1))
	case http.StateHijacked, http.StateClosed:
		c.open.Add(-1)
	}
}

// raise sets peak to v if v is higher, however many goroutines race to do it.
func raise(peak *atomic.Int64, v int64) {
	for {
		old := peak.Load()
		if v <= old || peak.CompareAndSwap(old, v) {
			return
		}
	}
}

func (c *counters) snapshot() Stats {
	st := Stats{
		Requests:     c.requests.Load(),
		InFlight:     c.inFlight.Load(),
		PeakInFlight: c.peakInFlight.Load(),
		OpenConns:    c.open.Load(),
		PeakConns:    c.peakOpen.Load(),
		Conns:        c.conns.Load(),
		TrapHits:     c.traps.Load(),
	}
	c.mu.Lock()
	st.Paths = make(map[string]int64, len(c.paths))
	for p, n := range c.paths {
		st.Paths[p] = n
	}
	c.mu.Unlock()
	return st
}

// reset starts a new measurement. Peaks restart from what is in flight and open now,
// not from zero: a peak below the current level would be a lie.
func (c *counters) reset() {
	c.requests.Store(0)
	c.peakInFlight.Store(c.inFlight.Load())
	c.peakOpen.Store(c.open.Load())
	c.conns.Store(0)
	c.traps.Store(0)
	c.mu.Lock()
	c.paths = make(map[string]int64)
	c.mu.Unlock()
}

// isTrap tells the URLs that only a crawler with a bug requests: links inside comments,
// scripts and non-HTML files all point into /trap/, and /extras/based.html is what a
// crawler that ignores <base href> makes of /extras/base.html's only link. (serveSearch
// counts the third kind: a query with "&amp;" still in it.)
func isTrap(path string) bool {
	return strings.HasPrefix(path, "/trap/") || path == "/extras/based.html"
}

func (s *Site) serveStats(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	body, err := json.Marshal(s.Stats())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	respond(w, http.StatusOK, ctJSON, append(body, '\n'))
}

// serveReset takes GET as well as POST, so that a human can reset from a browser.
func (s *Site) serveReset(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		methodNotAllowed(w, "GET, POST")
		return
	}
	s.Reset()
	w.WriteHeader(http.StatusNoContent)
}
