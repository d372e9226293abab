// Package reactor holds the two benchmark variants that run on loopkit's
// own stack: netpoll → loop → future → task → crawler/http1.
//
//   - Callbacks drives crawler/http1's future API alone: a request is a
//     Do, its continuation an AddDoneCallback. No stack is kept per
//     request or per connection; this is the reactor as lean as it gets.
//   - Tasks is the crawler's own engine: coroutines on iter.Pull (one
//     task.Spawn per request, a task.Semaphore to bound them) calling
//     client.Get(y, url); for the crawl, the crawler package itself.
//
// The harness (bench/harness) runs each in a process of its own; see
// bench/baseline for the net/http variants they are compared with.
package reactor

import (
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

// newClient returns the client a fetch job runs on. Its connection cap
// is the job's concurrency, so that the pool never queues a request the
// variant already let through, nor opens more connections than there are
// requests in flight.
func newClient(l *loop.Loop, job workload.Job) *http1.Client {
	return http1.NewClient(l, http1.Options{MaxConnsPerHost: job.Limit()})
}

// count tallies a reply of a fetch job.
func count(t *workload.Tally, reply *http1.Reply, err error) {
	status := 0
	if reply != nil {
		status = reply.StatusCode
	}
	t.Count(status, err)
}
