package gostyle

import (
	"sync"
	"time"

	"loopkit/bench/workload"
)

// Workers runs job on job.Limit() goroutines, each with a Get of its own
// from newWorker.
//
// Closed loop (counted or timed), each worker loops: may another request
// start? then make it. Open loop, a dispatcher (workload's Pace) puts each
// request's due time on a channel as it falls due, and the workers take
// them: a request that finds every worker busy waits in the channel, its
// latency running from when it was due. One still waiting when the job
// expires is given up (see workload.Grace).
func Workers(job workload.Job, m *workload.Meter, newWorker NewWorker) error {
	if job.Kind == workload.Crawl {
		return crawlWorkers(job, m, newWorker)
	}
	var due chan time.Duration
	if job.Paced() {
		// As deep as the whole run: the dispatcher must never wait for a
		// worker, or the client's speed would pace the load, which is
		// exactly what an open loop must not let happen.
		due = make(chan time.Duration, m.Pacer().Arrivals())
	}
	var wg sync.WaitGroup
	for range job.Limit() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get, done := newWorker()
			defer done()
			if due == nil {
				for m.Next() {
					m.Count(fetch(get, job.URL))
				}
				return
			}
			for at := range due {
				if m.Expired() { // the client fell hopelessly behind
					m.GiveUp(at)
					continue
				}
				status, err := fetch(get, job.URL)
				m.CountAt(at, status, err)
			}
		}()
	}
	if due != nil {
		m.Pace(func(at time.Duration) { due <- at })
		close(due)
	}
	wg.Wait()
	return nil
}
