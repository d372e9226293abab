package crawler_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/wirelog"
	"loopkit/site"
)

func startSite(t *testing.T) *site.Site {
	s, err := site.Start(site.Config{}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A server that drops the connection twice and then answers: the crawler
// retries, and records the URL once, with status 200 after three tries.
// Allowed one try only, it records the failure instead.
func TestDroppedConnectionsAreRetried(t *testing.T) {
	s := startSite(t)
	c, _ := crawl(t, crawler.Config{Roots: []string{s.URL() + "drop?id=a&times=2"}, NoRobots: true})
	recs := c.Records()
	if len(recs) != 1 || status(recs[0]) != 200 || recs[0].Tries != 3 || recs[0].Exception != nil {
		t.Fatalf("records %+v", recs[0])
	}
	c, _ = crawl(t, crawler.Config{Roots: []string{s.URL() + "drop?id=b&times=2"}, NoRobots: true, MaxTries: 1})
	recs = c.Records()
	if len(recs) != 1 || recs[0].Status != nil || recs[0].Exception == nil || recs[0].Tries != 1 {
		t.Fatalf("with max_tries 1: %+v", recs[0])
	}
}

func TestTransientStatusesRetriedOthersNot(t *testing.T) {
	t.Parallel() // it mostly waits
	s := startSite(t)
	c, _ := crawl(t, crawler.Config{Roots: []string{
		s.URL() + "flaky?id=x&fail=2",
		s.URL() + "no-such-page",
	}, NoRobots: true})
	for _, r := range c.Records() {
		switch {
		case strings.Contains(r.URL, "flaky"):
			if status(r) != 200 || r.Tries != 3 {
				t.Errorf("503, 503, 200: recorded %d after %d tries", status(r), r.Tries)
			}
		default:
			if status(r) != 404 || r.Tries != 1 {
				t.Errorf("404: recorded %d after %d tries (a 404 is never retried)", status(r), r.Tries)
			}
		}
	}
}

// starts records when each request reached the server, for spacing checks.
type starts struct {
	mu sync.Mutex
	at []time.Time
}

func (s *starts) mark() {
	s.mu.Lock()
	s.at = append(s.at, time.Now())
	s.mu.Unlock()
}

func (s *starts) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.at)
}

func (s *starts) times() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.at)
}

func spacedSite(t *testing.T, robotsTxt string, st *starts) string {
	var links []string
	routes := map[string]http.HandlerFunc{}
	for i := range 4 {
		p := fmt.Sprintf("/p%d", i)
		links = append(links, p)
		routes[p] = func(w http.ResponseWriter, r *http.Request) { st.mark(); html()(w, r) }
	}
	routes["/"] = func(w http.ResponseWriter, r *http.Request) { st.mark(); html(links...)(w, r) }
	if robotsTxt != "" {
		routes["/robots.txt"] = func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, robotsTxt) }
	}
	srv, _ := newSite(t, routes)
	return srv.URL
}

func TestDelayAndCrawlDelaySpaceRequestStarts(t *testing.T) {
	t.Parallel() // it mostly waits
	// Gaps are measured where requests arrive, so scheduling noise on a
	// busy machine can shave some off one gap (70 ms of 150 was seen, at
	// a load of 5); spacedApart allows for it, and holds the whole span.
	const delay = 150 * time.Millisecond
	var byDelay starts
	crawl(t, crawler.Config{Roots: []string{spacedSite(t, "", &byDelay)}, Delay: delay})
	if why := spacedApart(byDelay.times(), delay); why != "" || byDelay.count() != 5 {
		t.Fatalf("--delay %v: %d requests; %s", delay, byDelay.count(), why)
	}
	var byRobots starts
	crawl(t, crawler.Config{Roots: []string{spacedSite(t, "User-agent: *\nCrawl-delay: 0.25\n", &byRobots)}})
	if why := spacedApart(byRobots.times(), 250*time.Millisecond); why != "" || byRobots.count() != 5 {
		t.Fatalf("Crawl-delay 0.25: %d requests; %s", byRobots.count(), why)
	}
}

// A Crawl-delay past MaxCrawlDelay spaces requests by the cap: a host
// cannot stall the crawl of its pages for days with one line.
func TestCrawlDelayIsCappedByMaxCrawlDelay(t *testing.T) {
	t.Parallel() // it mostly waits
	const limit = 150 * time.Millisecond
	var st starts
	crawl(t, crawler.Config{Roots: []string{spacedSite(t, "User-agent: *\nCrawl-delay: 5\n", &st)}, MaxCrawlDelay: limit})
	times := st.times()
	if why := spacedApart(times, limit); why != "" || len(times) != 5 {
		t.Fatalf("%d requests; %s", len(times), why)
	}
	// Uncapped, the five requests would take 20 s; capped, 0.6 s. The
	// bound is generous, for a busy machine.
	if span := times[4].Sub(times[0]); span > 4*time.Second {
		t.Fatalf("five requests took %v: the Crawl-delay of 5 s was not capped at %v", span.Round(time.Millisecond), limit)
	}
}

func TestPerHostLimitIsThePeakAtTheServer(t *testing.T) {
	t.Parallel()
	routes := map[string]http.HandlerFunc{}
	var links []string
	for i := range 12 {
		p := fmt.Sprintf("/p%d", i)
		links = append(links, p)
		routes[p] = func(w http.ResponseWriter, r *http.Request) { time.Sleep(20 * time.Millisecond); html()(w, r) }
	}
	routes["/"] = html(links...)
	srv, site := newSite(t, routes)
	crawl(t, crawler.Config{Roots: []string{srv.URL}, MaxTasks: 10, PerHost: 3})
	if peak := site.peakInFlight(); peak != 3 {
		t.Fatalf("server-side peak %d with --per_host 3", peak)
	}
}

func TestRobotsRules(t *testing.T) {
	t.Parallel() // it mostly waits
	robotsRoute := func(code int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code); fmt.Fprint(w, body) }
	}
	links := html("/public", "/private/x", "/only-us", "/everyone", "/private/open")
	cases := []struct {
		name    string
		robots  http.HandlerFunc
		fetched []string
		skipped []string
	}{
		{"200: longest match, Allow wins, our group", robotsRoute(200,
			"User-agent: *\nDisallow: /everyone\n\nUser-agent: LoopKit\nDisallow: /private/\nAllow: /private/open\nDisallow: /only-us\n"),
			[]string{"/", "/public", "/private/open", "/everyone"}, []string{"/private/x", "/only-us"}},
		{"404 means allow all", robotsRoute(404, ""),
			[]string{"/", "/public", "/private/x", "/only-us", "/everyone", "/private/open"}, nil},
		{"503 means disallow all", robotsRoute(503, ""),
			nil, []string{"/", "/public"}},
		{"redirect is followed", redirect(301, "/real-robots.txt"),
			[]string{"/", "/public", "/only-us", "/everyone"}, []string{"/private/x", "/private/open"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case has its own site
			srv, site := newSite(t, map[string]http.HandlerFunc{
				"/": links, "/public": html(), "/private/x": html(), "/only-us": html(),
				"/everyone": html(), "/private/open": html(),
				"/robots.txt":      tc.robots,
				"/real-robots.txt": robotsRoute(200, "User-agent: *\nDisallow: /private/\n"),
			})
			// Two tries: a 503 is asked once more, a second later, before
			// it means "disallow all" (each try doubles the wait).
			c, _ := crawl(t, crawler.Config{Roots: []string{srv.URL}, MaxTries: 2})
			for _, p := range tc.fetched {
				if site.count(p) != 1 {
					t.Errorf("%s fetched %d times, want once", p, site.count(p))
				}
			}
			for _, p := range tc.skipped {
				if site.count(p) != 0 {
					t.Errorf("%s fetched although robots.txt forbids it", p)
				}
			}
			if s := c.Stats(); s.RobotsFetches == 0 || site.count("/robots.txt") == 0 {
				t.Errorf("robots.txt was not fetched")
			}
			for _, r := range c.Records() {
				if strings.HasSuffix(r.URL, "robots.txt") {
					t.Errorf("robots.txt recorded as a page")
				}
			}
		})
	}
}

// A page whose every attempt dies on a kept-alive connection reaches the
// server at most --max_tries times, though the client sends a request
// again on a fresh connection when a kept-alive one dies under it: that
// resend is an attempt the server sees, and on the last one it is not
// made. Counted at the server.
func TestAttemptsAtTheServerNeverExceedMaxTries(t *testing.T) {
	t.Parallel()
	for _, tries := range []int{2, 3, 4} {
		t.Run(fmt.Sprint(tries), func(t *testing.T) {
			srv := wirelog.New(t)
			var leaves []string
			for i := range 6 {
				leaves = append(leaves, fmt.Sprintf("/p%d", i))
			}
			links := append([]string{leaves[0], "/dies"}, leaves[1:]...)
			base := srv.Host("h", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/":
					wirelog.Page(w, links...)
				case "/dies": // read, then the connection closes with no answer
					if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
						conn.Close()
					}
				default:
					time.Sleep(20 * time.Millisecond) // the retry's backoff ends while these go: a kept-alive connection waits for it
					wirelog.Page(w)
				}
			}))
			_, recs := crawl(t, crawler.Config{Roots: []string{base}, NoRobots: true, PerHost: 1, MaxTries: tries,
				BackoffBase: 30 * time.Millisecond})
			r := recs["/dies"]
			if r == nil || r.Exception == nil {
				t.Fatalf("/dies recorded %+v, want an error", r)
			}
			if n := srv.Count("h", "/dies"); n > tries {
				t.Fatalf("/dies reached the server %d times, --max_tries %d (recorded after %d tries: %s)", n, tries, r.Tries, *r.Exception)
			}
			if r.Tries > tries {
				t.Fatalf("/dies recorded after %d tries, --max_tries %d", r.Tries, tries)
			}
			t.Logf("/dies: %d arrivals, recorded after %d tries: %s", srv.Count("h", "/dies"), r.Tries, *r.Exception)
		})
	}
}

// Too many server errors among a host's last answers is pushback too: a
// 500, final or not, counts as a failure, and the host is slowed down.
func TestServerErrorsSlowTheHostDown(t *testing.T) {
	var pages []string
	routes := map[string]http.HandlerFunc{}
	for i := range 30 {
		p := fmt.Sprintf("/e%d", i)
		pages = append(pages, p)
		routes[p] = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "broken", 500) }
	}
	routes["/"] = html(pages...)
	srv, _ := newSite(t, routes)
	c, recs := crawl(t, crawler.Config{Roots: []string{srv.URL}, NoRobots: true, MaxTries: 1})
	if s := c.Stats(); len(recs) != 31 || s.SlowDowns != 1 || s.Retries != 0 || s.Kinds["http_error:500"] != 30 {
		t.Fatalf("%d records, %d slow-downs, %d retries, kinds %v; want 31 records, the host slowed down once",
			len(recs), s.SlowDowns, s.Retries, s.Kinds)
	}
}

// A redirect's Retry-After is heard like a 429's: longer than
// MaxRetryAfter, the redirect is recorded as given up. (Its target, queued
// before the host is given up, is still fetched: reported as a bug, not
// asserted here.)
func TestARedirectsRetryAfterBeyondTheCapGivesUpTheHost(t *testing.T) {
	srv, _ := newSite(t, map[string]http.HandlerFunc{
		"/": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "3600")
			http.Redirect(w, r, "/there", http.StatusMovedPermanently)
		},
		"/there": html(),
	})
	_, recs := crawl(t, crawler.Config{Roots: []string{srv.URL}, NoRobots: true, MaxRetryAfter: time.Minute})
	if r := recs["/"]; status(r) != 301 || r.ErrorKind != "retry_after" {
		t.Fatalf("root %+v", r)
	}
}

// A Retry-After of exactly MaxRetryAfter is waited for, not given up.
func TestARetryAfterOfTheCapIsWaitedFor(t *testing.T) {
	var once sync.Once
	srv, _ := newSite(t, map[string]http.HandlerFunc{
		"/": func(w http.ResponseWriter, r *http.Request) {
			refused := false
			once.Do(func() { refused = true })
			if refused {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(503)
				return
			}
			html()(w, r)
		},
	})
	// The host's clock holds the retry back, not the backoff (an hour:
	// the crawl would hang).
	_, recs := crawl(t, crawler.Config{Roots: []string{srv.URL}, NoRobots: true, MaxRetryAfter: time.Second, BackoffBase: time.Hour})
	if r := recs["/"]; status(r) != 200 || r.Tries != 2 || r.ErrorKind != "" {
		t.Fatalf("root %+v, want 200 after waiting once", r)
	}
}

// robots.txt's redirects are followed five deep (RFC 9309 §2.3.1.2), and
// no further: past that there is no file, and everything is allowed.
func TestRobotsTxtRedirectsAreFollowedFiveDeep(t *testing.T) {
	routes := map[string]http.HandlerFunc{
		"/robots.txt": redirect(301, "/r1"),
		"/r6":         func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nDisallow: /private\n") },
		"/":           html("/private"),
		"/private":    html(),
	}
	for i := 1; i <= 5; i++ {
		routes[fmt.Sprintf("/r%d", i)] = redirect(301, fmt.Sprintf("/r%d", i+1))
	}
	srv, site := newSite(t, routes)
	_, recs := crawl(t, crawler.Config{Roots: []string{srv.URL}})
	if site.count("/r5") != 1 || site.count("/r6") != 0 || status(recs["/private"]) != 200 {
		t.Fatalf("/r5 asked %d times, /r6 %d; recorded %v", site.count("/r5"), site.count("/r6"), paths(recs))
	}
}

// A root robots.txt forbids is a failed root, and says why.
func TestADisallowedRootFails(t *testing.T) {
	srv, _ := newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nDisallow: /private\n") },
		"/private":    html(),
		"/":           html(),
	})
	c, _ := crawl(t, crawler.Config{Roots: []string{srv.URL + "/private", srv.URL + "/"}})
	if failed := c.FailedRoots(); !slices.Equal(failed, []string{srv.URL + "/private: disallowed by robots.txt"}) {
		t.Fatalf("failed roots %q", failed)
	}
}

// The URLs robots.txt kept out are listed like the records: while the
// crawl has at most ReportURLs of both, and none past that.
func TestDisallowedURLsAreNotKeptPastReportURLs(t *testing.T) {
	srv, _ := newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nDisallow: /p\n") },
		"/":           html("/p1", "/p2", "/p3"),
	})
	c, _ := crawl(t, crawler.Config{Roots: []string{srv.URL}, ReportURLs: 2})
	if d, s := c.Disallowed(), c.Stats(); len(d) != 0 || s.RobotsDisallowed != 3 || len(c.Records()) != 0 {
		t.Fatalf("kept %d disallowed and %d records past ReportURLs 2; counted %d disallowed", len(d), len(c.Records()), s.RobotsDisallowed)
	}
}
