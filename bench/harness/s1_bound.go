package harness

import (
	"context"
	"fmt"
	"math"

	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// bound is S1, the source article's table: N requests to an endpoint that
// takes a fixed delay, at several concurrencies. Every model should take
// ceil(N/C) × delay; what tells them apart is the server's peak of
// requests in flight, which must equal C.
func (b *bench) bound(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	delay := float64(z.s1DelayMS) / 1000
	sc := report.Scenario{
		ID:     "S1",
		Title:  fmt.Sprintf("latency-bound: %d × %d ms", z.s1N, z.s1DelayMS),
		Rounds: z.s1Rounds,
		Columns: []report.Column{
			{Metric: "wall_s", Header: "wall s", Digits: 3},
			{Metric: "theory_s", Header: "theory s", Digits: 2},
			{Metric: "vs_theory_pct", Header: "vs theory %", Digits: 1},
			{Metric: "server_peak", Header: "server peak"},
			{Metric: "conns", Header: "conns"},
			{Metric: "failed", Header: "failed"},
		},
	}
	var all []map[string][]report.Sample
	for _, c := range z.s1C {
		job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(z.s1DelayMS), N: z.s1N, C: c}
		samples, err := b.collect(ctx, "S1 "+concurrency(c), z.s1Rounds, b.variants, job, runOpts{})
		if err != nil {
			return sc, err
		}
		all = append(all, samples)
		theory := theoryS1(z.s1N, c, delay)
		t := b.table(samples, func(s report.Sample) map[string]float64 {
			m := common(s)
			m["theory_s"] = theory
			m["vs_theory_pct"] = (m["wall_s"]/theory - 1) * 100
			return m
		})
		sc.Cases = append(sc.Cases, report.Case{Label: concurrency(c), Rows: t.rows("")})
	}
	sc.Notes = append(sc.Notes,
		"theory = ceil(N/C) × delay; \"server peak\" is the most requests the site handled at once, "+
			"counted on the server; \"conns\" the connections it accepted (keep-alive: C, or N when unbounded). "+
			"The wall time includes the client's start-up (a process, a loop, its first connections).")
	for _, samples := range all {
		sc.Notes = append(sc.Notes, failureNotes(samples, b.variants)...)
	}
	return sc, nil
}

// theoryS1 is the source article's ceil(N/C) × delay.
func theoryS1(n, c int, delay float64) float64 {
	if c <= 0 || c > n {
		c = n
	}
	return math.Ceil(float64(n)/float64(c)) * delay
}
