package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loopkit/bench/stats"
)

// sample builds results with two variants in one case of S2, and a
// skipped S5.
func sample() *Results {
	row := func(v string, ratio float64, rps ...float64) Row {
		return Row{Variant: v,
			Metrics: map[string]Summary{"rps": Summarize(rps), "user_us": Summarize([]float64{4}),
				"sys_us": Summarize([]float64{6}), "cpu_us": Summarize([]float64{9, 10, 11})},
			Ratios: map[string]stats.Estimate{"rps": {Value: ratio, Lo: ratio - 0.1, Hi: ratio + 0.1, N: 3}}}
	}
	return &Results{
		Meta: Meta{
			Command: "go run ./cmd/bench -scenarios S2", Seed: 7, Seconds: 125,
			Variants: []Variant{
				{Name: "fast", Label: "fast client", Short: "f", Kind: "loop"},
				{Name: "pool", Label: "worker pool", Short: "pool", Kind: "net/http"},
			},
		},
		Scenarios: []Scenario{{
			ID: "S2", Title: "throughput", Rounds: 3, Reference: "pool",
			Columns: []Column{{Metric: "rps", Header: "req/s", CI: true, Ratio: true}},
			Cases: []Case{{Label: "C = 64", Rows: []Row{
				row("fast", 1.5, 30000, 31000, 29000),
				row("pool", 1, 20000, 19000, 21000),
			}}},
			Comparisons: []Comparison{{Case: "C = 64", Group: "scheduler", What: "fast ÷ pool",
				Value: stats.Estimate{Value: 0.45, Lo: 0.43, Hi: 0.47, N: 3}, Unit: "×", Digits: 2}},
			Notes: []string{"a note"},
		}, {ID: "S5", Title: "syscalls", Skipped: "no perf here"}},
		Targets: []Target{{Scenario: "S2", What: "fast over pool", Want: "≥ 1.30×", Got: "1.50×", Met: true}},
	}
}

func TestMarkdownHasARowPerVariantWithPairedRatiosAndComparisons(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"| case | variant | req/s | × pool |",
		"| C = 64 | fast client | 30,000 [29,000–31,000] | 1.50× [1.40–1.60] |",
		"|  | worker pool | 20,000 [19,000–21,000] | 1.00× [0.90–1.10] |",
		"3 rounds of every variant",
		"| C = 64 | scheduler | fast ÷ pool | 0.45× [0.43–0.47] |",
		"random order (seed 7). The invocation took 2 min 5 s.",
		"- a note",
		"Skipped: no perf here",
		"## Reference targets (for a 2-core machine)",
		"1 of 1 reached in this run.",
		"| S2 | fast over pool | ≥ 1.30× | 1.50× | yes |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, QuickWarning) {
		t.Error("a full run called a smoke run")
	}
}

// A smoke run says its figures mean nothing, and prints no targets even if
// some were (wrongly) handed to it.
func TestASmokeRunSaysSoAndChecksNothing(t *testing.T) {
	r := sample()
	r.Meta.Quick = true
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, QuickWarning) || strings.Contains(out, "Targets") {
		t.Errorf("smoke run report:\n%s", out)
	}
}

func TestNothingMeasuredIsNotAZero(t *testing.T) {
	s := Summarize([]float64{math.NaN()})
	if s.N != 0 || !math.IsNaN(s.Median) {
		t.Fatalf("got %+v", s)
	}
	if got := FormatSummary(s, 1, true); got != "n/a" {
		t.Errorf("printed as %q", got)
	}
	if got := FormatEstimate(stats.PairedRatio(nil, nil, 1), 2, "×"); got != "n/a" {
		t.Errorf("an empty ratio printed as %q", got)
	}
	data, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(data), `"median":null`) {
		t.Errorf("JSON %s, %v", data, err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil || !math.IsNaN(back.Median) {
		t.Errorf("read back as %+v, %v", back, err)
	}
}

func TestFormatting(t *testing.T) {
	cases := map[float64]string{9999: "9999", 27588.4: "27,588", 1234567.8: "1,234,568", -98765: "-98,765"}
	for x, want := range cases {
		if got := FormatNumber(x, 0); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", x, got, want)
		}
	}
	if got := FormatEstimate(stats.Estimate{Value: 12.3, Lo: 8, Hi: 15, N: 10}, 0, "%"); got != "12 % [8–15]" {
		t.Errorf("FormatEstimate = %q", got)
	}
	for s, want := range map[float64]string{12.34: "12.3 s", 125: "2 min 5 s", 3725: "1 h 2 min"} {
		if got := FormatDuration(s); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", s, got, want)
		}
	}
}

// wellFormed parses svg and counts its elements by name.
func wellFormed(t *testing.T, svg []byte) map[string]int {
	t.Helper()
	counts := make(map[string]int)
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return counts
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		if el, ok := tok.(xml.StartElement); ok {
			counts[el.Name.Local]++
		}
	}
}

func TestBarsStacksAndDotsAreWellFormedSVG(t *testing.T) {
	r := sample()
	bars := Chart{Scenario: "S2", Kind: Bars, Metric: "rps", Title: "Throughput <req/s>", Unit: "req/s", Better: "higher"}
	svg := bars.SVG(r)
	if n := wellFormed(t, svg)["rect"]; n != 3 { // the background and one bar per variant
		t.Errorf("%d rects, want 3:\n%s", n, svg)
	}
	if !strings.Contains(string(svg), "Throughput &lt;req/s&gt;") {
		t.Error("the title is not escaped")
	}
	stacked := Chart{Scenario: "S2", Kind: Stacked, Metric: "cpu_us", Unit: "µs", Digits: 1,
		Parts: []Part{{"user_us", "user", "#111"}, {"sys_us", "system", "#999"}}}
	svg = stacked.SVG(r)
	if n := wellFormed(t, svg)["rect"]; n != 1+2+2*2 { // background, legend, two segments per variant
		t.Errorf("%d rects:\n%s", n, svg)
	}
	if !strings.Contains(string(svg), ">10.0 µs<") {
		t.Errorf("the stack's total (4 + 6) is not written:\n%s", svg)
	}
	dots := Chart{Scenario: "S2", Kind: Dots, Unit: "µs", Parts: []Part{{"user_us", "a", "#111"}, {"cpu_us", "b", "#999"}}}
	if n := wellFormed(t, dots.SVG(r))["circle"]; n != 2+2*2 { // legend, two marks per variant
		t.Errorf("%d circles", n)
	}
	// A second figure beside a bar's value, where the row has it.
	r.Scenarios[0].Cases[0].Rows[1].Metrics["user_us"] = Summary{Median: math.NaN()}
	also := Chart{Scenario: "S2", Kind: Bars, Metric: "rps", Unit: "req/s", Also: "user_us", AlsoUnit: "µs of user time"}
	svg = also.SVG(r)
	if got := string(svg); !strings.Contains(got, ">30,000 req/s, 4 µs of user time<") || !strings.Contains(got, ">20,000 req/s<") {
		t.Errorf("the bars' values, with the second figure where there is one:\n%s", got)
	}
	if (Chart{Scenario: "S5", Metric: "rps"}).SVG(r) != nil {
		t.Error("a chart of a skipped scenario")
	}
}

func TestWriteFilesWritesJSONAndTheChartsThatHaveData(t *testing.T) {
	dir := t.TempDir()
	paths, err := WriteFiles(dir, sample())
	if err != nil {
		t.Fatal(err)
	}
	// results.json, throughput.svg and cpu-split.svg; S3 and S6 did not run.
	if len(paths) != 3 || filepath.Base(paths[1]) != "throughput.svg" || filepath.Base(paths[2]) != "cpu-split.svg" {
		t.Fatalf("wrote %v", paths)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Results
	if err := json.Unmarshal(data, &back); err != nil || len(back.Scenarios) != 2 {
		t.Fatalf("results.json does not read back: %v", err)
	}
	if e := back.Scenarios[0].Comparisons[0].Value; e.Value != 0.45 || e.N != 3 {
		t.Errorf("a comparison read back as %+v", e)
	}
}
