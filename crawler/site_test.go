package crawler_test

import (
	"slices"
	"testing"

	"loopkit/crawler"
	"loopkit/site"
)

// The demo site knows its own link graph; a correct crawler fetches exactly
// the URLs the graph says, each once, obeying robots.txt, and never falls
// for the links inside comments and scripts.
func TestSiteOf2000PagesIsCrawledExactly(t *testing.T) {
	t.Parallel()
	s, err := site.Start(site.Config{Pages: 2000}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, obey := range []bool{true, false} {
		s.Reset()
		c, _ := crawl(t, crawler.Config{Roots: []string{s.URL()}, NoRobots: !obey})
		var got []string
		for _, r := range c.Records() {
			got = append(got, r.URL)
		}
		slices.Sort(got)
		want := s.Expected(obey)
		if len(want) < 2000 {
			t.Fatalf("the site has only %d URLs", len(want))
		}
		if !slices.Equal(got, want) {
			missing, extra := crawler.Diff(want, got), crawler.Diff(got, want)
			t.Fatalf("robots %v: %d recorded, %d expected; missing %v; unexpected %v",
				obey, len(got), len(want), crawler.Head(missing), crawler.Head(extra))
		}
		for _, r := range c.Records() {
			if st := s.Status(r.URL); st != 0 && status(r) != st {
				t.Errorf("%s: recorded status %d, the site says %d", r.URL, status(r), st)
			}
		}
		if hits := s.Stats().TrapHits; hits != 0 {
			t.Fatalf("followed %d links from comments or scripts", hits)
		}
	}
}
