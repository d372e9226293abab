package crawler_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/internal/wirelog"
	"loopkit/loop"
)

// ring starts hosts servers on 127.0.0.1, each with pages /0 to /pages-1:
// /i links to /i+1 on its own server and to /i on the next server, so
// half the links cross from one server — and often one loop — to another.
func ring(t *testing.T, hosts, pages int) []string {
	t.Helper()
	roots := make([]string, hosts)
	servers := make([]*httptest.Server, hosts)
	for h := range hosts {
		servers[h] = httptest.NewUnstartedServer(nil)
		roots[h] = "http://" + servers[h].Listener.Addr().String() + "/0"
	}
	for h, srv := range servers {
		next := strings.TrimSuffix(roots[(h+1)%hosts], "/0")
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var i int
			if _, err := fmt.Sscanf(r.URL.Path, "/%d", &i); err != nil || i >= pages {
				http.NotFound(w, r)
				return
			}
			html(fmt.Sprintf("/%d", i+1), fmt.Sprintf("%s/%d", next, i))(w, r)
		})
		srv.Start()
		t.Cleanup(srv.Close)
	}
	return roots
}

// crawlGroup crawls on a loop.Group of n loops and returns the crawl.
func crawlGroup(t *testing.T, n int, cfg crawler.Config) *crawler.Group {
	t.Helper()
	lg, err := loop.NewGroup(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := lg.Close(); err != nil {
			t.Error(err)
		}
	}()
	g, err := crawler.NewGroup(lg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- g.Crawl() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		g.Interrupt()
		t.Fatalf("the crawl on %d loops hung", n)
	}
	return g
}

func urlsOf(recs []*crawler.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.URL)
	}
	slices.Sort(out)
	return out
}

// One loop and several crawl the same URLs, each once, and with several
// the links really cross between loops.
func TestGroupCrawlsWhatOneLoopCrawls(t *testing.T) {
	roots := ring(t, 6, 15)
	// Every server's /0 is a root, so that all are in scope; the links
	// across servers are what crosses between loops.
	cfg := crawler.Config{Roots: roots, NoRobots: true, MaxTasks: 12}
	one, _ := crawl(t, cfg)
	want := urlsOf(one.Records())
	if len(want) != 6*16 { // 15 pages and a 404 per server
		t.Fatalf("one loop crawled %d URLs, want %d", len(want), 6*16)
	}
	for _, n := range []int{2, 3} {
		g := crawlGroup(t, n, cfg)
		got := urlsOf(g.Records())
		if !slices.Equal(got, want) {
			t.Errorf("%d loops crawled %d URLs, one loop %d; the sets differ", n, len(got), len(want))
		}
		if len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("%d loops: a URL was crawled twice", n)
		}
		// Servers go to loops by a seeded hash: now and then (one run in
		// 32 with two loops) every server lands on one loop, and no link
		// has another loop to go to.
		spread := map[int]bool{}
		for _, r := range roots {
			spread[crawler.LoopOf(r, n)] = true
		}
		switch {
		case len(spread) > 1 && g.HandedOver() == 0:
			t.Errorf("%d loops: the servers are on %d loops, and no link crossed between them", n, len(spread))
		case len(spread) == 1 && g.HandedOver() != 0:
			t.Errorf("%d loops: every server is on one loop, yet %d links crossed", n, g.HandedOver())
		}
		if s := g.Stats(); s.Done != len(want) || s.Fetched != len(want) {
			t.Errorf("%d loops: stats %+v, want %d done and fetched", n, s, len(want))
		}
		if failed := g.FailedRoots(); len(failed) != 0 {
			t.Errorf("%d loops: failed roots %v", n, failed)
		}
	}
}

// A chain of servers, each page linking only to the next server's: at
// every moment one loop has one page to do and the others nothing, so the
// crawl goes on only if a link on its way to another loop counts as work.
func TestGroupFollowsAChainAcrossLoops(t *testing.T) {
	const hosts = 8
	addrs := make([]string, hosts)
	servers := make([]*httptest.Server, hosts)
	for h := range hosts {
		servers[h] = httptest.NewUnstartedServer(nil)
		addrs[h] = servers[h].Listener.Addr().String()
	}
	var roots []string
	for h, srv := range servers {
		next := "http://" + addrs[(h+1)%hosts] + "/chain"
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/chain":
				html(next)(w, r)
			case "/leaf":
				html()(w, r)
			default:
				http.NotFound(w, r)
			}
		})
		srv.Start()
		t.Cleanup(srv.Close)
		if h == 0 {
			roots = append(roots, "http://"+addrs[h]+"/chain")
		} else {
			roots = append(roots, "http://"+addrs[h]+"/leaf") // in scope, and a dead end
		}
	}
	for range 5 {
		g := crawlGroup(t, 3, crawler.Config{Roots: roots, NoRobots: true})
		if got := len(g.Records()); got != 2*hosts-1 {
			t.Fatalf("%d records, want %d: the crawl ended with links on their way", got, 2*hosts-1)
		}
	}
}

// A crawl on a closed group of loops leaves no goroutine (loops, parse
// workers, connections) and no file descriptor behind.
func TestGroupLeavesNothingBehind(t *testing.T) {
	roots := ring(t, 4, 10)
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	fds, goroutines := len(entries), runtime.NumGoroutine()
	crawlGroup(t, 3, crawler.Config{Roots: roots, NoRobots: true, ParseWorkers: 2, ParseInlineBelow: 1})
	var nowFDs, nowG int
	for range 300 { // the servers notice closed connections in their own time
		entries, _ := os.ReadDir("/proc/self/fd")
		nowFDs, nowG = len(entries), runtime.NumGoroutine()
		if nowFDs <= fds && nowG <= goroutines {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("after the crawl: %d fds (%d before), %d goroutines (%d before)", nowFDs, fds, nowG, goroutines)
}

// A Group calls its callbacks from every loop, but one at a time: a
// callback needs no lock of its own.
func TestGroupCallbacksAreSerialized(t *testing.T) {
	roots := ring(t, 6, 10)
	var inside, overlaps, calls atomic.Int32
	enter := func() {
		if inside.Add(1) > 1 {
			overlaps.Add(1)
		}
		calls.Add(1)
		time.Sleep(200 * time.Microsecond) // widen the window another loop could enter by
		inside.Add(-1)
	}
	cfg := crawler.Config{Roots: roots, MaxTasks: 12,
		OnRecord:  func(*crawler.Record) { enter() },
		OnAttempt: func(*crawler.Attempt) { enter() },
	}
	crawlGroup(t, 3, cfg)
	if calls.Load() < 100 {
		t.Fatalf("only %d callbacks", calls.Load())
	}
	if n := overlaps.Load(); n != 0 {
		t.Fatalf("%d callbacks ran while another was running", n)
	}
}

// A loop the budget tells no waits to be woken once, however often it was
// told no: with few worker slots and two loops, the wake-ups that cross
// between the loops stay a few per page (a loop on the waiting list once
// per refusal was woken hundreds of times a page).
func TestBudgetWakesAWaitingLoopOnce(t *testing.T) {
	roots := ring(t, 8, 40)
	var mu sync.Mutex
	posted := 0
	lg, err := loop.NewGroup(2, &loop.GroupOptions{Options: loop.Options{Trace: func(it *loop.Iteration) {
		mu.Lock()
		posted += it.Posted
		mu.Unlock()
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	g, err := crawler.NewGroup(lg, crawler.Config{Roots: roots, NoRobots: true, MaxTasks: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Crawl(); err != nil {
		t.Fatal(err)
	}
	pages := g.Stats().Done
	mu.Lock()
	defer mu.Unlock()
	if pages != 8*41 || posted > 10*pages {
		t.Fatalf("%d pages, %d callbacks posted across loops; want 328 pages and at most 10 posts a page", pages, posted)
	}
	t.Logf("%d pages, %d posts", pages, posted)
}

// onTwoLoops starts hosts a and b on srv, on ports whose servers go to
// different loops of two: servers go to loops by a hash seeded anew in
// each process, so it tries pairs until one splits. It returns their
// base URLs, and b's name in srv's log.
func onTwoLoops(t *testing.T, srv *wirelog.Server, a, b http.Handler) (baseA, baseB, nameB string) {
	t.Helper()
	for try := 0; try < 64; try++ {
		nameB = fmt.Sprint("b", try)
		baseA, baseB = srv.Host(fmt.Sprint("a", try), a), srv.Host(nameB, b)
		if crawler.LoopOf(baseA, 2) != crawler.LoopOf(baseB, 2) {
			return baseA, baseB, nameB
		}
	}
	t.Fatal("64 pairs of ports, each on one loop")
	return "", "", ""
}

// A page with more links for another loop than the owner takes in at one
// turn (256) has every one of them fetched, and the crawl ends only after
// the last: the owner takes the batch in slices, and the crawl is not over
// while a slice waits. (With the slices past the first dropped, or the
// Group told the batch was in after the first slice, pages were lost and
// the crawl exited 0.)
func TestABigBatchOfLinksCrossesWhole(t *testing.T) {
	const n = 3*256 + 7
	srv := wirelog.New(t)
	var bBase atomic.Value // b's base URL, known once the pair is picked; a's handler reads it
	a, b, nameB := onTwoLoops(t, srv, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		links := make([]string, n)
		for i := range n {
			links[i] = fmt.Sprintf("%s/u%d", bBase.Load(), i)
		}
		wirelog.Page(w, links...)
	}), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w) }))
	bBase.Store(b)
	g := crawlGroup(t, 2, crawler.Config{Roots: []string{a + "/", b + "/"}, NoRobots: true, MaxTasks: 8, ReportURLs: -1})
	if got := len(srv.Arrivals(nameB)); got != n+1 {
		t.Fatalf("b's server saw %d requests, want its root and the %d pages a linked to", got, n)
	}
	if g.HandedOver() < n {
		t.Fatalf("%d links crossed between the loops, want at least %d", g.HandedOver(), n)
	}
}

// A link one loop found for a server another loop owns is written down
// (queued) where it was found, before its page is done: a crawl stopped
// before the owner fetched it goes on with it. Here the page budget stops
// the first run after the two roots, a's root having linked to b's /x;
// the second run fetches /x, once. (With the link journaled only by its
// owner, after the hand-over, the stop lost it: /x was never fetched.)
func TestALinkHandedToAnotherLoopSurvivesAStop(t *testing.T) {
	srv := wirelog.New(t)
	var bBase atomic.Value // b's base URL, known once the pair is picked; a's handler reads it
	a, b, nameB := onTwoLoops(t, srv, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wirelog.Page(w, bBase.Load().(string)+"/x")
	}), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { wirelog.Page(w) }))
	bBase.Store(b)
	dir := t.TempDir()
	cfg := crawler.Config{Roots: []string{a + "/", b + "/"}, NoRobots: true, MaxTasks: 2, MaxPages: 2,
		State: dir + "/state", Output: dir + "/out.jsonl"}
	crawlGroup(t, 2, cfg)
	if n := srv.Count(nameB, "/x"); n != 0 {
		t.Fatalf("/x fetched %d times in the first run, whose page budget was the two roots", n)
	}
	cfg.MaxPages = 0
	crawlGroup(t, 2, cfg)
	if n := srv.Count(nameB, "/x"); n != 1 {
		t.Fatalf("/x fetched %d times over the two runs, want 1", n)
	}
}

// A link handed to the loop that owns its server passed the filters, but
// is new there, not here: a page's num_new_urls counts only the links
// new to its own loop.
func TestALinkHandedOverIsNotNewHere(t *testing.T) {
	var servers []*httptest.Server
	var a, b string // two servers on different loops of two
	for len(servers) < 40 && b == "" {
		srv := httptest.NewUnstartedServer(nil)
		servers = append(servers, srv)
		base := "http://" + srv.Listener.Addr().String()
		switch {
		case a == "":
			a = base
		case crawler.LoopOf(a, 2) != crawler.LoopOf(base, 2):
			b = base
		}
	}
	for _, srv := range servers {
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/" {
				html("/x", b+"/page")(w, r)
				return
			}
			html()(w, r)
		})
		srv.Start()
		t.Cleanup(srv.Close)
	}
	if b == "" {
		t.Skip("no two servers on different loops in 40 tries")
	}
	g := crawlGroup(t, 2, crawler.Config{Roots: []string{a + "/", b + "/leaf"}, NoRobots: true})
	var root *crawler.Record
	for _, r := range g.Records() {
		if r.URL == a+"/" {
			root = r
		}
	}
	if root == nil || root.NumURLs != 2 || root.NumNewURLs != 1 || g.HandedOver() == 0 {
		t.Fatalf("root %+v, %d handed over; want 2 links passed, 1 new here", root, g.HandedOver())
	}
}
