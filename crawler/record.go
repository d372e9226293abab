package crawler

import (
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"loopkit/crawler/http1"
)

// Record is what the crawler learnt about one URL it fetched or tried to:
// the chapter's FetchStatistic, plus depth, tries, time and the kind of
// error. One record per URL, written as a JSON line with -o. Status is
// nil, and Exception set, when no response came at all.
type Record struct {
	URL         string  `json:"url"`
	NextURL     *string `json:"next_url"`  // a redirect's target
	Status      *int    `json:"status"`    // nil when no response came
	Exception   *string `json:"exception"` // what went wrong, if anything
	Size        int     `json:"size"`
	ContentType string  `json:"content_type"` // media type, no parameters
	Encoding    string  `json:"encoding"`     // charset used to decode the body
	NumURLs     int     `json:"num_urls"`     // links that passed the filters (a host's caps are not filters)
	NumNewURLs  int     `json:"num_new_urls"` // of those, not seen before and queued here
	Depth       int     `json:"depth"`
	Tries       int     `json:"tries"`
	ElapsedMS   float64 `json:"elapsed_ms"` // the last attempt, from request to response
	// ErrorKind names the kind of Exception, for counting: one of the
	// ErrorKind constants (errorkind.go), such as "timeout" or "robots".
	ErrorKind string `json:"error_kind,omitempty"`
	// BodySkipped says the body was not read: not HTML, and
	// Config.AllBodies was not set. Size is then what Content-Length
	// declared, or 0.
	BodySkipped bool `json:"body_skipped,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// record counts r, keeps it if the report will list it, and hands it to
// OnRecord. A record is then dropped: a crawl of millions keeps nothing
// per page but its URL's place in the seen set. Only a small crawl keeps
// its records, for the chapter's per-URL report; past Config.ReportURLs
// the records kept so far are let go too, and the report gives the
// tallies alone. The records of the roots, and of where their redirects
// lead, are kept whatever the size: they say whether the roots were
// crawled (FailedRoots).
func (c *Crawler) record(r *Record) {
	c.stats.Done++
	if r.Status != nil {
		c.stats.Fetched++
	}
	if r.Exception != nil {
		c.stats.Errors++
	}
	tally(r, c.stats.Kinds)
	c.roots.note(r)
	if c.listed.keep() {
		c.records = append(c.records, r)
	} else {
		c.records = nil // past ReportURLs: no per-URL report, nothing kept
	}
	c.ext.recorded(r)
	if c.cfg.OnRecord != nil {
		c.out.call(func() { c.cfg.OnRecord(r) })
	}
}

// tally counts r under its kind (ok, redirect, http_error, fetch_error),
// and its kind's detail: http_error:404, fetch_error:timeout, ok_bytes.
func tally(r *Record, t map[string]int) {
	kind, detail := Tally(r)
	t[kind]++
	switch {
	case kind == kindOK:
		t[kindOK+"_bytes"] += r.Size
	case detail != "":
		t[detail]++
	}
}

// Tally is what the report counts r under: its kind (ok, redirect,
// http_error, fetch_error) and, for an error, its detail
// (http_error:404, fetch_error:timeout).
func Tally(r *Record) (kind, detail string) {
	kind = r.kind()
	switch kind {
	case kindFetchError:
		detail = kindFetchError + ":" + r.ErrorKind
	case kindHTTPError:
		detail = fmt.Sprintf("%s:%d", kindHTTPError, *r.Status)
	}
	return kind, detail
}

// rootWatch keeps the records of the roots and of where their redirects
// lead, for FailedRoots: a handful, whatever the crawl's size. A Group's
// loops share one, as a root's redirect may lead to another loop's server.
type rootWatch struct {
	mu         sync.Mutex
	watched    map[string]*Record // nil value: watched, not recorded yet
	disallowed map[string]bool    // watched URLs robots.txt kept us from
}

func newRootWatch(roots []*url.URL) *rootWatch {
	w := &rootWatch{watched: make(map[string]*Record), disallowed: make(map[string]bool)}
	for _, u := range roots {
		w.watched[u.String()] = nil
	}
	return w
}

// note keeps r if its URL is watched, and watches where it redirects to.
func (w *rootWatch) note(r *Record) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.watched[r.URL]; !ok {
		return
	}
	w.watched[r.URL] = r
	if r.NextURL != nil {
		if _, ok := w.watched[*r.NextURL]; !ok {
			w.watched[*r.NextURL] = nil
		}
	}
}

// noteDisallowed notes that robots.txt kept us from u, if it is watched.
func (w *rootWatch) noteDisallowed(u string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.watched[u]; ok {
		w.disallowed[u] = true
	}
}

// isDisallowed says whether robots.txt kept us from the watched URL u.
func (w *rootWatch) isDisallowed(u string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.disallowed[u]
}

// byURL is a copy of the records watched so far.
func (w *rootWatch) byURL() map[string]*Record {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]*Record, len(w.watched))
	for u, r := range w.watched {
		if r != nil {
			out[u] = r
		}
	}
	return out
}

// What a record is, as the report counts it.
const (
	kindOK         = "ok"          // a 2xx answer
	kindRedirect   = "redirect"    // a 3xx with a Location
	kindHTTPError  = "http_error"  // any other status
	kindFetchError = "fetch_error" // no answer at all
)

// kind classifies a record.
func (r *Record) kind() string {
	switch {
	case r.Status == nil:
		return kindFetchError
	case r.NextURL != nil:
		return kindRedirect
	case *r.Status/100 == 2:
		return kindOK
	}
	return kindHTTPError
}

// reportList counts the records and disallowed URLs kept for the per-URL
// report, over every loop of the crawl: the report lists every URL while
// there are at most Config.ReportURLs of them, and none past that.
type reportList struct {
	kept  atomic.Int64
	limit int64
}

// keep says whether one more may be kept.
func (l *reportList) keep() bool {
	if l.kept.Load() > l.limit {
		return false
	}
	return l.kept.Add(1) <= l.limit
}

// complete says whether the report lists every URL: nothing was let go.
func (l *reportList) complete() bool { return l.kept.Load() <= l.limit }

// Attempt is one request the crawler made: which URL, which try, when it
// had joined its host's queue, and — from the HTTP client's Trace — the
// connection that carried it and when each phase ended. Config.OnAttempt
// hears of each; cmd/crawl's --timeline draws them.
type Attempt struct {
	URL    string
	Loop   int           // the loop that made it, in its Group (0 for a lone Crawler); the times below are on its clock
	Robots bool          // a robots.txt fetch, not a page
	Try    int           // 1 for the first attempt
	Queued time.Duration // loop time the URL (re)entered its host's queue
	Trace  http1.Trace   // Trace.Start is when the request left the frontier
	Status int           // 0 when no response came
	Err    string        // why it failed, if it did
}

// ParseEvent is one page a parse worker parsed (Config.OnParse): which
// worker, which page, how big, and when it began and ended. Workers are
// goroutines, on no loop's clock: the times are the process's.
type ParseEvent struct {
	Worker     int // from 0
	URL        string
	Bytes      int
	Start, End time.Time
}
