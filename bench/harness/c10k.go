package harness

import (
	"context"
	"fmt"
	"math"

	"loopkit/bench/report"
	"loopkit/bench/workload"
)

// c10k is S3: N requests in flight at once, held by the site for a while,
// to see what one in-flight connection costs each client in memory. A
// process has a floor of memory that is not per connection (runtime,
// binary, buffers), so the cost is the difference between a run with N
// connections and one with a small base number, over the difference in
// connections: (RSS(N) − RSS(base)) / (N − base).
func (b *bench) c10k(ctx context.Context) (report.Scenario, error) {
	z := b.sizes
	n, base := z.s3N, z.s3Base
	sc := report.Scenario{
		ID: "S3",
		Title: fmt.Sprintf("C10K: %s requests in flight for %.1f s", report.FormatNumber(float64(n), 0),
			float64(z.s3DelayMS)/1000),
		Columns: []report.Column{
			{Metric: "kib_conn", Header: "KiB per conn", Digits: 1, Spread: true, Ratio: true},
			{Metric: "rss_mib", Header: fmt.Sprintf("peak RSS MiB at %d", n), Digits: 1},
			{Metric: "base_rss_mib", Header: fmt.Sprintf("at %d", base), Digits: 1},
			{Metric: "goroutines", Header: "goroutines"},
			{Metric: "threads", Header: "threads"},
			{Metric: "server_peak", Header: "server peak", Spread: true},
			{Metric: "wall_s", Header: "wall s", Digits: 2},
			{Metric: "failed", Header: "failed"},
		},
	}
	url := b.delayURL(z.s3DelayMS)
	full, err := b.samples(ctx, fmt.Sprintf("S3 %d in flight", n), workload.Job{Kind: workload.Fetch, URL: url, N: n})
	if err != nil {
		return sc, err
	}
	floor, err := b.samples(ctx, fmt.Sprintf("S3 %d in flight (base)", base), workload.Job{Kind: workload.Fetch, URL: url, N: base})
	if err != nil {
		return sc, err
	}
	rows := b.rows(full, func(v string, i int, s report.Sample) map[string]float64 {
		m := common(s)
		m["kib_conn"], m["base_rss_mib"] = math.NaN(), math.NaN()
		if i < len(floor[v]) && floor[v][i].WallSeconds > 0 && s.WallSeconds > 0 {
			low := floor[v][i].PeakRSSBytes
			m["base_rss_mib"] = float64(low) / (1 << 20)
			m["kib_conn"] = float64(s.PeakRSSBytes-low) / float64(n-base) / 1024
		}
		return m
	})
	sc.Cases = append(sc.Cases, report.Case{Label: concurrency(0), Rows: rows})
	sc.Notes = append(sc.Notes,
		fmt.Sprintf("KiB per conn = (peak RSS with %d in flight − peak RSS with %d) / %d, each pair from the same run number. "+
			"RSS is the client's user-space memory; the kernel's socket buffers (a few KiB per socket for every "+
			"variant alike) are not in it.", n, base, n-base),
		"All requests start at once; the site's accept backlog (net.core.somaxconn) is finite, so part of a "+
			"connect storm waits for SYN retransmits, which is why the server peak may stay under the count.")
	if s := firstMeasured(full); s != nil {
		sc.Notes = append(sc.Notes, fmt.Sprintf("File descriptors, per client process: soft limit %d raised to %d (hard limit %d).",
			s.FDSoft, s.FDRaised, s.FDHard))
	}
	sc.Notes = append(sc.Notes, failureNotes(full, b.variants)...)
	return sc, nil
}

// firstMeasured is the first sample of any variant that ran.
func firstMeasured(samples map[string][]report.Sample) *report.Sample {
	for _, ss := range samples {
		for i := range ss {
			if ss[i].WallSeconds > 0 {
				return &ss[i]
			}
		}
	}
	return nil
}
