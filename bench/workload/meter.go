package workload

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"loopkit/bench/stats"
)

// Meter is what a variant reports to while it runs a job: every answer,
// the latency of every paced request, the crawl's URLs, the stall probe.
// Its methods may be called from any goroutine; the counters are atomics,
// the same for every variant, so that no variant pays for a lock the
// others do not.
type Meter struct {
	job   Job
	start time.Time
	end   time.Duration // Warmup+Duration: no request starts after it

	granted    atomic.Int64 // requests let start, in a counted job
	ok, failed atomic.Int64
	firstError atomic.Pointer[string]
	stall      atomic.Int64 // the stall probe's worst lateness, ns
	bodyBytes  atomic.Int64 // bytes of the bodies of a crawl's pages

	// Latency holds, for a paced job, the latency of every request due
	// inside the measured window, from when it was due to its answer.
	Latency stats.Histogram

	ctx    context.Context // cancelled when a paced job expires
	cancel context.CancelFunc
	urls   []string
}

// Grace is how far past its end a paced job may run, unless the job says
// otherwise, before the requests still waiting to be sent are given up. A client that falls that far
// behind a rate it was meant to keep up with has collapsed; waiting for it
// to work through its backlog would measure nothing more, and could take
// an hour.
const Grace = 2 * time.Second

// ErrGaveUp is the failure of a paced request given up unsent.
var ErrGaveUp = errors.New("not sent: the client fell more than the grace period behind the arrivals")

// NewMeter starts the job's clock.
func NewMeter(job Job) *Meter {
	m := &Meter{job: job, start: time.Now(), end: job.Warmup + job.Duration, ctx: context.Background()}
	if job.Paced() {
		grace := job.Grace
		if grace <= 0 {
			grace = Grace
		}
		m.ctx, m.cancel = context.WithDeadline(context.Background(), m.start.Add(m.end+grace))
	}
	return m
}

// Context is done when a paced job expires, never for other jobs: a
// client that can wait on a context (net/http) is given it, so that a
// request queued past the end is abandoned instead of sent.
func (m *Meter) Context() context.Context { return m.ctx }

// Expired reports that a paced job is over, grace included: a request
// that is due but not yet sent must be given up (GiveUp), not sent.
func (m *Meter) Expired() bool { return m.ctx.Err() != nil }

// Expiry is closed when a paced job expires; nil (never ready) for other
// jobs.
func (m *Meter) Expiry() <-chan struct{} { return m.ctx.Done() }

// GiveUp counts a request due at intended that was never sent: a failure,
// whose latency is at least the time it waited, and is recorded as that.
func (m *Meter) GiveUp(intended time.Duration) { m.CountAt(intended, 0, ErrGaveUp) }

// Close releases the expiry timer of a paced job.
func (m *Meter) Close() {
	if m.cancel != nil {
		m.cancel()
	}
}

// Now is the time since the meter started, on the monotonic clock: the
// time base of the window, of the arrivals and of the latencies.
func (m *Meter) Now() time.Duration { return time.Since(m.start) }

// Next reports whether another request may start, in a closed-loop job:
// one of the N of a counted job, or any before the end of a timed one. A
// crawl decides for itself, and may always go on.
func (m *Meter) Next() bool {
	switch {
	case m.job.Kind == Crawl:
		return true
	case m.job.Timed():
		return m.Now() < m.end
	default:
		return m.granted.Add(1) <= int64(m.job.N)
	}
}

// Count tallies one answer to a fetch: a 200 is OK, anything else (an
// error, another status) a failure.
func (m *Meter) Count(status int, err error) {
	switch {
	case err != nil:
		m.Fail(err.Error())
	case status != 200:
		m.Fail(fmt.Sprintf("status %d", status))
	default:
		m.ok.Add(1)
	}
}

// CountAt tallies the answer to a paced request that was due at intended
// (a Meter time), and records its latency if it was due in the window.
func (m *Meter) CountAt(intended time.Duration, status int, err error) {
	m.Count(status, err)
	if intended >= m.job.Warmup && intended < m.end {
		m.Latency.Record(m.Now() - intended)
	}
}

// OK counts a success: a crawled page.
func (m *Meter) OK() { m.ok.Add(1) }

// Fail counts a failure and keeps the first one's description.
func (m *Meter) Fail(what string) {
	m.failed.Add(1)
	m.firstError.CompareAndSwap(nil, &what)
}

// Counts are the successes and failures so far.
func (m *Meter) Counts() (ok, failed int64) { return m.ok.Load(), m.failed.Load() }

// FirstError describes the first failure, "" if none.
func (m *Meter) FirstError() string {
	if p := m.firstError.Load(); p != nil {
		return *p
	}
	return ""
}

// SetURLs records the URLs a crawl fetched (or tried to), in any order.
// Call it once, when the crawl is over.
func (m *Meter) SetURLs(urls []string) { m.urls = urls }

// URLs are what SetURLs recorded.
func (m *Meter) URLs() []string { return m.urls }

// Late records that the stall probe's timer fired d after it was due. The
// worst lateness is the longest the scheduler was kept from its timers:
// on an event loop, the longest stretch of callbacks between two polls
// (within the probe's 1 ms period); on Go's runtime, how long a runnable
// goroutine waited for a thread.
func (m *Meter) Late(d time.Duration) {
	v := int64(d)
	for {
		old := m.stall.Load()
		if v <= old || m.stall.CompareAndSwap(old, v) {
			return
		}
	}
}

// Stall is the probe's worst lateness so far.
func (m *Meter) Stall() time.Duration { return time.Duration(m.stall.Load()) }

// ProbePeriod is how often the stall probe's timer is set to fire.
const ProbePeriod = time.Millisecond

// ProbeGoroutine runs the stall probe on Go's scheduler, as a goroutine
// sleeping ProbePeriod at a time, until stop is closed. The variants on
// loopkit run the same probe as a loop timer instead (bench/reactor).
func (m *Meter) ProbeGoroutine(stop <-chan struct{}) {
	t := time.NewTimer(ProbePeriod)
	defer t.Stop()
	due := m.Now() + ProbePeriod
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			now := m.Now()
			m.Late(now - due)
			due = now + ProbePeriod
			t.Reset(ProbePeriod)
		}
	}
}

// Received counts n bytes of a crawled page's body.
func (m *Meter) Received(n int) { m.bodyBytes.Add(int64(n)) }

// BodyBytes is what Received counted.
func (m *Meter) BodyBytes() int64 { return m.bodyBytes.Load() }
