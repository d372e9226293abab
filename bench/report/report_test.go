package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sample builds results with two variants and one baseline in one case.
func sample() *Results {
	row := func(v string, rps ...float64) Row {
		return Row{Variant: v, Metrics: map[string]Summary{"rps": Summarize(rps)}}
	}
	return &Results{
		Meta: Meta{
			Command: "go run ./cmd/bench -scenarios S2", Runs: 3,
			Variants: []Variant{
				{Name: "fast", Label: "fast client", Short: "f"},
				{Name: "pool", Label: "worker pool", Short: "pool"},
			},
			Baselines: []string{"pool"},
		},
		Scenarios: []Scenario{{
			ID: "S2", Title: "throughput",
			Columns: []Column{{Metric: "rps", Header: "req/s", Spread: true, Ratio: true}},
			Cases: []Case{{Label: "C = 64", Rows: []Row{
				row("fast", 30000, 31000, 29000),
				row("pool", 20000, 19000, 21000),
			}}},
			Notes: []string{"a note"},
		}, {ID: "S5", Title: "syscalls", Skipped: "no perf here"}},
		Targets: []Target{{Scenario: "S2", What: "fast over pool", Want: "≥ 1.30×", Got: "1.50×", Met: true}},
	}
}

func TestMarkdownHasARowPerVariantWithRatiosToTheBaseline(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"| case | variant | req/s | × pool |",
		"| C = 64 | fast client | 30,000 (29,000–31,000) | 1.50× |",
		"|  | worker pool | 20,000 (19,000–21,000) | 1.00× |",
		"- a note",
		"Skipped: no perf here",
		"## Targets: 1 of 1 met",
		"| S2 | fast over pool | ≥ 1.30× | 1.50× | yes |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestChartIsWellFormedSVGWithABarPerRow(t *testing.T) {
	ch := Chart{Scenario: "S2", Metric: "rps", Title: "Throughput <req/s>", Unit: "req/s", Better: "higher"}
	svg := ch.SVG(sample())
	if svg == nil {
		t.Fatal("no chart")
	}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	rects := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "rect" {
			rects++
		}
	}
	if rects != 3 { // the background and one bar per variant
		t.Errorf("%d rects, want 3:\n%s", rects, svg)
	}
	if !strings.Contains(string(svg), "Throughput &lt;req/s&gt;") {
		t.Error("the title is not escaped")
	}
	if (Chart{Scenario: "S5", Metric: "rps"}).SVG(sample()) != nil {
		t.Error("a chart of a skipped scenario")
	}
}

func TestWriteFilesWritesJSONAndTheChartsThatHaveData(t *testing.T) {
	dir := t.TempDir()
	paths, err := WriteFiles(dir, sample())
	if err != nil {
		t.Fatal(err)
	}
	// results.json and throughput.svg; the CPU and memory charts have no data.
	if len(paths) != 2 || filepath.Base(paths[1]) != "throughput.svg" {
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
}
