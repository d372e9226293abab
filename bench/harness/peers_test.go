package harness

import (
	"strings"
	"testing"
)

// S9 compares what the site served with its link graph, path by path:
// the exact set, a page missing, a page fetched twice, a path outside.
// Seen failing with duplicates not counted (a path fetched twice passed
// as exact).
func TestComparePathsSaysHowTheSetDiffers(t *testing.T) {
	want := map[string]int64{"/": 2, "/a": 1}
	for _, c := range []struct {
		got  map[string]int64
		want string
	}{
		{map[string]int64{"/": 2, "/a": 1, "/robots.txt": 2}, "exactly the site's 3 URLs, each once"},
		{map[string]int64{"/": 2}, "1 of its 3 missing, 0 fetched more than once, 0 outside"},
		{map[string]int64{"/": 2, "/a": 2}, "0 of its 3 missing, 1 fetched more than once, 0 outside"},
		{map[string]int64{"/": 2, "/a": 1, "/b": 3}, "0 of its 3 missing, 0 fetched more than once, 3 outside"},
	} {
		if got := comparePaths(c.got, want); !strings.Contains(got, c.want) {
			t.Errorf("%v: %q, want %q", c.got, got, c.want)
		}
	}
}

// The peers scenario runs from a clone with one command: the crawl
// command's crawler always, colly and Scrapy where they can be had, and
// a note names each one skipped. Every crawler that ran fetched pages;
// loopkit fetched exactly the site's URLs.
func TestS9RunsThePeersOrSaysWhy(t *testing.T) {
	res := quickRun(t, []string{"S9"})
	sc := res.Scenarios[0]
	rows := sc.Cases[0].Rows
	lk := sc.Cases[0].Row(peerLoopkit)
	if lk == nil {
		t.Fatalf("no loopkit row: %+v", rows)
	}
	if !strings.HasPrefix(lk.Check, "exactly the site's") {
		t.Errorf("loopkit: %s", lk.Check)
	}
	for _, v := range []string{peerColly, peerScrapy} {
		ran := sc.Cases[0].Row(v) != nil
		said := false
		for _, n := range sc.Notes {
			said = said || strings.Contains(n, "skipped")
		}
		if !ran && !said {
			t.Errorf("%s neither ran nor was said to be skipped: %q", v, sc.Notes)
		}
	}
	for _, r := range rows {
		if r.Metrics["pages"].Median < 1000 || !(r.Metrics["cpu_page_us"].Median > 0) || !(r.Metrics["rss_mib"].Median > 0) {
			t.Errorf("%s: %v pages, %v µs/page, %v MiB", r.Variant, r.Metrics["pages"].Median, r.Metrics["cpu_page_us"].Median, r.Metrics["rss_mib"].Median)
		}
	}
}
