package harness

import (
	"testing"

	"loopkit/bench/report"
	"loopkit/bench/stats"
)

// s2Case is an S2 case with the allocations per request and the paired
// CPU ratios of the cost targets.
func s2Case(label string, cbAllocs, taskAllocs, fairAllocs float64, vsFair, vsEpoll stats.Estimate) report.Scenario {
	row := func(v string, allocs float64) report.Row {
		return report.Row{Variant: v, Metrics: map[string]report.Summary{"allocs": {Median: allocs, N: 3}}}
	}
	what := func(a, b string) string {
		for _, p := range cpuPairs {
			if p.a == a && p.b == b {
				return p.what
			}
		}
		return ""
	}
	return report.Scenario{
		ID: "S2",
		Cases: []report.Case{{Label: label, Rows: []report.Row{
			row(loopVariant, cbAllocs), row("reactor-tasks", taskAllocs), row(fairVariant, fairAllocs)}}},
		Comparisons: []report.Comparison{
			{Case: label, What: what(loopVariant, fairVariant), Value: vsFair},
			{Case: label, What: what(loopVariant, floorEpoll), Value: vsEpoll},
		},
	}
}

// The cost targets read what S2 measured and judge it as asked: each
// one met or not met on its own numbers, the interval's upper end
// counting for the scheduler ratio. Checked by hand: judging the
// scheduler ratio by its median alone passes the second case.
func TestCostTargets(t *testing.T) {
	for _, tc := range []struct {
		name string
		sc   report.Scenario
		met  []bool // callbacks' allocs, tasks' allocs, CPU vs goroutines, CPU vs epoll
	}{
		{"all met", s2Case("C = 256", 1, 4, 3, stats.Estimate{Value: 0.97, Lo: 0.95, Hi: 1.02}, stats.Estimate{Value: 1.15}),
			[]bool{true, true, true, true}},
		{"none met", s2Case("C = 64", 2, 7, 2, stats.Estimate{Value: 0.99, Lo: 0.9, Hi: 1.08}, stats.Estimate{Value: 1.25}),
			[]bool{false, false, false, false}},
		{"few, but not fewer than the goroutine", s2Case("C = 64", 2, 6, 1.5, stats.Estimate{Value: 0.97, Lo: 0.95, Hi: 1.02}, stats.Estimate{Value: 1.15}),
			[]bool{false, true, true, true}},
	} {
		got := costTargets(tc.sc)
		if len(got) != len(tc.met) {
			t.Fatalf("%s: %d targets: %+v", tc.name, len(got), got)
		}
		for i, want := range tc.met {
			if got[i].Met != want {
				t.Errorf("%s: %q (got %s) met = %v, want %v", tc.name, got[i].What, got[i].Got, got[i].Met, want)
			}
		}
	}
	// The case with the client on every processor is not judged.
	if got := costTargets(s2Case("C = 64, the client on all 2 processors", 1, 4, 3, stats.Estimate{Value: 1}, stats.Estimate{Value: 1})); len(got) != 0 {
		t.Errorf("judged the two-processor case: %+v", got)
	}
}
