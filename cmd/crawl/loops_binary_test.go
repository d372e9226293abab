package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"loopkit/internal/wirelog"
)

// webOfHosts starts n hosts on srv, "h0" … "h(n-1)", each a fan of pages
// whose leaves link to a page of the next host: a crawl from every root
// finds most of its URLs on one host and some on another. It returns the
// roots.
func webOfHosts(srv *wirelog.Server, n, pages int, leafDelay time.Duration) []string {
	bases := make([]string, n)
	for h := range n {
		bases[h] = srv.Host(fmt.Sprintf("h%d", h), wirelog.Fan(pages, func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(leafDelay)
			wirelog.Page(w, bases[(h+1)%n]+"/p0", bases[(h+1)%n]+"/p1?from="+r.URL.Path[1:])
		}))
	}
	return bases
}

// arrived is what reached the server, as "host path", sorted.
func arrived(as []wirelog.Arrival) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Host+" "+a.Path)
	}
	slices.Sort(out)
	return out
}

// --loops 1 and --loops 3 crawl the same URLs, and the server sees each
// of them once — robots.txt once per host — whichever loop sent it.
func TestLoopsCrawlTheSameURLsOnceEach(t *testing.T) {
	srv := wirelog.New(t)
	roots := webOfHosts(srv, 6, 10, 0)
	var runs [][]string
	for _, loops := range []string{"1", "3"} {
		before := len(srv.Arrivals())
		out := filepath.Join(t.TempDir(), "out.jsonl")
		c := startCrawl(t, append([]string{"-q", "-o", out, "--loops", loops}, roots...)...)
		if code := c.exit(t); code != 0 {
			t.Fatalf("--loops %s: exit %d; stderr: %s", loops, code, c.stderr.String())
		}
		got := arrived(srv.Arrivals()[before:])
		if dup := len(got) - len(slices.Compact(slices.Clone(got))); dup != 0 {
			t.Fatalf("--loops %s: %d requests arrived twice", loops, dup)
		}
		if recs := readJSONL(t, out); len(recs)+6 != len(got) { // robots.txt has no record
			t.Fatalf("--loops %s: %d records for %d arrivals (6 of them robots.txt)", loops, len(recs), len(got))
		}
		runs = append(runs, got)
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Fatalf("--loops 1 sent %d requests, --loops 3 sent %d; they differ", len(runs[0]), len(runs[1]))
	}
	if want := 6 * (1 + 1 + 10 + 10); len(runs[0]) != want { // robots, /, /p0-9, /p1?from=p0-9
		t.Fatalf("%d requests, want %d", len(runs[0]), want)
	}
}

// Ctrl-C reaches every loop: after it nothing new arrives at any host,
// and what did arrive is in the report.
func TestLoopsInterruptStopsEveryLoop(t *testing.T) {
	srv := wirelog.New(t)
	roots := webOfHosts(srv, 6, 20, 100*time.Millisecond)
	c := startCrawl(t, append([]string{"--loops", "3", "--delay", "30ms", "--per_host", "2"}, roots...)...)
	waitFor(t, "twenty requests to arrive", func() bool { return len(srv.Arrivals()) >= 20 })
	c.Process.Signal(os.Interrupt)
	signalled := time.Now()
	if code := c.exit(t); code != 130 {
		t.Fatalf("exit %d, want 130; stderr: %s", code, c.stderr.String())
	}
	all := srv.Arrivals()
	// A request already leaving when the signal came may land a little
	// after it: the signal crosses to every loop through its wake-up fd. A
	// loop that never heard it would go on sending for seconds.
	for _, a := range all {
		if a.At.After(signalled.Add(50 * time.Millisecond)) {
			t.Fatalf("%s %s arrived %v after the interrupt", a.Host, a.Path, a.At.Sub(signalled))
		}
	}
	pages := 0
	for _, a := range all {
		if a.Path != "/robots.txt" {
			pages++
		}
	}
	if done := reportCount(t, c.stdout.String(), "Done"); done != pages {
		t.Fatalf("%d pages arrived, the report says Done: %d", pages, done)
	}
}

// peakServer counts, on the server's side, the requests being served at
// once, and notes when each answer was written in full.
type peakServer struct {
	mu       sync.Mutex
	now      int
	peak     int
	answered map[string]time.Time
}

func (p *peakServer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.now++
		p.peak = max(p.peak, p.now)
		p.mu.Unlock()
		next.ServeHTTP(w, r)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		p.mu.Lock()
		p.now--
		if p.answered == nil {
			p.answered = map[string]time.Time{}
		}
		p.answered[r.URL.Path] = time.Now()
		p.mu.Unlock()
	})
}

// --max_tasks is the chapter's max_tasks whatever --loops says: on one
// host, which one loop owns, the server sees exactly that many requests
// at once — with the default loops (one per processor), with 1, and
// with 3.
func TestMaxTasksIsThePeakAtTheServerOnAnyLoops(t *testing.T) {
	t.Parallel() // its own servers and crawl processes; it mostly waits
	for _, loops := range []string{"", "1", "3"} {
		srv := wirelog.New(t)
		peak := &peakServer{}
		base := srv.Host("h", peak.wrap(slowPages(8, 150*time.Millisecond)))
		args := []string{"-q", "--max_tasks", "2", "--per_host", "8"}
		if loops != "" {
			args = append(args, "--loops", loops)
		}
		c := startCrawl(t, append(args, base)...)
		if code := c.exit(t); code != 0 {
			t.Fatalf("--loops %q: exit %d; stderr: %s", loops, code, c.stderr.String())
		}
		if peak.peak != 2 {
			t.Fatalf("--loops %q: the server saw %d requests at once with --max_tasks 2, want 2", loops, peak.peak)
		}
	}
}

// A second Ctrl-C cancels what is in flight, but not what has already
// been answered: every page the server had answered in full well before
// the second signal is in the JSON Lines, and what was recorded plus what
// is left to do is every URL found.
func TestSecondInterruptLosesNoAnswer(t *testing.T) {
	srv := wirelog.New(t)
	peak := &peakServer{}
	base := srv.Host("h", peak.wrap(wirelog.Fan(40, func(w http.ResponseWriter, r *http.Request) {
		var i int
		fmt.Sscanf(r.URL.Path, "/p%d", &i)
		time.Sleep(time.Duration(i%4) * 60 * time.Millisecond)
		wirelog.Page(w)
	})))
	out := filepath.Join(t.TempDir(), "out.jsonl")
	c := startCrawl(t, "-q", "-o", out, "--per_host", "8", "--max_tasks", "8", base)
	waitFor(t, "ten pages to arrive", func() bool { return len(srv.Arrivals("h")) >= 10 })
	c.Process.Signal(os.Interrupt)
	time.Sleep(80 * time.Millisecond)
	second := time.Now()
	c.Process.Signal(os.Interrupt)
	if code := c.exit(t); code != 130 {
		t.Fatalf("exit %d, want 130; stderr: %s", code, c.stderr.String())
	}
	recs := readJSONL(t, out)
	recorded := map[string]bool{}
	for _, r := range recs {
		u := r["url"].(string)
		recorded[u[len(base):]] = true
	}
	peak.mu.Lock()
	defer peak.mu.Unlock()
	for path, at := range peak.answered {
		if path != "/robots.txt" && at.Before(second.Add(-30*time.Millisecond)) && !recorded[path] {
			t.Errorf("%s was answered %v before the second interrupt, and not recorded", path, second.Sub(at))
		}
	}
	todo := reportCount(t, c.stdout.String(), "Todo")
	if len(recs)+todo != 41 {
		t.Fatalf("%d recorded + %d to do = %d, want the 41 URLs found", len(recs), todo, len(recs)+todo)
	}
}
