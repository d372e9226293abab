package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"loopkit/bench/proc"
	"loopkit/bench/report"
	"loopkit/bench/workload"
	"loopkit/site"
)

// The environment of a child process: its role, and its orders as JSON.
const (
	envRole  = "LOOPKIT_BENCH_ROLE"
	envOrder = "LOOPKIT_BENCH_ORDER"
)

const (
	roleVariant = "variant"
	roleSite    = "site"
	roleCrawl   = "crawl"  // the real crawler (S7, million_child.go)
	roleExpect  = "expect" // the URLs a site should yield, as keys (S7, million_check.go)
)

// variantOrder is what a variant child is told to do.
type variantOrder struct {
	Variant string       `json:"variant"`
	Job     workload.Job `json:"job"`
	// SitePID is the site's process, whose CPU the child reads at the
	// ends of its window.
	SitePID int `json:"site_pid"`
	// Memory asks the child to measure its Go memory before the job and
	// again when the harness signals the plateau (S3).
	Memory bool `json:"memory,omitempty"`
	// CPUProfile, if set, is where to write a pprof CPU profile of the job.
	CPUProfile string `json:"cpu_profile,omitempty"`
}

// siteOrder is what a site child is told to serve.
type siteOrder struct {
	Pages     int `json:"pages"`
	PageBytes int `json:"page_bytes,omitempty"` // site.Config.PageBytes
	Hosts     int `json:"hosts,omitempty"`      // site.Config.Hosts
}

// IsChild reports whether this process was started by the harness to
// play a part; if so, the main function must call ChildMain and exit.
func IsChild() bool { return os.Getenv(envRole) != "" }

// ChildMain plays the part the harness gave this process and returns its
// exit code.
func ChildMain(stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	switch role := os.Getenv(envRole); role {
	case roleVariant:
		err = runVariantChild(stdout)
	case roleSite:
		err = serveSiteChild(stdin, stdout)
	case roleCrawl:
		err = runCrawlChild(stdout)
	case roleExpect:
		err = expectChild(stdout)
	default:
		err = fmt.Errorf("unknown role %q", role)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bench child: %v\n", err)
		return 1
	}
	return 0
}

func runVariantChild(stdout io.Writer) error {
	var o variantOrder
	if err := json.Unmarshal([]byte(os.Getenv(envOrder)), &o); err != nil {
		return fmt.Errorf("bad order: %w", err)
	}
	v, err := Lookup(o.Variant)
	if err != nil {
		return err
	}
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	s, err := measure(v, o)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(s)
}

// measure runs one job of v and reports what it cost this process.
func measure(v Variant, o variantOrder) (report.Sample, error) {
	job := o.Job
	// A refused raise leaves the limit as it was, which the sample shows.
	limit, _ := proc.RaiseFDLimit()
	var mem *memoryProbe
	if o.Memory {
		mem = startMemoryProbe() // before the job: its baseline is the empty client
	}
	m := workload.NewMeter(job)
	defer m.Close()
	sampler := proc.StartSampler(100 * time.Millisecond)
	win := startWindow(m, job, o.SitePID)
	stopProbe := make(chan struct{})
	if job.Probe && !v.Loop {
		go m.ProbeGoroutine(stopProbe)
	}
	err := v.Run(job, m)
	wall := m.Now()
	close(stopProbe)
	window := win.finish()
	peaks := sampler.Stop()
	if err != nil {
		return report.Sample{}, err
	}
	ok, failed := m.Counts()
	urls := slices.Clone(m.URLs())
	slices.Sort(urls)
	s := report.Sample{
		Variant:        v.Name,
		OK:             int(ok),
		Failed:         int(failed),
		FirstError:     m.FirstError(),
		WallSeconds:    wall.Seconds(),
		Window:         window,
		PeakRSSBytes:   proc.Now().PeakRSS,
		PeakGoroutines: peaks.Goroutines,
		PeakThreads:    peaks.Threads,
		CPUs:           proc.CPUList(),
		FDSoft:         limit.Soft,
		FDHard:         limit.Hard,
		FDRaised:       limit.Raised,
		StallNS:        int64(m.Stall()),
		BodyBytes:      m.BodyBytes(),
		URLs:           urls,
	}
	if job.Paced() {
		s.Latency = &m.Latency
	}
	if mem != nil {
		s.Memory = mem.stop()
	}
	return s, nil
}

// serveSiteChild serves the site until stdin closes: the parent holds the
// other end, so the site goes away with the parent, however it ends.
func serveSiteChild(stdin io.Reader, stdout io.Writer) error {
	var o siteOrder
	if err := json.Unmarshal([]byte(os.Getenv(envOrder)), &o); err != nil {
		return fmt.Errorf("bad order: %w", err)
	}
	_, _ = proc.RaiseFDLimit() // if refused, Start or the clients will say so
	s, err := site.Start(site.Config{Pages: o.Pages, PageBytes: o.PageBytes, Hosts: o.Hosts}, "127.0.0.1:0")
	if err != nil {
		return err
	}
	// Every host's root, on one line: the first is the site's own.
	fmt.Fprintln(stdout, strings.Join(s.URLs(), " "))
	_, _ = io.Copy(io.Discard, bufio.NewReader(stdin))
	return s.Close()
}
