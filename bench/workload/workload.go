// Package workload says what one benchmark run asks of an HTTP client, and
// what the client reports back. It is the contract between the harness
// (bench/harness, which plans runs and starts processes) and the five
// client variants (bench/reactor on loopkit, bench/baseline on net/http),
// so that every variant is handed exactly the same job.
//
// It sits at the bottom of loopkit's bench tree and imports nothing of it.
package workload

import "fmt"

// Kind is what a job does.
type Kind string

const (
	// Fetch requests one URL N times with at most C requests in flight.
	// S1 (latency-bound), S2 (throughput), S3 (C10K) and S5 (syscalls)
	// are fetch jobs against the site's /delay?ms=N.
	Fetch Kind = "fetch"
	// Crawl crawls the site from URL with at most C requests in flight,
	// with the rules of bench/frontier (or of the crawler itself, which
	// follows the same ones): S4.
	Crawl Kind = "crawl"
)

// Job is one run of one variant.
type Job struct {
	Kind Kind   `json:"kind"`
	URL  string `json:"url"`
	// N is the number of requests of a fetch job.
	N int `json:"n,omitempty"`
	// C caps the requests in flight; 0 means unbounded (all N at once:
	// the source article's "unbounded gather").
	C int `json:"c"`
	// Poller picks the reactor's poller ("epoll", "poll"; "" for the
	// best). The net/http variants ignore it: Go's runtime picks its own.
	Poller string `json:"poller,omitempty"`
}

// Limit is the concurrency a variant must enforce: C, or for an
// unbounded job as many as there are requests (at least 1).
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
	case j.Kind == Fetch && j.N <= 0:
		return fmt.Errorf("workload: fetch job of %d requests", j.N)
	case j.C < 0:
		return fmt.Errorf("workload: negative concurrency %d", j.C)
	case j.Kind == Crawl && j.C == 0:
		return fmt.Errorf("workload: a crawl needs a concurrency limit")
	}
	return nil
}

// Tally is what a variant counted while running a job.
type Tally struct {
	OK     int // responses with the expected status (200 for a fetch)
	Failed int // errors and unexpected statuses
	// FirstError describes the first failure, to say why a run went wrong.
	FirstError string
	// URLs are the URLs a crawl fetched (or tried to), in no order.
	URLs []string
}

// Count tallies one answer to a fetch job: a 200 is OK, anything else
// (an error, another status) a failure.
func (t *Tally) Count(status int, err error) {
	switch {
	case err != nil:
		t.Fail(err.Error())
	case status != 200:
		t.Fail(fmt.Sprintf("status %d", status))
	default:
		t.OK++
	}
}

// Fail counts a failure and keeps the first one's description.
func (t *Tally) Fail(what string) {
	t.Failed++
	if t.FirstError == "" {
		t.FirstError = what
	}
}

// Func runs a job and reports its tally. An error means the job could
// not run at all (no loop, a bad URL); failed requests are counted in
// the tally instead.
type Func func(Job) (Tally, error)
