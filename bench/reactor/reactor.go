// Package reactor holds the two benchmark variants that run on loopkit's
// own stack: netpoll → loop → future → task → crawler/http1.
//
//   - Callbacks drives crawler/http1's future API alone: a request is a
//     Do, its continuation an AddDoneCallback. No stack is kept per
//     request or per connection; this is the reactor as lean as it gets.
//   - Tasks is the crawler's own style: coroutines on iter.Pull (a
//     task.Spawn per request, a task.Semaphore to bound them) calling
//     client.Get(y, url).
//
// Both crawl with bench/crawlrules, the same crawl code as every other
// variant. The harness (bench/harness) runs each in a process of its own;
// bench/conns runs the same HTTP code on goroutines, bench/baseline is
// net/http.
package reactor

import (
	"time"

	"loopkit/bench/workload"
	"loopkit/crawler/http1"
	"loopkit/loop"
)

// newLoop checks job and creates the loop it runs on.
func newLoop(job workload.Job) (*loop.Loop, error) {
	if err := job.Check(); err != nil {
		return nil, err
	}
	return loop.New(&loop.Options{Poller: job.Poller})
}

// newClient returns the client a job runs on. Its connection cap is the
// job's concurrency, so that the pool never queues a request the variant
// already let through, nor opens more connections than there are
// requests in flight. In an open-loop job requests beyond the cap wait in
// the pool, as they wait for a worker in the goroutine variants; the pool
// timeout is the total one, so that waiting there is latency, never a
// failure the others would not have.
func newClient(l *loop.Loop, job workload.Job) *http1.Client {
	return http1.NewClient(l, http1.Options{MaxConnsPerHost: job.Limit(), PoolTimeout: 2 * time.Minute})
}

// status is a reply's status, 0 for none.
func status(reply *http1.Reply) int {
	if reply == nil {
		return 0
	}
	return reply.StatusCode
}

// release hands a reply, once read, back to its client for the next
// request to reuse (http1.Reply.Release): what makes a request on the
// loop cost fewer allocations than on a goroutine. Nothing is kept of it:
// the meter took the status, the crawl its links.
func release(reply *http1.Reply) {
	if reply != nil {
		reply.Release()
	}
}

// probe runs the stall probe on l, if job asks for it: a timer set
// workload.ProbePeriod ahead, again and again, each firing telling m how
// late it came. A callback that runs long keeps the loop from its timers,
// so the worst lateness is the longest stall, to within the period. It
// lives as long as the loop runs; Close cancels the last timer.
func probe(l *loop.Loop, job workload.Job, m *workload.Meter) {
	if !job.Probe {
		return
	}
	var fire func()
	due := m.Now() + workload.ProbePeriod
	fire = func() {
		now := m.Now()
		m.Late(now - due)
		due = now + workload.ProbePeriod
		l.CallLater(workload.ProbePeriod, fire)
	}
	l.CallLater(workload.ProbePeriod, fire)
}

// expire calls giveUp on the loop when an open-loop job expires (see
// workload.Grace): what is still queued then is abandoned, not sent.
func expire(l *loop.Loop, m *workload.Meter, giveUp func()) {
	if deadline, ok := m.Context().Deadline(); ok {
		l.CallLater(time.Until(deadline), giveUp)
	}
}

// pace calls send on the loop for every arrival of an open-loop job, each
// when it falls due, from a loop timer; then done, once all are sent.
func pace(l *loop.Loop, m *workload.Meter, send func(at time.Duration), done func()) {
	p := m.Pacer()
	var tick func()
	tick = func() {
		next, finished := p.Due(m.Now(), send)
		if finished {
			done()
			return
		}
		l.CallLater(next-m.Now(), tick)
	}
	l.CallSoon(tick)
}
