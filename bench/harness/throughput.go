package harness

import (
	"context"
	"fmt"

	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// throughput is S2: many requests that cost the server nothing, at a
// fixed concurrency, so that the clients' own costs show: requests per
// second, CPU per request, peak memory.
func (b *bench) throughput(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	sc := report.Scenario{
		ID:    "S2",
		Title: fmt.Sprintf("throughput: %s × 0 ms", report.FormatNumber(float64(z.s2N), 0)),
		Columns: []report.Column{
			{Metric: "rps", Header: "req/s", Spread: true, Ratio: true},
			{Metric: "cpu_us", Header: "CPU µs/req", Digits: 1, Spread: true, Ratio: true},
			{Metric: "site_cpu_us", Header: "site CPU µs/req", Digits: 1},
			{Metric: "rss_mib", Header: "peak RSS MiB", Digits: 1, Spread: true},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "threads", Header: "threads"},
			{Metric: "conns", Header: "conns"},
			{Metric: "failed", Header: "failed"},
		},
	}
	for _, c := range z.s2C {
		job := workload.Job{Kind: workload.Fetch, URL: b.delayURL(0), N: z.s2N, C: c}
		samples, err := b.samples(ctx, "S2 "+concurrency(c), job)
		if err != nil {
			return sc, err
		}
		rows := b.rows(samples, func(_ string, _ int, s report.Sample) map[string]float64 { return common(s) })
		sc.Cases = append(sc.Cases, report.Case{Label: concurrency(c), Rows: rows})
		sc.Notes = append(sc.Notes, failureNotes(samples, b.variants)...)
	}
	sc.Notes = append([]string{
		"CPU is the client process's user + system time (getrusage) over the requests it made: the kernel's " +
			"work for its sockets included, the site's excluded. Goroutines and threads are peaks, sampled every 100 ms.",
		"The site runs on the same cores: every client shares the machine with it, so requests/s is bounded by " +
			"what is left to the client, and a client that needs less CPU leaves more to the server. " +
			"\"site CPU\" is what the site process spent per request in the same run (/proc/<pid>/stat, 10 ms ticks): " +
			"client and site together cannot exceed the machine's cores.",
	}, sc.Notes...)
	return sc, nil
}
