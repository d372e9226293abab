package harness

import (
	"fmt"
	"maps"
	"math"
	"unicode/utf8"

	"loopkit/bench/report"
)

// metricsFunc computes the metrics of the i-th sample of a variant.
type metricsFunc func(variant string, i int, s report.Sample) map[string]float64

// rows summarizes the samples of every variant, in table order.
func (b *bench) rows(samples map[string][]report.Sample, metrics metricsFunc) []report.Row {
	var rows []report.Row
	for _, v := range b.variants {
		values := make(map[string][]float64)
		for i, s := range samples[v] {
			for k, x := range metrics(v, i, s) {
				values[k] = append(values[k], x)
			}
		}
		row := report.Row{Variant: v, Metrics: make(map[string]report.Summary), Samples: samples[v]}
		for k, xs := range values {
			row.Metrics[k] = report.Summarize(xs)
		}
		rows = append(rows, row)
	}
	return rows
}

// common are the metrics every scenario can show. A run that did not run
// has no wall time; its measurements are NaN and left out of summaries.
func common(s report.Sample) map[string]float64 {
	m := map[string]float64{
		"ok":          float64(s.OK),
		"failed":      float64(s.Failed),
		"server_peak": float64(s.ServerPeak),
		"conns":       float64(s.ServerConns),
	}
	nan := math.NaN()
	for _, k := range []string{"wall_s", "rps", "cpu_us", "site_cpu_us", "rss_mib", "goroutines", "threads"} {
		m[k] = nan
	}
	if s.WallSeconds > 0 {
		cpu := s.UserSeconds + s.SysSeconds
		m["wall_s"] = s.WallSeconds
		m["rps"] = float64(s.OK) / s.WallSeconds
		if n := s.OK + s.Failed; n > 0 {
			m["cpu_us"] = cpu / float64(n) * 1e6
			if s.ServerCPUSeconds > 0 {
				m["site_cpu_us"] = s.ServerCPUSeconds / float64(n) * 1e6
			}
		}
		m["rss_mib"] = float64(s.PeakRSSBytes) / (1 << 20)
		m["goroutines"] = float64(s.PeakGoroutines)
		m["threads"] = float64(s.PeakThreads)
	}
	return m
}

// keepColumns drops from every row the metrics its table does not show:
// the samples keep the raw numbers, and results.json stays small.
func keepColumns(sc report.Scenario) report.Scenario {
	shown := make(map[string]bool)
	for _, c := range sc.Columns {
		shown[c.Metric] = true
	}
	for i := range sc.Cases {
		for j := range sc.Cases[i].Rows {
			maps.DeleteFunc(sc.Cases[i].Rows[j].Metrics, func(k string, _ report.Summary) bool { return !shown[k] })
		}
	}
	return sc
}

// failureNotes says why runs failed, once per variant.
func failureNotes(samples map[string][]report.Sample, variants []string) []string {
	var notes []string
	for _, v := range variants {
		failed := 0
		first := ""
		for _, s := range samples[v] {
			failed += s.Failed
			if first == "" {
				first = s.FirstError
			}
		}
		if failed > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d requests failed in all; the first: %s", v, failed, truncate(first, 200)))
		}
	}
	return notes
}

// truncate shortens s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
