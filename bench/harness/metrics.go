package harness

import (
	"fmt"
	"maps"
	"math"
	"unicode/utf8"

	"loopkit/bench/report"
)

// common are the metrics every scenario can show. A run that did not run
// has no wall time; its measurements are NaN and left out of summaries.
// Rates and costs are of the measured window only.
func common(s report.Sample) map[string]float64 {
	m := map[string]float64{
		"ok":          float64(s.OK),
		"failed":      float64(s.Failed),
		"server_peak": float64(s.ServerPeak),
		"conns":       float64(s.ServerConns),
	}
	nan := math.NaN()
	for _, k := range []string{"wall_s", "rps", "cpu_us", "user_us", "sys_us", "vcs", "ivcs", "site_cpu_us",
		"other_pct", "rss_mib", "goroutines", "threads", "allocs", "alloc_bytes"} {
		m[k] = nan
	}
	if s.WallSeconds <= 0 {
		return m
	}
	w := s.Window
	m["wall_s"] = s.WallSeconds
	m["rss_mib"] = float64(s.PeakRSSBytes) / (1 << 20)
	m["goroutines"] = float64(s.PeakGoroutines)
	m["threads"] = float64(s.PeakThreads)
	if w.Seconds > 0 {
		m["rps"] = float64(w.OK) / w.Seconds
	}
	if n := float64(w.OK + w.Failed); n > 0 {
		m["user_us"] = w.UserSeconds / n * 1e6
		m["sys_us"] = w.SysSeconds / n * 1e6
		m["cpu_us"] = m["user_us"] + m["sys_us"]
		m["vcs"] = float64(w.Voluntary) / n
		m["ivcs"] = float64(w.Involuntary) / n
		if w.Allocs > 0 || w.AllocBytes > 0 { // zero both: a sample from before the counts were kept
			m["allocs"] = float64(w.Allocs) / n
			m["alloc_bytes"] = float64(w.AllocBytes) / n
		}
		if w.Measured {
			m["site_cpu_us"] = w.SiteCPUSeconds / n * 1e6
		}
	}
	if w.Measured && w.Seconds > 0 {
		m["other_pct"] = w.OtherCPUSeconds / w.Seconds * 100 // of one processor
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
	for _, ch := range report.Charts { // what the charts draw stays too
		shown[ch.Metric] = true
		for _, p := range ch.Parts {
			shown[p.Metric] = true
		}
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
