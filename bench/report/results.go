// Package report turns benchmark measurements into what people read: the
// Markdown tables on stdout, a JSON file with every raw sample, and SVG
// charts. It sits at the end of bench/: bench/harness fills a Results and
// hands it here; nothing here runs a benchmark or knows what a scenario
// measures beyond the columns and comparisons it is given.
package report

import "loopkit/bench/stats"

// Results are everything one invocation of the benchmark measured.
type Results struct {
	Meta      Meta       `json:"meta"`
	Scenarios []Scenario `json:"scenarios"`
	Targets   []Target   `json:"targets,omitempty"`
}

// Target is one of the project's reference targets for a 2-core machine,
// next to what this invocation measured: reported apart from the
// measurements, never asserted.
type Target struct {
	Scenario string `json:"scenario"`
	What     string `json:"what"`
	Want     string `json:"want"`
	Got      string `json:"got"`
	Met      bool   `json:"met"`
}

// Meta says where, when and how the results were taken.
type Meta struct {
	Command    string `json:"command"`
	Date       string `json:"date"`
	GoVersion  string `json:"go_version"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPUs       int    `json:"cpus"`
	CPUModel   string `json:"cpu_model,omitempty"`
	GOMAXPROCS int    `json:"gomaxprocs"`      // of every client process
	SiteProcs  int    `json:"site_gomaxprocs"` // of the site process
	Poller     string `json:"poller"`
	// Quick marks a smoke run, whose figures mean nothing.
	Quick bool `json:"quick,omitempty"`
	// Pinning says which processors the site and the clients ran on.
	Pinning string `json:"pinning"`
	// Seed is the seed of the rounds' random order.
	Seed uint64 `json:"seed"`
	// Seconds is how long the whole invocation took.
	Seconds float64 `json:"seconds"`
	// LoadBefore and LoadAfter are the machine's load averages (1, 5, 15
	// min) when the invocation started and ended, LoadMax the highest
	// 1-minute load seen before any run: on a shared machine they say how
	// much else was running.
	LoadBefore string  `json:"load_before,omitempty"`
	LoadAfter  string  `json:"load_after,omitempty"`
	LoadMax    float64 `json:"load_max,omitempty"`
	// Variants are the variants measured, in the order of the tables.
	Variants []Variant `json:"variants"`
}

// Variant names a variant three ways — its id, a label for tables and
// charts, a short form for comparisons — and says which group it stands
// in: "loop", "goroutines, loopkit HTTP", "net/http" or "floor" — or
// "crawler" for the real crawler's runs in S7.
type Variant struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Short string `json:"short"`
	Kind  string `json:"kind"`
}

// Scenario is one of S1–S9: a table with one case per configuration, and
// the paired comparisons that say what the table means.
type Scenario struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Skipped string   `json:"skipped,omitempty"` // why it did not run
	Notes   []string `json:"notes,omitempty"`   // printed under the table
	// Rounds is how many times every variant ran in every case.
	Rounds  int      `json:"rounds"`
	Columns []Column `json:"columns"`
	// Reference is the variant the ratio columns divide by.
	Reference string `json:"reference,omitempty"`
	// CheckHeader, if set, heads a last column showing Row.Check.
	CheckHeader string       `json:"check_header,omitempty"`
	Cases       []Case       `json:"cases"`
	Comparisons []Comparison `json:"comparisons,omitempty"`
}

// Column is a column of a scenario's table: a metric of every row.
type Column struct {
	Metric string `json:"metric"`
	Header string `json:"header"`
	// Digits after the decimal point.
	Digits int `json:"digits"`
	// CI shows the median's 95 % interval next to it.
	CI bool `json:"ci,omitempty"`
	// Ratio adds a column: this row's value over the reference's, paired
	// round by round, with its interval.
	Ratio bool `json:"ratio,omitempty"`
}

// Case is one configuration of a scenario, such as "C = 64".
type Case struct {
	Label string `json:"label"`
	Rows  []Row  `json:"rows"`
}

// Row is one variant in one case.
type Row struct {
	Variant string             `json:"variant"`
	Metrics map[string]Summary `json:"metrics"`
	// Ratios are, per metric with a ratio column, the paired ratio to the
	// scenario's reference variant.
	Ratios map[string]stats.Estimate `json:"ratios,omitempty"`
	// Check is a verdict shown in the last column, if the scenario has one
	// (S4: whether the URL set matched).
	Check   string   `json:"check,omitempty"`
	Samples []Sample `json:"samples"`
}

// Comparison is one paired estimate that a group of variants was built
// to make: "the same HTTP code, on the loop and on goroutines".
type Comparison struct {
	Case  string         `json:"case"`
	Group string         `json:"group"` // "scheduler", "HTTP client", "floor", "the gap"
	What  string         `json:"what"`
	Value stats.Estimate `json:"value"`
	Unit  string         `json:"unit"` // "×", "%" or a unit after the number
	// Digits after the decimal point.
	Digits int `json:"digits"`
}
