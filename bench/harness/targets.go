package harness

import (
	"fmt"
	"math"

	"loopkit/bench/report"
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
		case "S3":
			out = append(out, memoryTargets(sc)...)
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
