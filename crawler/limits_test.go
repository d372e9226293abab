package crawler_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/wirelog"
)

// inFlight counts, on the server's side, the requests being served at
// once, over every host it wraps.
type inFlight struct {
	mu        sync.Mutex
	now, peak int
}

func (c *inFlight) wrap(hold time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.now++
		c.peak = max(c.peak, c.now)
		c.mu.Unlock()
		time.Sleep(hold)
		next.ServeHTTP(w, r)
		c.mu.Lock()
		c.now--
		c.mu.Unlock()
	})
}

func (c *inFlight) max() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peak
}

// MaxTasks is the chapter's max_tasks on any number of loops: with one
// host, whose loop may use every worker, the server sees exactly MaxTasks
// requests at once — not MaxTasks split between the loops.
func TestMaxTasksIsTheCrawlsOnAnyLoops(t *testing.T) {
	t.Parallel()
	for _, loops := range []int{1, 2, 3} {
		t.Run(fmt.Sprint(loops, " loops"), func(t *testing.T) {
			srv := wirelog.New(t)
			peak := &inFlight{}
			root := srv.Host("h", peak.wrap(60*time.Millisecond, wirelog.Fan(12, nil)))
			g := crawlGroup(t, loops, crawler.Config{Roots: []string{root}, NoRobots: true, MaxTasks: 2, PerHost: 8})
			if got := peak.max(); got != 2 {
				t.Fatalf("the server saw %d requests at once with MaxTasks 2 on %d loops, want 2", got, loops)
			}
			if n := len(g.Records()); n != 13 {
				t.Fatalf("%d records, want 13", n)
			}
		})
	}
}

// With many hosts on many loops, MaxTasks still bounds the requests in
// flight over all of them, exactly.
func TestMaxTasksBoundsEveryLoopTogether(t *testing.T) {
	t.Parallel()
	srv := wirelog.New(t)
	peak := &inFlight{}
	var roots []string
	for i := range 9 {
		roots = append(roots, srv.Host(fmt.Sprint("h", i), peak.wrap(40*time.Millisecond, wirelog.Fan(4, nil))))
	}
	g := crawlGroup(t, 3, crawler.Config{Roots: roots, NoRobots: true, MaxTasks: 5, PerHost: 8})
	if got := peak.max(); got != 5 {
		t.Fatalf("the servers saw %d requests at once with MaxTasks 5 on 3 loops, want 5", got)
	}
	if n := len(g.Records()); n != 9*5 {
		t.Fatalf("%d records, want %d", n, 9*5)
	}
}

// MaxPages is exact on any number of loops: every loop takes its pages
// from one budget, and none starts a page once it is spent.
func TestMaxPagesIsExactOnAnyLoops(t *testing.T) {
	roots := ring(t, 8, 40)
	for round := range 5 {
		g := crawlGroup(t, 3, crawler.Config{Roots: roots, NoRobots: true, MaxPages: 50, MaxTasks: 16})
		if done := g.Stats().Done; done != 50 {
			t.Fatalf("round %d: %d pages with MaxPages 50 on 3 loops, want exactly 50", round, done)
		}
	}
}

// The spacing between two requests to a server counts from the moment
// the first was sent. Each new connection to this host is slow to open,
// and its pages slow to answer, so a request handed out on time reaches
// the server late; the next must still keep its distance at the server.
func TestDelayCountsFromTheSend(t *testing.T) {
	t.Parallel() // it mostly waits
	const delay = 200 * time.Millisecond
	srv := wirelog.New(t)
	slow := func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(250 * time.Millisecond)
		wirelog.Page(w)
	}
	root := srv.HostTLSSlow("h", wirelog.Fan(5, slow), 200*time.Millisecond)
	_, recs := crawl(t, crawler.Config{Roots: []string{root}, HTTP: trusting(srv), Delay: delay, PerHost: 3})
	if len(recs) != 6 {
		t.Fatalf("%d records, want 6", len(recs))
	}
	arr := srv.Arrivals("h")
	times := make([]time.Time, len(arr))
	for i, a := range arr {
		times[i] = a.At
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	// A delay counted from the hand-out, not the send, puts two requests
	// a millisecond apart (the frontier's unsent-request rule removed by
	// hand).
	if why := spacedApart(times, delay); why != "" {
		t.Errorf("--delay %v: %s", delay, why)
	}
}

// A retry waiting out its backoff when its host is given up (here, a
// Retry-After beyond --max_retry_after on another of its pages) is
// recorded with why, and the crawl ends.
func TestRetryOfAGivenUpHostIsRecorded(t *testing.T) {
	srv := wirelog.New(t)
	var mu sync.Mutex
	flaky := 0
	flakyAnswered := make(chan struct{})
	root := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			wirelog.Page(w, "/flaky", "/wait")
		case "/flaky":
			mu.Lock()
			flaky++
			if flaky == 1 {
				defer close(flakyAnswered)
			}
			mu.Unlock()
			w.WriteHeader(http.StatusInternalServerError)
		case "/wait":
			// The host is given up only once /flaky's retry waits out its
			// backoff (300 ms): after /flaky's first answer has gone out,
			// and a little time for the client to read it.
			select {
			case <-flakyAnswered:
			case <-time.After(10 * time.Second):
			}
			time.Sleep(50 * time.Millisecond)
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			http.NotFound(w, r)
		}
	}))
	_, recs := crawl(t, crawler.Config{Roots: []string{root}, NoRobots: true, PerHost: 4,
		BackoffBase: 300 * time.Millisecond, MaxRetryAfter: time.Second})
	r := recs["/flaky"]
	if r == nil || r.ErrorKind != "retry_after" {
		t.Fatalf("/flaky recorded %+v, want it given up with its host", r)
	}
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
}

// Roots pass no cap: the operator asked for them. Two roots on one host
// with MaxPagesPerHost 1 are both fetched, and a root with a query beyond
// MaxQueryVariants too; the links they lead to are capped as usual. (The
// caps refused the second root silently: no record, no failed root.)
func TestRootsPassTheCaps(t *testing.T) {
	srv := wirelog.New(t)
	base := srv.Host("h", wirelog.Fan(3, nil))
	c, recs := crawl(t, crawler.Config{Roots: []string{base + "/", base + "/p1", base + "/p2?x=1", base + "/p2?x=2"},
		NoRobots: true, MaxPagesPerHost: 1, MaxQueryVariants: 1})
	for _, p := range []string{"/", "/p1", "/p2?x=1", "/p2?x=2"} {
		if recs[p] == nil || srv.Count("h", p) != 1 {
			t.Errorf("root %s: recorded %v, fetched %d times", p, recs[p] != nil, srv.Count("h", p))
		}
	}
	if n := len(srv.Arrivals("h")); n != 4 {
		t.Errorf("the server saw %d requests (%v), want the four roots", n, srv.Paths("h"))
	}
	if failed := c.FailedRoots(); len(failed) != 0 {
		t.Errorf("failed roots %v", failed)
	}
}

// A retry is not a page: MaxPages counts first attempts only, robots.txt
// not at all. /flaky fails once, and its retry finds /b, the third page.
func TestARetryDoesNotCountAgainstMaxPages(t *testing.T) {
	var flakes atomic.Int32
	srv, site := newSite(t, map[string]http.HandlerFunc{
		"/": html("/flaky"),
		"/flaky": func(w http.ResponseWriter, r *http.Request) {
			if flakes.Add(1) == 1 {
				http.Error(w, "busy", http.StatusInternalServerError)
				return
			}
			html("/b")(w, r)
		},
		"/b": html(),
	})
	_, recs := crawl(t, crawler.Config{Roots: []string{srv.URL}, MaxPages: 3})
	if got := paths(recs); !slices.Equal(got, []string{"/", "/b", "/flaky"}) || site.count("/flaky") != 2 {
		t.Fatalf("recorded %v, /flaky asked %d times; want 3 pages, one of them retried", got, site.count("/flaky"))
	}
}

// Once the last of MaxPages has started, nothing more does, a retry
// neither: /flaky, the second page of two, fails and is left to do.
func TestNothingStartsAfterTheLastPage(t *testing.T) {
	var flakes atomic.Int32
	srv, site := newSite(t, map[string]http.HandlerFunc{
		"/": html("/flaky"),
		"/flaky": func(w http.ResponseWriter, r *http.Request) {
			if flakes.Add(1) == 1 {
				http.Error(w, "busy", http.StatusInternalServerError)
				return
			}
			html()(w, r)
		},
	})
	c, recs := crawl(t, crawler.Config{Roots: []string{srv.URL}, MaxPages: 2})
	if got := paths(recs); !slices.Equal(got, []string{"/"}) || site.count("/flaky") != 1 || c.Todo() != 1 || !c.Stopping() {
		t.Fatalf("recorded %v, /flaky asked %d times, todo %d, stopping %v; want its retry left to do",
			got, site.count("/flaky"), c.Todo(), c.Stopping())
	}
}
