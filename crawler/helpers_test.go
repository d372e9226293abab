package crawler_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/crawler/http1"
	"loopkit/loop"
	"loopkit/task"
)

// pages is a test site: path → handler. Unknown paths are 404s, and every
// request is counted by path.
type pages struct {
	mu       sync.Mutex
	hits     map[string]int
	inFlight int
	peak     int
	routes   map[string]http.HandlerFunc
}

func newSite(t *testing.T, routes map[string]http.HandlerFunc) (*httptest.Server, *pages) {
	p := &pages{hits: map[string]int{}, routes: routes}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.hits[r.URL.RequestURI()]++
		p.inFlight++
		p.peak = max(p.peak, p.inFlight)
		h := p.routes[r.URL.Path]
		p.mu.Unlock()
		defer func() { p.mu.Lock(); p.inFlight--; p.mu.Unlock() }()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, p
}

func (p *pages) peakInFlight() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

func (p *pages) count(path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hits[path]
}

// html serves a page linking to each of links.
func html(links ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><body>")
		for _, l := range links {
			fmt.Fprintf(w, `<a href="%s">%s</a> `, l, l)
		}
		fmt.Fprint(w, "</body></html>")
	}
}

func redirect(code int, to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, code) }
}

// crawl runs a crawl to its end and returns its records by URL path.
func crawl(t *testing.T, cfg crawler.Config) (*crawler.Crawler, map[string]*crawler.Record) {
	t.Helper()
	return crawlWith(t, cfg, nil)
}

// crawlWith is crawl, telling made about the crawler before it runs.
func crawlWith(t *testing.T, cfg crawler.Config, made func(*crawler.Crawler)) (*crawler.Crawler, map[string]*crawler.Record) {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if cfg.BackoffBase == 0 {
		cfg.BackoffBase = time.Millisecond // tests do not wait for real backoff
	}
	c, err := crawler.New(l, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if made != nil {
		made(c)
	}
	guard := l.CallLater(60*time.Second, func() { t.Error("crawl hung"); l.Stop() })
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	// By path: tests with several hosts look records up with Records.
	byPath := map[string]*crawler.Record{}
	byURL := map[string]bool{}
	for _, r := range c.Records() {
		if byURL[r.URL] {
			t.Errorf("%s recorded twice", r.URL)
		}
		byURL[r.URL] = true
		rest := r.URL[strings.Index(r.URL, "://")+len("://"):]
		path := rest[strings.Index(rest, "/"):]
		byPath[path] = r
	}
	return c, byPath
}

func paths(m map[string]*crawler.Record) []string {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func status(r *crawler.Record) int {
	if r == nil || r.Status == nil {
		return 0
	}
	return *r.Status
}

// httpLimit is client options with a body limit.
func httpLimit(maxBody int64) http1.Options {
	return http1.Options{Limits: http1.Limits{MaxBodyBytes: maxBody}}
}

// spacedAtLeast says whether two arrivals gap apart at the server kept a
// spacing of want. The slack is a quarter of it: on a loaded machine the
// server may write one arrival down late and the next on time (tens of
// milliseconds were seen beside two busy cores), while the breaks these
// tests look for put requests half the spacing apart, or far less.
func spacedAtLeast(gap, want time.Duration) bool { return gap >= want*3/4 }

// spacedApart says how arrivals at the server (in order) break a spacing
// of want, or returns "" when they keep it. An arrival the server writes
// down late lengthens the gap before it by as much as it shortens the gap
// after it (70 ms of 150 was seen beside two busy cores), so no single
// gap is held to want: it must be a third of it, since two requests sent
// together are near zero apart. Two gaps in a row must add up to twice
// want less half of one: the lateness of the arrival between them
// cancels out, and a request sent a spacing early falls short of it.
func spacedApart(times []time.Time, want time.Duration) string {
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < want/3 {
			return fmt.Sprintf("requests %d and %d arrived %v apart", i-1, i, gap.Round(time.Millisecond))
		}
	}
	for i := 2; i < len(times); i++ {
		if two := times[i].Sub(times[i-2]); two < 2*want-want/2 {
			return fmt.Sprintf("requests %d to %d arrived within %v", i-2, i, two.Round(time.Millisecond))
		}
	}
	return ""
}
