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
	Paths        map[string]int64 `json:"paths"`          // requests per path (the query left out), over all hosts
	// Hosts is each host's own Stats, in host order, on a site of more than one host
	// (their Hosts are nil). The totals above are counted as well as the hosts', not
	// added up from them: the site's peaks are peaks of the whole site. While requests
	// run, the figures are read one after another and may disagree a little.
	Hosts []Stats `json:"hosts,omitempty"`
}

// maxPaths bounds the per-path table, so that a client requesting random paths cannot
// grow it forever; the paths after that are counted under otherPaths. A site of
// several hosts shares the bound between its hosts' tables.
const (
	maxPaths   = 1 << 17
	otherPaths = "(other)"
)

// counters are the live numbers behind Stats, of one host or of the whole site. The hot path takes no lock: every number
// is an atomic, and so is every entry of the per-path table. A lock taken by every
// request serializes the server's goroutines on it, and the benchmarks measure clients
// against this server: a server that queues on its own mutex lowers every client's
// ceiling and adds its waits to every latency.
type counters struct {
	requests, inFlight, peakInFlight atomic.Int64
	open, peakOpen, conns            atomic.Int64
	traps                            atomic.Int64

	paths atomic.Pointer[pathTable] // swapped whole by reset; nil for a site's totals over several hosts
}

// pathTable counts requests per path. sync.Map suits it: after a path's first request
// its counter is found without a lock (the map's read path is lock-free), and the
// paths are a small set read far more often than added to.
type pathTable struct {
	counts   sync.Map     // path → *atomic.Int64
	distinct atomic.Int64 // entries in counts, to bound it
	limit    int64        // the bound
}

func newPathTable() *pathTable { return &pathTable{limit: maxPaths} }

// add counts one request for path. Once limit distinct paths are in, a new path
// is counted under otherPaths; a race may let a few more in than limit, which
// only matters as a bound on memory, and a few entries do not.
func (t *pathTable) add(path string) {
	if n, ok := t.counts.Load(path); ok {
		n.(*atomic.Int64).Add(1)
		return
	}
	if t.distinct.Load() >= t.limit {
		path = otherPaths
	}
	n, loaded := t.counts.LoadOrStore(path, new(atomic.Int64))
	if !loaded {
		t.distinct.Add(1)
	}
	n.(*atomic.Int64).Add(1)
}

// begin and end bracket every counted request.
func (c *counters) begin(path string) {
	c.requests.Add(1)
	raise(&c.peakInFlight, c.inFlight.Add(1))
	if isTrap(path) {
		c.traps.Add(1)
	}
	if t := c.paths.Load(); t != nil {
		t.add(path)
	}
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
	st.Paths = make(map[string]int64)
	if t := c.paths.Load(); t != nil {
		t.counts.Range(func(p, n any) bool {
			st.Paths[p.(string)] = n.(*atomic.Int64).Load()
			return true
		})
	}
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
	if old := c.paths.Load(); old != nil {
		c.paths.Store(&pathTable{limit: old.limit})
	}
}

// The site's side of the counters: with one host, its counters are the site's; with
// several, a request counts on its host and in the site's totals. Two sets of atomics
// cost a few nanoseconds a request; the totals are what a peak of the whole site needs.

func (s *Site) hostCounters(h int) *counters {
	if s.perHost == nil {
		return &s.counters
	}
	return &s.perHost[h]
}

func (s *Site) begin(h int, path string) {
	s.hostCounters(h).begin(path)
	if s.perHost != nil {
		s.counters.begin(path)
	}
}

func (s *Site) end(h int) {
	s.hostCounters(h).end()
	if s.perHost != nil {
		s.counters.end()
	}
}

func (s *Site) connState(h int, conn net.Conn, state http.ConnState) {
	s.hostCounters(h).connState(conn, state)
	if s.perHost != nil {
		s.counters.connState(conn, state)
	}
}

func (s *Site) countTrap(h int) {
	s.hostCounters(h).traps.Add(1)
	if s.perHost != nil {
		s.counters.traps.Add(1)
	}
}

func (s *Site) snapshot() Stats {
	st := s.counters.snapshot()
	for h := range s.perHost {
		hs := s.perHost[h].snapshot()
		for p, n := range hs.Paths {
			st.Paths[p] += n
		}
		st.Hosts = append(st.Hosts, hs)
	}
	return st
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
