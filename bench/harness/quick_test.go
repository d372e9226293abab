package harness

import (
	"strings"
	"testing"

	"loopkit/bench/report"
)

func row(variant string, metrics map[string]float64) report.Row {
	r := report.Row{Variant: variant, Metrics: map[string]report.Summary{}}
	for k, v := range metrics {
		r.Metrics[k] = report.Summary{Median: v}
	}
	return r
}

// What a smoke run shows first: a line per scenario, in the tables' names
// for the variants, with this run's figures; and what did not run.
func TestLookAtNamesVariantsAsTheTablesDo(t *testing.T) {
	var meta report.Meta
	meta.Quick = true
	for _, name := range []string{loopVariant, fairVariant, refVariant} {
		v, _ := Lookup(name)
		meta.Variants = append(meta.Variants, v.Variant)
	}
	res := &report.Results{Meta: meta, Scenarios: []report.Scenario{
		{ID: "S1", Cases: []report.Case{{Label: "C = 2", Rows: []report.Row{
			row(loopVariant, map[string]float64{"wall_s": 0.031, "theory_s": 0.03, "server_peak": 2}),
			row(refVariant, map[string]float64{"wall_s": 0.035, "theory_s": 0.03, "server_peak": 2}),
		}}}},
		{ID: "S2", Cases: []report.Case{{Label: "C = 16", Rows: []report.Row{
			row(loopVariant, map[string]float64{"cpu_us": 11}),
			row(fairVariant, map[string]float64{"cpu_us": 11.5}),
			row(refVariant, map[string]float64{"cpu_us": 14.6}),
		}}}},
		{ID: "S3", Skipped: "no memory to measure"},
	}}
	cfg := Config{Quick: true, Self: "x"}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	got := LookAt(res, cfg.Skipped)
	for _, want := range []string{
		"## What to look at\n",
		"A smoke run",
		"- S1 (C = 2): Every client takes the theory's time when the server is the bottleneck: 0.031–0.035 s here, against 0.03 s. The server saw at most 2 requests at once.\n",
		"- S2 (C = 16): CPU per request: **loop: callbacks** 11.0 µs, **loopkit HTTP: goroutine per conn** 11.5 µs, **net/http: worker pool** 14.6 µs. The first two run the same HTTP code",
		"- S3 did not run: no memory to measure\n",
		"- Not run: S5: system calls per request. A smoke run skips it",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("LookAt lacks %q:\n%s", want, got)
		}
	}
	for _, id := range []string{loopVariant, fairVariant, refVariant} {
		if strings.Contains(got, id) {
			t.Errorf("LookAt names %s by its -variants id, not as the tables do:\n%s", id, got)
		}
	}
	if strings.Count(got, "S5") != 2 { // "Not run: S5: ... -scenarios S5 runs it."
		t.Errorf("S5's absence is said more than once:\n%s", got)
	}
}

// A full run asked for some scenarios says which others it leaves out.
func TestCheckSaysWhatWillNotRun(t *testing.T) {
	cfg := Config{Scenarios: []string{"S1", "S2"}, Self: "x"}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range cfg.Skipped {
		if strings.HasPrefix(s, "S") {
			ids = append(ids, s[:2])
		}
	}
	if strings.Join(ids, " ") != "S3 S4 S5 S6 S7 S8 S9" {
		t.Errorf("Skipped = %q; want S3 to S9, each once", cfg.Skipped)
	}
	if err := cfg.Check(); err != nil || len(cfg.Skipped) != len(ids) {
		t.Errorf("a second Check repeats what will not run: %q", cfg.Skipped)
	}
}
