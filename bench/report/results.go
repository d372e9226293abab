// Package report turns benchmark measurements into what people read: the
// Markdown tables on stdout, a JSON file with every raw sample, and SVG bar
// charts. It sits at the end of bench/: bench/harness fills a Results and
// hands it here; nothing here runs a benchmark or knows what a scenario
// measures beyond the columns it is given.
package report

// Results are everything one invocation of the benchmark measured.
type Results struct {
	Meta      Meta       `json:"meta"`
	Scenarios []Scenario `json:"scenarios"`
	Targets   []Target   `json:"targets,omitempty"`
}

// Target is one of the figures the project set out to reach, next to
// what this invocation measured.
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
	Runs       int    `json:"runs"`
	Poller     string `json:"poller"`
	// LoadBefore and LoadAfter are the machine's load averages (1, 5,
	// 15 min) when the invocation started and ended: on a shared machine
	// they say how much else was running.
	LoadBefore string `json:"load_before,omitempty"`
	LoadAfter  string `json:"load_after,omitempty"`
	// Variants are the variants measured, in the order of the tables.
	Variants []Variant `json:"variants"`
	// Baselines are the variants that ratio columns divide by, in order.
	Baselines []string `json:"baselines"`
}

// Variant names a variant three ways: its id, a label for tables and
// charts, and a short form for ratio headers ("× pool").
type Variant struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Short string `json:"short"`
}

// Scenario is one of S1–S5: a table, with one case per configuration.
type Scenario struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Skipped string   `json:"skipped,omitempty"` // why it did not run
	Notes   []string `json:"notes,omitempty"`   // printed under the table
	Columns []Column `json:"columns"`
	// CheckHeader, if set, heads a last column showing Row.Check.
	CheckHeader string `json:"check_header,omitempty"`
	Cases       []Case `json:"cases"`
}

// Column is a column of a scenario's table: a metric of every row.
type Column struct {
	Metric string `json:"metric"`
	Header string `json:"header"`
	// Digits after the decimal point.
	Digits int `json:"digits"`
	// Spread shows min–max next to the median.
	Spread bool `json:"spread,omitempty"`
	// Ratio adds a column per baseline: this row's median over the
	// baseline's, in the same case of the same invocation.
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
	// Check is a verdict shown in the last column, if the scenario has one
	// (S4: whether the URL set matched).
	Check   string   `json:"check,omitempty"`
	Samples []Sample `json:"samples"`
}

// Sample is what one run of one variant reported about itself, plus what
// the harness learnt around it (the site's counters, syscall counts).
type Sample struct {
	Variant        string  `json:"variant"`
	OK             int     `json:"ok"`
	Failed         int     `json:"failed"`
	FirstError     string  `json:"first_error,omitempty"`
	WallSeconds    float64 `json:"wall_s"`
	UserSeconds    float64 `json:"user_s"`
	SysSeconds     float64 `json:"sys_s"`
	PeakRSSBytes   int64   `json:"peak_rss_bytes"`
	PeakGoroutines int     `json:"peak_goroutines"`
	PeakThreads    int     `json:"peak_threads"`
	FDSoft         uint64  `json:"fd_soft,omitempty"`
	FDHard         uint64  `json:"fd_hard,omitempty"`
	FDRaised       uint64  `json:"fd_raised,omitempty"`
	ServerPeak     int64   `json:"server_peak_in_flight"`
	ServerRequests int64   `json:"server_requests"`
	ServerConns    int64   `json:"server_conns"`
	// ServerCPUSeconds is what the site process spent during the run,
	// where the harness can read it (Linux: /proc/<pid>/stat).
	ServerCPUSeconds float64        `json:"server_cpu_s,omitempty"`
	Syscalls         map[string]int `json:"syscalls,omitempty"`
	// URLs a crawl fetched, sorted; compared, then dropped from the JSON.
	URLs []string `json:"urls,omitempty"`
}

// Label returns the table label of a variant (its name if unknown).
func (m Meta) Label(name string) string {
	for _, v := range m.Variants {
		if v.Name == name {
			return v.Label
		}
	}
	return name
}

// Short returns the short label of a variant (its name if unknown).
func (m Meta) Short(name string) string {
	for _, v := range m.Variants {
		if v.Name == name && v.Short != "" {
			return v.Short
		}
	}
	return name
}

// Row returns the row of variant in c, or nil.
func (c *Case) Row(variant string) *Row {
	for i := range c.Rows {
		if c.Rows[i].Variant == variant {
			return &c.Rows[i]
		}
	}
	return nil
}
