//go:build e2e

package harness

import (
	"strings"
	"testing"
)

// Behind the e2e tag (.ci/run's race step runs it): it builds colly's
// module, and runs Scrapy where it is installed, some 17 s.

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
