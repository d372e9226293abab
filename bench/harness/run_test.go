package harness

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"loopkit/bench/report"
)

// A quick S1 and S4 through the whole machinery: a site process, a
// process per run, the site's counters, the URL sets compared, the
// tables. It asserts what happened, never how fast.
func TestAQuickRunThroughChildProcesses(t *testing.T) {
	var progress bytes.Buffer
	res := quickRunTo(t, &progress, []string{"S1", "S4"}, "reactor-callbacks", "worker-pool")
	// Progress names the variants as the tables do.
	if p := progress.String(); !strings.Contains(p, "S1 C = 2 round 1/1 loop: callbacks: 6 ok") ||
		strings.Contains(p, "reactor-callbacks") || !strings.Contains(p, "not running S2: not among -scenarios.") {
		t.Errorf("progress:\n%s", p)
	}
	if len(res.Scenarios) != 2 {
		t.Fatalf("%d scenarios", len(res.Scenarios))
	}
	s1 := res.Scenarios[0]
	for _, c := range s1.Cases {
		for _, row := range c.Rows {
			if row.Samples[0].OK != 6 {
				t.Errorf("S1 %s %s: %d ok", c.Label, row.Variant, row.Samples[0].OK)
			}
			limit := map[string]int64{"C = 2": 2, "C = ∞": 6}[c.Label]
			if peak := row.Samples[0].ServerPeak; peak != limit {
				t.Errorf("S1 %s %s: server peak %d", c.Label, row.Variant, peak)
			}
		}
	}
	for _, row := range res.Scenarios[1].Cases[0].Rows {
		if !strings.HasPrefix(row.Check, "same") {
			t.Errorf("S4 %s: %s", row.Variant, row.Check)
		}
	}
	var md bytes.Buffer
	if err := report.WriteMarkdown(&md, res); err != nil {
		t.Fatal(err)
	}
	if len(res.Targets) != 0 {
		t.Errorf("a smoke run checked %d targets", len(res.Targets))
	}
	for _, want := range []string{report.QuickWarning, "## S1 — latency-bound: 6 × 100 ms", "## S4 — crawl", "| C = ∞ | loop: callbacks |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("no %q in the tables:\n%s", want, md.String())
		}
	}
}

func TestConfigRejectsUnknownNames(t *testing.T) {
	for _, cfg := range []Config{
		{Scenarios: []string{"S10"}, Self: "x"},
		{Variants: []string{"threads"}, Self: "x"},
		{Rounds: -1, Self: "x"},
		{Pin: "sometimes", Self: "x"},
	} {
		if err := cfg.Check(); err == nil {
			t.Errorf("%+v: accepted", cfg)
		}
	}
}

// S2's allocations per request are read in each client process: the raw
// goroutine floor allocates nothing per request, loopkit's callbacks the
// one its request guard allows (crawler/http1's
// TestAllocationsPerRequest: 1, and the harness's meter beside them).
// Checked by hand: a window that does not read the counts leaves the
// column empty (NaN), and this fails.
func TestS2CountsAllocationsPerRequest(t *testing.T) {
	res := quickRun(t, []string{"S2"}, "reactor-callbacks", "raw-goroutines")
	got := map[string]float64{}
	for _, row := range res.Scenarios[0].Cases[0].Rows {
		got[row.Variant] = row.Metrics["allocs"].Median
	}
	if a := got["raw-goroutines"]; !(a >= 0 && a < 0.5) {
		t.Errorf("raw goroutines: %v allocations per request, want about 0", a)
	}
	if a := got["reactor-callbacks"]; !(a >= 0.5 && a < 2.5) {
		t.Errorf("loop callbacks: %v allocations per request, want about 1", a)
	}
}

// quickRun runs scenarios as -quick does, for variants, through child
// processes (this test binary, re-run in a role).
func quickRun(t *testing.T, scenarios []string, variants ...string) *report.Results {
	t.Helper()
	return quickRunTo(t, nil, scenarios, variants...)
}

// quickRunTo is quickRun, its progress lines written to progress (if not nil).
func quickRunTo(t *testing.T, progress io.Writer, scenarios []string, variants ...string) *report.Results {
	t.Helper()
	if testing.Short() {
		t.Skip("starts processes")
	}
	// Under -race, a child would sleep a second at exit to let the race
	// detector report (GORACE's atexit_sleep_ms); there is no need here.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Scenarios: scenarios, Variants: variants, Quick: true, Self: self, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
