package gostyle

import (
	"sync"
	"time"

	"loopkit/bench/workload"
)

// PerRequest runs job with a goroutine per request, all sharing get (and
// its connection pool). With semaphore, each goroutine first takes a slot
// of a buffered channel of job.Limit() slots; without, the pool's
// connection cap is the only bound, and goroutines queue inside it.
//
// When the goroutines start depends on the mode:
//
//   - counted: all N at once, as the source article's gather does, so
//     that N goroutines are alive together (S3 measures what they cost);
//   - timed: a spawner starts them one per request and keeps 2×Limit
//     alive, Limit at work and Limit waiting (on the semaphore, or in the
//     pool). All at once is impossible when the count is "as many as fit
//     in five seconds", and an unbounded spawner would measure only how
//     fast memory fills;
//   - open loop: one per request as it falls due, as a server-side
//     fan-out would start them; one still waiting for its turn when the
//     job expires is given up (see workload.Grace).
func PerRequest(job workload.Job, m *workload.Meter, get Get, semaphore bool) error {
	var sem chan struct{}
	if semaphore {
		sem = make(chan struct{}, job.Limit())
	}
	if job.Kind == workload.Crawl {
		return crawlPerRequest(job, m, get, sem)
	}
	var wg sync.WaitGroup
	one := func(at time.Duration, paced bool, release func()) {
		defer wg.Done()
		if release != nil {
			defer release()
		}
		if !paced {
			if sem != nil {
				sem <- struct{}{}
				defer func() { <-sem }()
			}
			m.Count(fetch(get, job.URL))
			return
		}
		if sem != nil {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-m.Expiry(): // the client fell hopelessly behind
				m.GiveUp(at)
				return
			}
		}
		status, err := fetch(get, job.URL)
		if err != nil && m.Expired() {
			m.GiveUp(at) // abandoned in the pool's queue at expiry
			return
		}
		m.CountAt(at, status, err)
	}
	switch {
	case job.Paced():
		m.Pace(func(at time.Duration) {
			wg.Add(1)
			go one(at, true, nil)
		})
	case job.Timed():
		alive := make(chan struct{}, 2*job.Limit())
		release := func() { <-alive }
		for m.Next() {
			alive <- struct{}{}
			wg.Add(1)
			go one(0, false, release)
		}
	default:
		for m.Next() {
			wg.Add(1)
			go one(0, false, nil)
		}
	}
	wg.Wait()
	return nil
}
