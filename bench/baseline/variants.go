package baseline

import (
	"net/http"
	"sync"

	"loopkit/bench/workload"
)

// GoroutinePerRequest runs job with a goroutine per request; the
// connection pool is the only gate.
func GoroutinePerRequest(job workload.Job) (workload.Tally, error) {
	return run(job, perRequest(nil))
}

// ChannelSemaphore runs job with a goroutine per request, each gated by a
// buffered channel of job.Limit() slots.
func ChannelSemaphore(job workload.Job) (workload.Tally, error) {
	sem := make(chan struct{}, job.Limit())
	gate := func() (release func()) {
		sem <- struct{}{}
		return func() { <-sem }
	}
	return run(job, perRequest(gate))
}

// WorkerPool runs job on job.Limit() worker goroutines.
func WorkerPool(job workload.Job) (workload.Tally, error) {
	return run(job, pool{})
}

// style is how a variant spreads a job over goroutines.
type style interface {
	fetchAll(c *http.Client, job workload.Job, t *tally)
	crawl(c *http.Client, job workload.Job, t *tally) error
}

// tally is a workload.Tally that goroutines share.
type tally struct {
	mu sync.Mutex
	workload.Tally
}

func (t *tally) count(status int, err error) {
	t.mu.Lock()
	t.Count(status, err)
	t.mu.Unlock()
}

func run(job workload.Job, s style) (workload.Tally, error) {
	if err := job.Check(); err != nil {
		return workload.Tally{}, err
	}
	c := newClient(job)
	defer c.CloseIdleConnections()
	var t tally
	if job.Kind == workload.Crawl {
		if err := s.crawl(c, job, &t); err != nil {
			return workload.Tally{}, err
		}
	} else {
		s.fetchAll(c, job, &t)
	}
	return t.Tally, nil
}

// perRequest starts a goroutine per request; gate, if not nil, is taken
// by each goroutine before its request and released after.
type perRequest func() (release func())

func (gate perRequest) fetchAll(c *http.Client, job workload.Job, t *tally) {
	var wg sync.WaitGroup
	for range job.N {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if gate != nil {
				defer gate()()
			}
			t.count(fetch(c, job.URL))
		}()
	}
	wg.Wait()
}

// pool is a fixed set of workers taking requests from a channel.
type pool struct{}

func (pool) fetchAll(c *http.Client, job workload.Job, t *tally) {
	work := make(chan string, job.Limit())
	go func() {
		for range job.N {
			work <- job.URL
		}
		close(work)
	}()
	var wg sync.WaitGroup
	for range min(job.Limit(), job.N) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for url := range work {
				t.count(fetch(c, url))
			}
		}()
	}
	wg.Wait()
}
