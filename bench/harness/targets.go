package harness

import (
	"fmt"
	"math"
	"strings"

	"loopkit/bench/report"
	"loopkit/bench/stats"
)

// evaluateTargets sets what was measured against the project's targets
// for a 2-core machine. They are reported, never asserted: a benchmark
// that fails on a busy machine proves nothing. A value that cannot be a
// measurement (missing, NaN, zero or negative where only a positive
// number makes sense) is never a target met: it says so instead.
func evaluateTargets(r *report.Results) []report.Target {
	var out []report.Target
	for _, sc := range r.Scenarios {
		if sc.Skipped != "" {
			continue
		}
		switch sc.ID {
		case "S1":
			out = append(out, latencyTargets(sc)...)
		case "S2":
			out = append(out, throughputTargets(sc)...)
			out = append(out, costTargets(sc)...)
		case "S3":
			out = append(out, memoryTargets(sc)...)
		case "S7":
			out = append(out, millionTargets(sc)...)
		}
	}
	return out
}

// reactors are the variants the targets are about.
var reactors = []string{"reactor-callbacks", "reactor-tasks"}

// plausible says whether x can be a measured cost or rate.
func plausible(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) && x > 0 }

// judge is a target whose value must be plausible before it is compared.
func judge(scenario, what, want string, value float64, shown string, ok func(float64) bool) report.Target {
	t := report.Target{Scenario: scenario, What: what, Want: want, Got: shown}
	if !plausible(value) {
		t.Got = fmt.Sprintf("not measured (%v)", value)
		return t
	}
	t.Met = ok(value)
	return t
}

func latencyTargets(sc report.Scenario) []report.Target {
	var out []report.Target
	for _, c := range sc.Cases {
		var limit int
		if _, err := fmt.Sscanf(c.Label, "C = %d", &limit); err != nil {
			continue // C = ∞: the targets are about bounded variants
		}
		met, worst, peaks := true, 0.0, ""
		for _, row := range c.Rows {
			dev, peak := row.Metrics["vs_theory_pct"], row.Metrics["server_peak"]
			if dev.N == 0 || math.IsNaN(dev.Median) || math.Abs(dev.Median) > 5 {
				met = false
			}
			if dev.N > 0 && math.Abs(dev.Median) > math.Abs(worst) {
				worst = dev.Median
			}
			if peak.N == 0 || peak.Min != float64(limit) || peak.Max != float64(limit) {
				met = false
				peaks += fmt.Sprintf("; %s peak %.0f–%.0f", row.Variant, peak.Min, peak.Max)
			}
		}
		out = append(out, report.Target{
			Scenario: "S1", What: c.Label + ": every variant within 5% of theory, server peak = C",
			Want: fmt.Sprintf("≤ 5%%, peak %d", limit),
			Got:  fmt.Sprintf("worst %+.1f%%%s", worst, peaks),
			Met:  met,
		})
	}
	return out
}

func throughputTargets(sc report.Scenario) []report.Target {
	var out []report.Target
	for _, c := range sc.Cases {
		for _, name := range reactors {
			row := c.Row(name)
			if row == nil {
				continue
			}
			if r, ok := row.Ratios["rps"]; ok && c.Row(refVariant) != nil {
				out = append(out, judge("S2", c.Label+", "+name+": req/s over the worker pool's (paired)", "≥ 1.30×",
					r.Value, report.FormatEstimate(r, 2, "×"), func(x float64) bool { return x >= 1.3 }))
			}
			if r, ok := row.Ratios["cpu_us"]; ok && c.Row(refVariant) != nil {
				out = append(out, judge("S2", c.Label+", "+name+": CPU per request over the worker pool's (paired)", "≤ 0.50×",
					r.Value, report.FormatEstimate(r, 2, "×"), func(x float64) bool { return x <= 0.5 }))
			}
			rps := row.Metrics["rps"]
			out = append(out, judge("S2", c.Label+", "+name+": requests per second", "≥ 32,000",
				rps.Median, report.FormatSummary(rps, 0, true), func(x float64) bool { return x >= 32000 }))
		}
	}
	return out
}

// costTargets are what a request on the loop may cost, next to the same
// HTTP code on a goroutine per connection and to the raw epoll floor: its
// allocations (which do not vary) and its CPU, paired by round, in the
// cases where every client has one processor.
func costTargets(sc report.Scenario) []report.Target {
	var out []report.Target
	for _, c := range sc.Cases {
		cb, tasks, fair := c.Row(loopVariant), c.Row("reactor-tasks"), c.Row(fairVariant)
		if cb == nil || fair == nil || strings.Contains(c.Label, "processors") {
			continue
		}
		a, g := cb.Metrics["allocs"], fair.Metrics["allocs"]
		out = append(out, judge("S2", c.Label+": allocations per request, loop callbacks",
			fmt.Sprintf("≤ 2, and fewer than a goroutine per conn's (%s)", report.FormatNumber(g.Median, 1)),
			a.Median, report.FormatNumber(a.Median, 1), func(x float64) bool { return x <= 2 && x < g.Median }))
		if tasks != nil {
			a := tasks.Metrics["allocs"]
			out = append(out, judge("S2", c.Label+": allocations per request, loop tasks (a task per request)", "≤ 6",
				a.Median, report.FormatNumber(a.Median, 1), func(x float64) bool { return x <= 6 }))
		}
		if r, ok := comparison(sc, c.Label, loopVariant, fairVariant); ok {
			out = append(out, judge("S2", c.Label+": CPU/req, loop callbacks ÷ goroutine per conn, same HTTP code (paired)",
				"≤ 1.00×, the interval's upper end ≤ 1.05×", r.Value, report.FormatEstimate(r, 2, "×"),
				func(x float64) bool { return x <= 1 && r.Hi <= 1.05 }))
		}
		if r, ok := comparison(sc, c.Label, loopVariant, floorEpoll); ok {
			out = append(out, judge("S2", c.Label+": CPU/req, loop callbacks ÷ raw epoll (paired)", "≤ 1.20×",
				r.Value, report.FormatEstimate(r, 2, "×"), func(x float64) bool { return x <= 1.2 }))
		}
	}
	return out
}

// comparison finds S2's paired CPU ratio of a to b in case label.
func comparison(sc report.Scenario, label, a, b string) (stats.Estimate, bool) {
	for _, p := range cpuPairs {
		if p.a != a || p.b != b {
			continue
		}
		for _, c := range sc.Comparisons {
			if c.Case == label && c.What == p.what {
				return c.Value, true
			}
		}
	}
	return stats.Estimate{}, false
}

func memoryTargets(sc report.Scenario) []report.Target {
	limits := map[string]float64{"reactor-callbacks": 6, "reactor-tasks": 12}
	var out []report.Target
	for _, c := range sc.Cases {
		for _, name := range reactors {
			row := c.Row(name)
			if row == nil {
				continue
			}
			k := row.Metrics["go_kib"]
			out = append(out, judge("S3", name+": KiB of Go heap and stacks per established connection",
				fmt.Sprintf("≤ %.0f", limits[name]), k.Median, report.FormatSummary(k, 2, true),
				func(x float64) bool { return x <= limits[name] }))
		}
	}
	return out
}
