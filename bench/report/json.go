package report

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Charts are the charts WriteFiles draws, when their scenario ran.
var Charts = []Chart{
	{File: "throughput.svg", Scenario: "S2", Metric: "rps", Title: "S2 throughput: requests per second",
		Unit: "req/s", Better: "higher"},
	{File: "cpu-per-request.svg", Scenario: "S2", Metric: "cpu_us", Title: "S2 client CPU time per request",
		Unit: "µs", Digits: 1, Better: "lower"},
	{File: "kib-per-connection.svg", Scenario: "S3", Metric: "kib_conn", Title: "S3 client memory per in-flight connection",
		Unit: "KiB", Digits: 1, Better: "lower"},
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
