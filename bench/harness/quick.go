package harness

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"loopkit/bench/report"
)

// A smoke run (-quick) is how a learner first meets the benchmark, and its
// tables are long. LookAt is the few lines to read first: for each
// scenario, the comparison it exists to make, with this run's figures
// (which, at smoke-run sizes, only show that the machinery works), and
// what was not run, and why.

// notRun records why a scenario or a variant will not run.
func (c *Config) notRun(what, why string) {
	for _, s := range c.Skipped {
		if strings.HasPrefix(s, what+":") {
			return
		}
	}
	c.Skipped = append(c.Skipped, what+": "+why)
}

// LookAt returns the "what to look at" summary of res, in Markdown, ending
// with a line per scenario or variant that was not run.
func LookAt(res *report.Results, skipped []string) string {
	var b strings.Builder
	b.WriteString("## What to look at\n\n")
	if res.Meta.Quick {
		b.WriteString("A smoke run: tiny counts, and runs of a fraction of a second. The figures show that " +
			"the machinery works, not how fast anything is; `go run ./cmd/bench` measures.\n\n")
	}
	for i := range res.Scenarios {
		s := &res.Scenarios[i]
		if s.Skipped != "" {
			fmt.Fprintf(&b, "- %s did not run: %s\n", s.ID, s.Skipped)
			continue
		}
		if len(s.Cases) == 0 {
			continue
		}
		if line := lookAt(res.Meta, s, &s.Cases[0]); line != "" {
			fmt.Fprintf(&b, "- %s (%s): %s\n", s.ID, s.Cases[0].Label, line)
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(&b, "- Not run: %s\n", s)
	}
	b.WriteString("\n")
	return b.String()
}

// lookAt is the line for one scenario, from its first case.
func lookAt(m report.Meta, s *report.Scenario, c *report.Case) string {
	if len(c.Rows) == 0 {
		return ""
	}
	switch s.ID {
	case "S1":
		lo, hi, theory := math.Inf(1), math.Inf(-1), math.NaN()
		peaks := map[float64]bool{}
		for _, r := range c.Rows {
			w := r.Metrics["wall_s"].Median
			lo, hi = math.Min(lo, w), math.Max(hi, w)
			theory = r.Metrics["theory_s"].Median
			peaks[r.Metrics["server_peak"].Median] = true
		}
		return fmt.Sprintf("Every client takes the theory's time when the server is the bottleneck: %.3f–%.3f s "+
			"here, against %.2f s. The server saw at most %s requests at once.", lo, hi, theory, joinKeys(peaks))
	case "S2":
		return trio(m, c, "cpu_us", "CPU per request", "%.1f µs", "The first two run the same HTTP code, so "+
			"their difference is the scheduler's. The last two differ in the HTTP client.")
	case "S3":
		return trio(m, c, "go_kib", "Go memory per waiting connection", "%.1f KiB", "A goroutine per "+
			"connection costs a stack. The loop keeps a small struct instead.")
	case "S4":
		urls := map[float64]bool{}
		for _, r := range c.Rows {
			urls[r.Metrics["urls"].Median] = true
		}
		return fmt.Sprintf("Every variant runs the same crawl code, and fetched %s URLs. %s", joinKeys(urls),
			trio(m, c, "pages_s", "Pages per second", "%.0f", ""))
	case "S5":
		return trio(m, c, "sys_total", "System calls per request", "%.2f", "")
	case "S6":
		return trio(m, c, "p99_us", "The 99th percentile of latency, at a fixed arrival rate", "%.0f µs",
			"The slowest 1 % is where a scheduler's stalls show.")
	case "S7":
		return millionLookAt(s)
	case "S8":
		return "A loop per processor's wall and CPU over one loop's, pair by pair: where a second loop costs more than 1× wall or 1.05× CPU, the default should be one loop."
	case "S9":
		return "CPU per page of each crawler over loopkit's, peak RSS, and whether each fetched exactly the site's URL set."
	}
	return ""
}

// trio gives metric for the three variants the comparisons turn on: the
// loop, the same HTTP code on goroutines, and net/http's worker pool, by
// the names the tables use. A variant that did not run, or measured
// nothing, is left out; the moral needs all three.
func trio(m report.Meta, c *report.Case, metric, what, format, moral string) string {
	var parts []string
	for _, v := range []string{loopVariant, fairVariant, refVariant} {
		r := c.Row(v)
		if r == nil {
			continue
		}
		x := r.Metrics[metric].Median
		if math.IsNaN(x) {
			continue
		}
		parts = append(parts, fmt.Sprintf("**%s** "+format, m.Label(v), x))
	}
	if len(parts) == 0 {
		return ""
	}
	out := what + ": " + strings.Join(parts, ", ") + "."
	if moral != "" && len(parts) == 3 {
		out += " " + moral
	}
	return out
}

// joinKeys lists a set of counts, smallest first: "2" or "2, 6".
func joinKeys(set map[float64]bool) string {
	var keys []float64
	for k := range set {
		if !math.IsNaN(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var s []string
	for _, k := range keys {
		s = append(s, fmt.Sprintf("%.0f", k))
	}
	return strings.Join(s, ", ")
}
