package harness

import (
	"testing"

	"loopkit/crawler"
)

// S8 crawls each site with the default number of loops and with one, as
// many times each, and the two rows of a case crawl the same pages; the
// crawl children say how many loops they ran on. Seen failing with the
// child ignoring the order's Loops (the one-loop row said 2 loops).
func TestS8PairsTheDefaultWithOneLoop(t *testing.T) {
	res := quickRun(t, []string{"S8"})
	if len(res.Scenarios) != 1 || len(res.Scenarios[0].Cases) != 3 {
		t.Fatalf("want S8 with a case per host count:\n%+v", res.Scenarios)
	}
	for _, c := range res.Scenarios[0].Cases {
		def, one := c.Row(defaultLoopsVariant), c.Row(oneLoopVariant)
		if def == nil || one == nil {
			t.Fatalf("%s: want both rows, have %d", c.Label, len(c.Rows))
		}
		if len(def.Samples) != len(one.Samples) || len(def.Samples) == 0 {
			t.Errorf("%s: %d runs with the default, %d with one loop: not pairs", c.Label, len(def.Samples), len(one.Samples))
		}
		for _, s := range def.Samples {
			if s.Crawl.Loops != crawler.DefaultLoops() {
				t.Errorf("%s: the default ran %d loops, want %d", c.Label, s.Crawl.Loops, crawler.DefaultLoops())
			}
		}
		for _, s := range one.Samples {
			if s.Crawl.Loops != 1 {
				t.Errorf("%s: --loops 1 ran %d loops", c.Label, s.Crawl.Loops)
			}
		}
		if p, q := def.Metrics["pages"].Median, one.Metrics["pages"].Median; p != q || p < 1000 {
			t.Errorf("%s: %v pages with the default, %v with one loop", c.Label, p, q)
		}
		if r := def.Ratios["cpu_s"]; !(r.Value > 0) {
			t.Errorf("%s: no CPU ratio: %+v", c.Label, r)
		}
	}
}
