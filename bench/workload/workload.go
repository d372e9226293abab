// Package workload says what one benchmark run asks of an HTTP client, and
// how the client reports back. It is the contract between the harness
// (bench/harness, which plans runs and starts processes) and the client
// variants (bench/reactor, bench/conns, bench/floor, bench/baseline), so
// that every variant is handed exactly the same job and measured by the
// same code.
//
// A job runs in one of three modes:
//
//   - counted: exactly N requests, at most C in flight (S1, S3, S5);
//   - timed, closed loop: at most C in flight, new requests starting until
//     Warmup+Duration; only the window after the warm-up is measured (S2);
//   - paced, open loop: requests are due at a fixed Rate whatever happens
//     to earlier ones, over at most C connections, and each one's latency
//     is measured from when it was due, not from when it was sent (the
//     latency scenario). A client that falls behind cannot hide it: the
//     requests it was too busy to send wait, and their wait counts.
//
// It sits near the bottom of bench/, over bench/stats.
package workload

import (
	"fmt"
	"time"
)

// Kind is what a job does.
type Kind string

const (
	// Fetch requests one URL over and over: the site's /delay?ms=N.
	Fetch Kind = "fetch"
	// Crawl crawls the site from URL with at most C requests in flight,
	// with the rules of bench/crawlrules: S4.
	Crawl Kind = "crawl"
)

// Job is one run of one variant.
type Job struct {
	Kind Kind   `json:"kind"`
	URL  string `json:"url"`
	// N is the number of requests of a counted fetch job.
	N int `json:"n,omitempty"`
	// Warmup and Duration make a timed or paced job: requests start until
	// Warmup+Duration, and only what happens after Warmup is measured.
	Warmup   time.Duration `json:"warmup,omitempty"`
	Duration time.Duration `json:"duration,omitempty"`
	// C caps the requests in flight (closed loop) or the connections
	// (open loop); 0 means unbounded: all N at once, the source article's
	// "unbounded gather".
	C int `json:"c"`
	// Rate, if positive, makes the job open loop: requests per second,
	// due at even intervals.
	Rate float64 `json:"rate,omitempty"`
	// Grace bounds how far past its end an open-loop job runs [Grace].
	Grace time.Duration `json:"grace,omitempty"`
	// Poller picks the reactor's poller ("epoll", "poll"; "" for the
	// best). Variants on Go's runtime ignore it.
	Poller string `json:"poller,omitempty"`
	// Loops is how many event loops a reactor variant that can use
	// several runs on (bench/reactor CallbacksOnLoops) [1]; LockOSThread
	// wires each loop's goroutine to its own thread.
	Loops        int  `json:"loops,omitempty"`
	LockOSThread bool `json:"lock_os_thread,omitempty"`
	// Probe asks for the stall probe: how late a 1 ms timer fires on the
	// variant's scheduler (see Meter.Late).
	Probe bool `json:"probe,omitempty"`
}

// Timed reports a job measured over a time window.
func (j Job) Timed() bool { return j.Duration > 0 }

// Paced reports an open-loop job.
func (j Job) Paced() bool { return j.Rate > 0 }

// Limit is the concurrency a variant must enforce: C, or for an
// unbounded counted job as many as there are requests (at least 1).
func (j Job) Limit() int {
	if j.C > 0 {
		return j.C
	}
	return max(j.N, 1)
}

// Check reports a job that no variant can run.
func (j Job) Check() error {
	switch {
	case j.Kind != Fetch && j.Kind != Crawl:
		return fmt.Errorf("workload: unknown job kind %q", j.Kind)
	case j.URL == "":
		return fmt.Errorf("workload: %s job without a URL", j.Kind)
	case j.C < 0 || j.N < 0 || j.Warmup < 0 || j.Duration < 0 || j.Rate < 0:
		return fmt.Errorf("workload: negative count, time or rate in %+v", j)
	case j.Kind == Fetch && (j.N > 0) == j.Timed():
		return fmt.Errorf("workload: a fetch job is counted (N) or timed (Duration), not %s", both(j.N > 0))
	case j.Paced() && (!j.Timed() || j.C == 0):
		return fmt.Errorf("workload: an open-loop job needs a duration and a connection limit")
	case j.Kind == Crawl && j.C == 0:
		return fmt.Errorf("workload: a crawl needs a concurrency limit")
	}
	return nil
}

func both(counted bool) string {
	if counted {
		return "both"
	}
	return "neither"
}

// Func runs a job, reporting every request to m. An error means the job
// could not run at all (no loop, a bad URL); failed requests are counted
// in m instead.
type Func func(job Job, m *Meter) error
