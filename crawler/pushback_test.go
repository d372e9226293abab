package crawler_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/e2e"
	"loopkit/internal/wirelog"
)

// Every test here judges the crawler from the server's side: what arrived,
// where and when, as internal/wirelog wrote it down.

// A slow host does not hold up a fast one: workers only take URLs from a
// host that may send now, so the fast host's pages all arrive while the
// slow one still has most of its own to go.
func TestSlowHostDoesNotHoldUpTheOthers(t *testing.T) {
	t.Parallel() // it mostly waits
	srv := wirelog.New(t)
	slow := srv.Host("slow", wirelog.Fan(20, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		wirelog.Page(w)
	}))
	fast := srv.Host("fast", wirelog.Fan(40, nil))
	crawl(t, crawler.Config{Roots: []string{slow, fast}, MaxTasks: 10, PerHost: 2})
	slowArr, fastArr := srv.Arrivals("slow"), srv.Arrivals("fast")
	if len(slowArr) != 22 || len(fastArr) != 42 { // robots.txt, the root, the pages
		t.Fatalf("%d requests to the slow host, %d to the fast one", len(slowArr), len(fastArr))
	}
	// Two at a time, 100 ms each: the slow host's middle page comes
	// half a second in; the fast host alone takes a few milliseconds.
	if last, mid := fastArr[len(fastArr)-1].At, slowArr[len(slowArr)/2].At; !last.Before(mid) {
		t.Fatalf("the fast host's last page arrived %v after the slow host's middle one", last.Sub(mid))
	}
}

// A host with a Crawl-delay waits between its own requests, and only its
// own: the other host's pages all arrive before its second page does.
func TestCrawlDelayHoldsOnlyItsHost(t *testing.T) {
	t.Parallel() // it mostly waits
	srv := wirelog.New(t)
	mux := http.NewServeMux()
	mux.Handle("/", wirelog.Fan(2, nil))
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.5\n")
	})
	delayed := srv.Host("delayed", mux)
	other := srv.Host("other", wirelog.Fan(30, nil))
	crawl(t, crawler.Config{Roots: []string{delayed, other}, MaxTasks: 4})
	d, o := srv.Arrivals("delayed"), srv.Arrivals("other")
	if len(d) != 4 || len(o) != 32 {
		t.Fatalf("%d requests to the delayed host, %d to the other", len(d), len(o))
	}
	// Crawl-delay counts from robots.txt, so even the first page waits.
	for i := 1; i < len(d); i++ {
		if gap := d[i].At.Sub(d[i-1].At); gap < 450*time.Millisecond {
			t.Errorf("requests %d and %d to the Crawl-delay host %v apart", i-1, i, gap)
		}
	}
	if last := o[len(o)-1].At; !last.Before(d[2].At) {
		t.Fatalf("the other host finished %v after the delayed host's second page", last.Sub(d[2].At))
	}
}

// tooManyOnce answers the first request for path with 429 and the given
// Retry-After, and everything else with a page.
type tooManyOnce struct {
	mu         sync.Mutex
	path       string
	retryAfter func() string
	done       bool
}

func (h *tooManyOnce) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		first := r.URL.Path == h.path && !h.done
		h.done = h.done || first
		h.mu.Unlock()
		if first {
			w.Header().Set("Retry-After", h.retryAfter())
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// quietAfter checks that after the 429 for path arrived, nothing arrived
// at host for wait: Retry-After holds back every request to the host, not
// only the retry. (A request already in flight could arrive a moment
// after; none is, with --delay spacing them, so the margin is small.)
func quietAfter(t *testing.T, srv *wirelog.Server, host, path string, wait time.Duration) {
	t.Helper()
	var hit time.Time
	for _, a := range srv.Arrivals(host) {
		if a.Path == path {
			hit = a.At
			break
		}
	}
	if hit.IsZero() {
		t.Fatalf("%s never requested", path)
	}
	if early := srv.Within(host, hit.Add(50*time.Millisecond), hit.Add(wait)); len(early) > 0 {
		t.Fatalf("%d requests within Retry-After: first %s %v after the 429", len(early), early[0].Path, early[0].At.Sub(hit))
	}
}

func TestRetryAfterHoldsTheWholeHost(t *testing.T) {
	t.Parallel() // it mostly waits
	for _, tc := range []struct {
		name       string
		retryAfter func() string
		wait       time.Duration
		maxTries   int
	}{
		{"seconds", func() string { return "1" }, time.Second, 0},
		// An HTTP-date has whole seconds: two seconds ahead is more than one.
		{"date", func() string { return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat) }, time.Second, 0},
		// On the last attempt the URL is not retried, but the host still waits.
		{"final attempt", func() string { return "1" }, time.Second, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case has its own server
			srv := wirelog.New(t)
			limit := &tooManyOnce{path: "/p2", retryAfter: tc.retryAfter}
			base := srv.Host("h", limit.wrap(wirelog.Fan(5, nil)))
			_, recs := crawl(t, crawler.Config{Roots: []string{base}, Delay: 100 * time.Millisecond,
				PerHost: 4, MaxTries: tc.maxTries})
			quietAfter(t, srv, "h", "/p2", tc.wait)
			want, tries := 200, 2
			if tc.maxTries == 1 {
				want, tries = 429, 1
			}
			if r := recs["/p2"]; status(r) != want || r.Tries != tries {
				t.Fatalf("/p2 recorded %d after %d tries, want %d after %d", status(r), r.Tries, want, tries)
			}
			if len(recs) != 6 {
				t.Fatalf("recorded %d pages, want 6", len(recs))
			}
		})
	}
}

// A Retry-After longer than --max_retry_after is not shortened: the host
// is given up, and every URL of it is recorded with why.
func TestRetryAfterBeyondTheCapGivesUpTheHost(t *testing.T) {
	t.Parallel()
	srv := wirelog.New(t)
	limit := &tooManyOnce{path: "/p1", retryAfter: func() string { return "120" }}
	base := srv.Host("h", limit.wrap(wirelog.Fan(6, nil)))
	c, recs := crawl(t, crawler.Config{Roots: []string{base}, MaxRetryAfter: time.Second, Delay: 50 * time.Millisecond})
	if r := recs["/p1"]; status(r) != 429 || r.Exception == nil || !strings.Contains(*r.Exception, "MaxRetryAfter") {
		t.Fatalf("/p1: %+v", r)
	}
	notFetched := 0
	for _, r := range c.Records() {
		if r.Status == nil && r.ErrorKind == "retry_after" {
			notFetched++
		}
	}
	// Pages p0…p5: those that arrived before the 429 (and /p1 itself),
	// and those recorded as given up, are all of them, each once.
	if arrived := len(srv.Arrivals("h")) - 2; arrived+notFetched != 6 || notFetched == 0 {
		t.Fatalf("%d pages arrived after robots.txt and the root, %d recorded as given up; want 6 in all", arrived, notFetched)
	}
	quietAfter(t, srv, "h", "/p1", 5*time.Second) // nothing at all after it, in fact
}

// mixedHost answers its pages as a troubled site might: /p0 to /p3 are
// 404, /p4 to /p7 always 500, the rest always a bare 429 (no Retry-After).
func mixedHost(w http.ResponseWriter, r *http.Request) {
	var i int
	if _, err := fmt.Sscanf(r.URL.Path, "/p%d", &i); err != nil {
		http.NotFound(w, r)
		return
	}
	switch i / 4 {
	case 0:
		http.NotFound(w, r)
	case 1:
		w.WriteHeader(http.StatusInternalServerError)
	default:
		w.WriteHeader(http.StatusTooManyRequests)
	}
}

// A host that pushes back on some URLs and answers the others normally is
// not left at a long spacing: the penalty decays as it answers, so after
// the retries' own waits (a bare 429 waits at least 1 s, then 2)
// nothing waits long. Before, the spacing climbed to 30 s and such a crawl
// took minutes (with four tries, seven); with every refusal counted as a
// new congestion event again, by hand, it does not end in a minute. Two
// of its ten pages refuse: each refusal holds the whole server for its
// second or two, so more would only make the test longer.
func TestPushbackPenaltyDecays(t *testing.T) {
	e2e.Only(t, "waits about 14 s of back-offs that double from a second")
	t.Parallel() // it mostly waits
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(10, mixedHost))
	start := time.Now()
	_, recs := crawl(t, crawler.Config{Roots: []string{root}, NoRobots: true, MaxTries: 3, BackoffBase: 500 * time.Millisecond})
	took := time.Since(start)
	if len(recs) != 11 {
		t.Fatalf("%d records, want 11", len(recs))
	}
	arr := srv.Arrivals("h")
	longest := time.Duration(0)
	for i := 1; i < len(arr); i++ {
		longest = max(longest, arr[i].At.Sub(arr[i-1].At))
	}
	t.Logf("%d requests in %v, longest gap %v", len(arr), took.Round(time.Millisecond), longest.Round(time.Millisecond))
	if longest > 5*time.Second {
		t.Errorf("the longest gap between two requests was %v: the host was held back past the retries' own waits", longest)
	}
}

// refusingFirst answers its first n requests, whatever they ask for, with
// a bare 429 (no Retry-After), and the rest with a page.
func refusingFirst(n int) http.Handler {
	var mu sync.Mutex
	seen := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		refuse := seen <= n
		mu.Unlock()
		if refuse {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		wirelog.Page(w)
	})
}

// A bare 429 is treated like a 503: its retry waits at least a second,
// and the wait doubles with each try — measured at the server.
func TestBare429RetryWaitsAtLeastASecondDoubling(t *testing.T) {
	t.Parallel() // it mostly waits
	srv := wirelog.New(t)
	root := srv.Host("h", refusingFirst(2))
	c, recs := crawl(t, crawler.Config{Roots: []string{root}, NoRobots: true, MaxTries: 3, BackoffBase: 100 * time.Millisecond})
	if r := recs["/"]; status(r) != 200 || r.Tries != 3 {
		t.Fatalf("root recorded %+v, want 200 after 3 tries", r)
	}
	// The first refusal slows the server down; the retry refused again
	// is the same congestion event.
	if s := c.Stats(); s.SlowDowns != 1 || s.Retries != 2 {
		t.Errorf("%d slow-downs, %d retries; want 1, 2", s.SlowDowns, s.Retries)
	}
	heldASecondDoubling(t, srv.Arrivals("h"))
}

// A bare 429 holds back the whole server, not only the URL refused: its
// other pages wait a second too, and its retry refused again holds it two
// — measured at the server.
func TestABare429HoldsTheWholeServerASecondDoubling(t *testing.T) {
	t.Parallel() // it mostly waits
	srv := wirelog.New(t)
	base := srv.Host("h", refusingFirst(2))
	var roots []string
	for i := range 4 {
		roots = append(roots, fmt.Sprintf("%s/p%d", base, i))
	}
	_, recs := crawl(t, crawler.Config{Roots: roots, NoRobots: true, PerHost: 1, MaxTries: 3})
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	heldASecondDoubling(t, srv.Arrivals("h"))
}

// heldASecondDoubling checks, at the server, what followed two bare 429s
// in a row. The first holds the server a second. The second holds it by
// the refused page's tries: two seconds when it was the first page's
// retry, one when another page went first (the retry's timer may fire a
// hair after the hold ends, under -race). As spacedApart says, an arrival
// written down late shortens the gap after it by what it adds to the gap
// before: so each gap must be a third of its wait, and the two together
// three quarters of their sum.
func heldASecondDoubling(t *testing.T, arr []wirelog.Arrival) {
	t.Helper()
	if len(arr) < 3 {
		t.Fatalf("%d arrivals, want two refusals and what followed", len(arr))
	}
	var order []string
	for _, a := range arr {
		order = append(order, a.Path)
	}
	second := time.Second // a fresh page's first refusal
	if arr[1].Path == arr[0].Path {
		second = 2 * time.Second // the retry refused again
	}
	for i, least := range []time.Duration{time.Second, second} {
		if gap := arr[i+1].At.Sub(arr[i].At); gap < least/3 {
			t.Errorf("after refusal %d, %s came %v later, want about %v: %v", i+1, arr[i+1].Path, gap.Round(time.Millisecond), least, order)
		}
	}
	if both := arr[2].At.Sub(arr[0].At); !spacedAtLeast(both, time.Second+second) {
		t.Errorf("%s came %v after the first refusal, want at least %v: %v", arr[2].Path, both.Round(time.Millisecond), time.Second+second, order)
	}
}

// robots.txt is a request like any other to its server: the first page
// waits --delay after it, and the Crawl-delay it announces counts from
// it too. Measured at the server.
func TestRobotsTxtCountsAsARequestStart(t *testing.T) {
	t.Parallel() // it mostly waits
	const spacing = 400 * time.Millisecond
	for _, tc := range []struct {
		name   string
		robots string
		delay  time.Duration
	}{
		{"delay", "User-agent: *\nAllow: /\n", spacing},
		{"crawl-delay", "User-agent: *\nCrawl-delay: 0.4\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wirelog.New(t)
			fan := wirelog.Fan(1, nil)
			base := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					fmt.Fprint(w, tc.robots)
					return
				}
				fan.ServeHTTP(w, r)
			}))
			crawl(t, crawler.Config{Roots: []string{base}, Delay: tc.delay, PerHost: 1})
			arr := srv.Arrivals("h")
			if len(arr) < 2 || arr[0].Path != "/robots.txt" {
				t.Fatalf("arrivals %v, want robots.txt first", srv.Paths("h"))
			}
			if gap := arr[1].At.Sub(arr[0].At); !spacedAtLeast(gap, spacing) {
				t.Fatalf("%s came %v after robots.txt, want at least %v", arr[1].Path, gap.Round(time.Millisecond), spacing)
			}
		})
	}
}
