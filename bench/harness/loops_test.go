package harness

import (
	"runtime"
	"testing"

	"loopkit/internal/e2e"
)

// S8 crawls each site with a loop per processor and with one, as many
// times each, and the two rows of a case crawl the same pages; the crawl
// children say how many loops they ran on. Seen failing with the child
// ignoring the order's Loops (the one-loop row said 2 loops; then, with
// the default at one loop here, the per-processor row said 1).
func TestS8PairsLoopsPerProcessorWithOne(t *testing.T) {
	e2e.Only(t, "crawls three sites in child processes twice over, about 4 s of both cores")
	res := quickRun(t, []string{"S8"})
	if len(res.Scenarios) != 1 || len(res.Scenarios[0].Cases) != 3 {
		t.Fatalf("want S8 with a case per host count:\n%+v", res.Scenarios)
	}
	for _, c := range res.Scenarios[0].Cases {
		def, one := c.Row(perCPULoopsVariant), c.Row(oneLoopVariant)
		if def == nil || one == nil {
			t.Fatalf("%s: want both rows, have %d", c.Label, len(c.Rows))
		}
		if len(def.Samples) != len(one.Samples) || len(def.Samples) == 0 {
			t.Errorf("%s: %d runs with the default, %d with one loop: not pairs", c.Label, len(def.Samples), len(one.Samples))
		}
		for _, s := range def.Samples {
			if want := min(runtime.NumCPU(), 8); s.Crawl.Loops != want {
				t.Errorf("%s: a loop per processor ran %d loops, want %d", c.Label, s.Crawl.Loops, want)
			}
		}
		for _, s := range one.Samples {
			if s.Crawl.Loops != 1 {
				t.Errorf("%s: --loops 1 ran %d loops", c.Label, s.Crawl.Loops)
			}
		}
		if p, q := def.Metrics["pages"].Median, one.Metrics["pages"].Median; p != q || p < 1000 {
			t.Errorf("%s: %v pages with a loop per processor, %v with one", c.Label, p, q)
		}
		if r := def.Ratios["cpu_s"]; !(r.Value > 0) {
			t.Errorf("%s: no CPU ratio: %+v", c.Label, r)
		}
	}
}
