package report

import "loopkit/bench/stats"

// Sample is what one run of one variant reported about itself, plus what
// the harness learnt around it (the site's counters, syscall counts, the
// kernel's memory).
type Sample struct {
	Variant string `json:"variant"`
	Round   int    `json:"round"` // 1-based; samples of one round are paired
	Order   int    `json:"order"` // its place in the round's random order
	// OK and Failed count the whole run; Window the measured part.
	OK          int     `json:"ok"`
	Failed      int     `json:"failed"`
	FirstError  string  `json:"first_error,omitempty"`
	WallSeconds float64 `json:"wall_s"`
	Window      Window  `json:"window"`

	PeakRSSBytes   int64  `json:"peak_rss_bytes"`
	PeakGoroutines int    `json:"peak_goroutines"`
	PeakThreads    int    `json:"peak_threads"`
	CPUs           string `json:"cpus,omitempty"` // the processors it was allowed to run on
	FDSoft         uint64 `json:"fd_soft,omitempty"`
	FDHard         uint64 `json:"fd_hard,omitempty"`
	FDRaised       uint64 `json:"fd_raised,omitempty"`

	ServerPeak     int64 `json:"server_peak_in_flight"`
	ServerRequests int64 `json:"server_requests"`
	ServerConns    int64 `json:"server_conns"`

	Syscalls map[string]int   `json:"syscalls,omitempty"`
	Latency  *stats.Histogram `json:"latency,omitempty"`
	// StallNS is the stall probe's worst lateness, when it ran.
	StallNS int64 `json:"stall_ns,omitempty"`
	// BodyBytes are the bytes of a crawl's page bodies.
	BodyBytes int64   `json:"body_bytes,omitempty"`
	Memory    *Memory `json:"memory,omitempty"`
	// Crawl is what a run of the real crawler reported (S7).
	Crawl *CrawlRun `json:"crawl,omitempty"`
	// URLs a crawl fetched, sorted; compared, then dropped from the JSON.
	URLs []string `json:"urls,omitempty"`
}

// Window is the measured part of a run: after the warm-up of a timed job,
// the whole of a counted one. CPU, switches and answers are differences
// between its two ends, read in the client process.
type Window struct {
	Seconds     float64 `json:"s"`
	OK          int64   `json:"ok"`
	Failed      int64   `json:"failed"`
	UserSeconds float64 `json:"user_s"`
	SysSeconds  float64 `json:"sys_s"`
	Voluntary   int64   `json:"voluntary_switches"`
	Involuntary int64   `json:"involuntary_switches"`
	// Allocs and AllocBytes are the client's heap allocations in the
	// window (runtime/metrics, read in the client itself): objects, each
	// counted once as testing's -benchmem counts them, and bytes.
	Allocs     int64 `json:"allocs"`
	AllocBytes int64 `json:"alloc_bytes"`
	// SiteCPUSeconds is what the site process spent in the window and
	// OtherCPUSeconds what every other process on the machine did, where
	// /proc says (Measured).
	SiteCPUSeconds  float64 `json:"site_cpu_s"`
	OtherCPUSeconds float64 `json:"other_cpu_s"`
	Measured        bool    `json:"machine_measured"`
}

// Memory is what S3 reads at the plateau, when every connection is open
// and holds a request the site has not answered yet.
type Memory struct {
	AtSeconds float64 `json:"at_s"` // since the child started
	// Go's live heap and goroutine stacks, after a GC, before the job
	// started and at the plateau; RSS the same two moments.
	HeapBefore    int64 `json:"heap_before"`
	HeapPlateau   int64 `json:"heap_plateau"`
	StacksBefore  int64 `json:"stacks_before"`
	StacksPlateau int64 `json:"stacks_plateau"`
	RSSBefore     int64 `json:"rss_before"`
	RSSPlateau    int64 `json:"rss_plateau"`
	// Established is the requests the site held at the plateau: one per
	// connection open and carrying a request.
	Established int64 `json:"established"`
	// Kernel socket memory, machine-wide, before and at the plateau.
	KernelBuffersBefore  int64 `json:"kernel_buffers_before"`
	KernelBuffersPlateau int64 `json:"kernel_buffers_plateau"`
	KernelObjectsBefore  int64 `json:"kernel_objects_before"`
	KernelObjectsPlateau int64 `json:"kernel_objects_plateau"`
}

// CrawlRun is one run of the real crawler (S7): its own figures, the
// harness's clock around it, and the site's counts of what it served.
type CrawlRun struct {
	// Pages are the records this run made, Lines the whole lines of -o
	// once it was over (with --state, every run's: the union).
	Pages int `json:"pages"`
	Lines int `json:"lines"`
	// Loops is the event loops the crawl ran on (--loops).
	Loops int `json:"loops,omitempty"`
	// StartSeconds is from the process's start to the crawl's start:
	// opening -o and --state and replaying the journal. CrawlSeconds is
	// the crawl itself. Both are read in the child.
	StartSeconds float64 `json:"start_s"`
	CrawlSeconds float64 `json:"crawl_s"`
	// FirstRequestSeconds is from the process's start to the first
	// request the site saw, ProcessSeconds to the process's end: both
	// read by the harness, from outside.
	FirstRequestSeconds float64 `json:"first_request_s"`
	ProcessSeconds      float64 `json:"process_s"`
	// CPUSeconds is the process's user and system time, read by itself,
	// or by the harness just before it killed it.
	CPUSeconds float64 `json:"cpu_s"`
	// Killed says the harness killed the run (SIGKILL) once -o had
	// KilledAtLines lines.
	Killed        bool `json:"killed,omitempty"`
	KilledAtLines int  `json:"killed_at_lines,omitempty"`
	// The crawler's own counts.
	Retries       int `json:"retries"`
	RobotsFetches int `json:"robots_fetches"`
	QueuedPeak    int `json:"queued_peak"`
	// SitePages and SiteRobots are what the site served during the run:
	// every request but robots.txt's, and robots.txt's.
	SitePages  int64 `json:"site_pages"`
	SiteRobots int64 `json:"site_robots"`
	// Notices are what the crawler told its operator (a resumed journal,
	// a torn line cut).
	Notices []string `json:"notices,omitempty"`
}
