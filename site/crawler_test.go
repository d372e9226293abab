package site_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/crawler"
	"loopkit/loop"
	"loopkit/site"
)

// crawlSite crawls from roots with loopkit's own crawler on a Group of loops, with its
// default politeness (robots.txt obeyed, 8 requests per host at most), and returns
// the URL of every record, in the order they were made.
func crawlSite(t *testing.T, loops int, roots []string) []string {
	t.Helper()
	lg, err := loop.NewGroup(loops, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := lg.Close(); err != nil {
			t.Error(err)
		}
	}()
	var got []string
	g, err := crawler.NewGroup(lg, crawler.Config{
		Roots:    roots,
		OnRecord: func(r *crawler.Record) { got = append(got, r.URL) }, // the Group calls it one at a time
	})
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
	case <-time.After(2 * time.Minute):
		g.Interrupt()
		<-done
		t.Fatal("the crawl did not end in 2 minutes")
	}
	return got
}

// A real crawl of a site split over five hosts, from their five roots: loopkit's crawler
// records exactly the URLs Expected lists, each once; the server saw each URL once on
// the host it belongs to, and one robots.txt per host; no host ever had more requests
// at once than the crawler's default limit per host.
func TestCrawlerCrawlsAllHosts(t *testing.T) {
	const hosts = 5
	s, err := site.Start(site.Config{Pages: 2000, Hosts: hosts, Seed: 3}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	got := crawlSite(t, 2, s.URLs())
	want := s.Expected(true)
	sorted := slices.Sorted(slices.Values(got))
	if len(slices.Compact(slices.Clone(sorted))) != len(got) {
		t.Errorf("a URL was recorded twice")
	}
	if !slices.Equal(slices.Compact(sorted), want) {
		t.Fatalf("%d URLs recorded, %d expected; missing %v; unexpected %v",
			len(got), len(want), head(minus(want, sorted)), head(minus(sorted, want)))
	}

	st := s.Stats()
	if st.TrapHits != 0 || st.Requests != int64(len(want)+hosts) {
		t.Errorf("the server saw %d requests and %d trap hits; want %d (one robots.txt per host) and 0",
			st.Requests, st.TrapHits, len(want)+hosts)
	}
	for h, hs := range st.Hosts {
		for p, n := range hs.Paths {
			if n != 1 {
				t.Errorf("host %d: %s requested %d times", h, p, n)
			}
		}
		if hs.Paths["/robots.txt"] != 1 {
			t.Errorf("host %d: its robots.txt was not read", h)
		}
		if hs.PeakInFlight > 8 {
			t.Errorf("host %d had %d requests at once, more than the 8 per host the crawler allows", h, hs.PeakInFlight)
		}
	}
}

// The links really cross hosts: a crawl that starts at one host's root and stays on
// that host (the crawler's strict scope) misses a good share of the host's pages,
// reached only through the other hosts, and never leaves the host.
func TestCrawlerMissesPagesBehindOtherHosts(t *testing.T) {
	const hosts = 4
	s, err := site.Start(site.Config{Pages: 1000, Hosts: hosts, Seed: 3}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all := s.Expected(true)
	for h, root := range s.URLs() {
		var own []string // the host's share of the site
		for _, u := range all {
			if originOf(u) == originOf(root) {
				own = append(own, u)
			}
		}
		got := slices.Sorted(slices.Values(crawlSite(t, 1, []string{root})))
		if extra := minus(got, own); len(extra) > 0 {
			t.Errorf("host %d alone: %d URLs that are not the host's own, such as %v", h, len(extra), head(extra))
		}
		missed := minus(own, got)
		if len(missed)*4 < len(own) {
			t.Errorf("host %d alone: the crawl missed %d of the host's %d URLs; want a quarter or more behind other hosts",
				h, len(missed), len(own))
		}
	}
}

func originOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}

// minus lists what is in a and not in b, both sorted.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

func head(s []string) string {
	return strings.Join(s[:min(len(s), 5)], " ")
}
