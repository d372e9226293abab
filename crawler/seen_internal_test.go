package crawler

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/internal/wirelog"
	"loopkit/loop"
	"loopkit/site"
)

// crawlGroup crawls cfg on a Group of n loops, to its end.
func crawlGroup(t *testing.T, n int, cfg Config) *Group {
	t.Helper()
	lg, err := loop.NewGroup(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lg.Close() })
	g, err := NewGroup(lg, cfg)
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
		t.Fatal("the crawl hung")
	}
	return g
}

// siteOf starts the demo site: pages over hosts, each in its own server.
func siteOf(t *testing.T, pages, hosts int) *site.Site {
	t.Helper()
	s, err := site.Start(site.Config{Pages: pages, Hosts: hosts, TrackPaths: 4 * pages}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fetchedOnce says how the site's requests differ from its URLs a polite
// crawler fetches, each once: "" if they do not.
func fetchedOnce(s *site.Site) string {
	st := s.Stats()
	want := s.Expected(true)
	perHost := 0
	for _, h := range st.Hosts {
		perHost += int(h.Paths["/robots.txt"])
	}
	if pages := int(st.Requests) - perHost; pages != len(want) {
		return fmt.Sprintf("the site served %d pages, and has %d URLs to fetch", pages, len(want))
	}
	return ""
}

// Past SeenMemory the seen set lives on disk, and is exact all the same:
// on one loop and on two, with memory for 40 URLs of the site's 3,000,
// the crawl records the site's URLs, each once, and the site serves each
// page once. Most links waited for the disk, and the disk caught repeats;
// on a slow disk, links are found again while their batch is checked.
// Seen failing with answer taking every link of a batch for new, with
// Absent answering that every hash was held (104 URLs recorded), and,
// on the slow disk, with knows not asking the batch with the executor;
// and with a link the disk found new not remembered (fetched again and
// again, until the page budget).
func TestSeenSetOnDiskIsExact(t *testing.T) {
	for _, run := range []struct {
		loops int
		slow  bool
	}{{1, false}, {2, false}, {1, true}} {
		name := fmt.Sprint(run.loops, " loops")
		if run.slow {
			name += ", a slow disk"
		}
		loops := run.loops
		t.Run(name, func(t *testing.T) {
			if run.slow { // links found again while their batch is with the executor
				beforeSeenJob = func() { time.Sleep(5 * time.Millisecond) }
				defer func() { beforeSeenJob = nil }()
			}
			s := siteOf(t, 3000, 3)
			// The page budget, three times the site, ends a crawl that
			// fetches pages again and again: it fails below by name, not
			// by the hang guard's minute.
			g := crawlGroup(t, loops, Config{Roots: s.URLs(), MaxTasks: 20, SeenMemory: 40, ReportURLs: 10000, MaxPages: 3 * 3000})
			var got []string
			passes, asks, repeats := 0, 0, 0
			for i := range g.Len() {
				c := g.Shard(i)
				for _, r := range c.Records() {
					got = append(got, r.URL)
				}
				passes, asks, repeats = passes+c.seen.passes, asks+c.seen.asks, repeats+c.seen.repeats
				if c.seen.left() != 0 {
					t.Errorf("loop %d: %d links still waiting", i, c.seen.left())
				}
			}
			slices.Sort(got)
			if want := s.Expected(true); !slices.Equal(got, want) {
				t.Fatalf("%d recorded, the site has %d URLs; missing %v; not the site's or twice %v",
					len(got), len(want), head(diff(want, got)), head(diff(got, want)))
			}
			if why := fetchedOnce(s); why != "" {
				t.Fatal(why)
			}
			if passes == 0 || asks < len(got)/2 || repeats == 0 {
				t.Fatalf("%d passes over the disk, %d links asked about, %d found seen there: the disk was not used",
					passes, asks, repeats)
			}
			t.Logf("%d URLs; %d passes over the disk for %d links, %d of them seen before", len(got), passes, asks, repeats)
		})
	}
}

// diff is what of a, sorted, b (sorted) lacks; head its first five: what
// a test says of two URL sets that differ. (Diff and Head, for the
// package's outside tests: export_test.go.)
func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

func head(s []string) []string { return s[:min(len(s), 5)] }

// A page's links to itself ("#reviews", its own path) never ask the disk:
// the set knows the pages on the wire. With the seen set on disk from its
// first URLs, a site of 300 pages that link only to themselves is crawled
// with no link found seen on disk. Seen failing (299 found there) with
// sent not noting the page on the wire.
func TestALinkToItsOwnPageNeverAsksTheDisk(t *testing.T) {
	srv := wirelog.New(t)
	root := srv.Host("h", wirelog.Fan(300, func(w http.ResponseWriter, r *http.Request) {
		wirelog.Page(w, "#top", r.URL.Path, "./"+strings.TrimPrefix(r.URL.Path, "/"))
	}))
	c := crawlInternal(t, Config{Roots: []string{root}, NoRobots: true, MaxTasks: 8, SeenMemory: 1})
	if n := c.Stats().Done; n != 301 {
		t.Fatalf("%d recorded, want 301", n)
	}
	if !c.seen.onDisk || c.seen.repeats != 0 {
		t.Fatalf("on disk %v; %d links found seen there, want none", c.seen.onDisk, c.seen.repeats)
	}
}
