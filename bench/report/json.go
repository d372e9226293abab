package report

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Charts are the charts WriteFiles draws, when their scenario ran.
var Charts = []Chart{
	{File: "throughput.svg", Scenario: "S2", Kind: Bars, Metric: "rps",
		Title: "S2 throughput: requests per second", Unit: "req/s", Better: "higher"},
	{File: "cpu-split.svg", Scenario: "S2", Kind: Stacked, Metric: "cpu_us",
		Parts: []Part{{"user_us", "user", "#4878a8"}, {"sys_us", "system (kernel)", "#e0a040"}},
		Title: "S2 client CPU time per request, user and system", Unit: "µs", Digits: 1, Better: "lower"},
	{File: "latency.svg", Scenario: "S6", Kind: Dots,
		Parts: []Part{{"p50_us", "p50", "#2e7d32"}, {"p99_us", "p99", "#e08a3c"}, {"p999_us", "p99.9", "#c0504d"}},
		Title: "S6 latency at a fixed arrival rate (open loop): p50, p99, p99.9, medians over the rounds", Unit: "µs", Better: "lower"},
	{File: "memory.svg", Scenario: "S3", Kind: Stacked, Metric: "go_kib",
		Parts: []Part{{"heap_kib", "live heap", "#4878a8"}, {"stack_kib", "goroutine stacks", "#a0c050"}},
		Title: "S3 Go memory per established connection (live heap + stacks, after a GC)", Unit: "KiB",
		Digits: 1, Better: "lower"},
	{File: "million.svg", Scenario: "S7", Kind: Bars, Metric: "rss_mib",
		Title: "S7 the real crawler's peak RSS, by pages crawled (the site over 20 hosts, in its own process)", Unit: "MiB",
		Digits: 1, Better: "lower", Also: "b_url", AlsoUnit: "B/URL"},
}

// WriteFiles writes results.json and the charts into dir, creating it if
// needed, and returns the paths written.
func WriteFiles(dir string, r *Results) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "results.json")
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	written := []string{path}
	for _, ch := range Charts {
		svg := ch.SVG(r)
		if svg == nil {
			continue
		}
		path := filepath.Join(dir, ch.File)
		if err := os.WriteFile(path, svg, 0o644); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}
