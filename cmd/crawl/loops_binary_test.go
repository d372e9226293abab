package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
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
