package reactor

import (
	"time"

	"loopkit/bench/crawlrules"
	"loopkit/bench/workload"
	"loopkit/crawler/http1"
	"loopkit/loop"
	"loopkit/task"
)

// Tasks runs job on tasks: a coroutine per request, the crawler's style.
func Tasks(job workload.Job, m *workload.Meter) error {
	l, err := newLoop(job)
	if err != nil {
		return err
	}
	defer l.Close()
	client := newClient(l, job)
	defer client.Close()
	probe(l, job, m)
	if job.Paced() {
		pacedTasks(l, client, job, m)
		return l.Run()
	}
	_, err = task.Run(l, func(y task.Yield) (int, error) {
		if job.Kind == workload.Crawl {
			return 0, crawlTasks(y, l, client, job, m)
		}
		return 0, fetchTasks(y, l, client, job, m)
	})
	return err
}

// fetchTasks spawns a task per request, gated by a semaphore acquired
// before the spawn, as the asyncio.Semaphore example of an article on
// polite crawling with asyncio and httpx gates its coroutines: at most
// job.Limit() tasks exist at once, each with its coroutine stack.
func fetchTasks(y task.Yield, l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) error {
	limit := job.Limit()
	sem := task.NewSemaphore(limit)
	// One body for every task, made once: it captures nothing that
	// differs between requests (a func literal in the loop below would
	// be a closure allocated per task).
	body := func(y task.Yield) (int, error) {
		defer sem.Release()
		reply, err := client.Get(y, job.URL)
		m.Count(status(reply), err)
		release(reply)
		return 0, nil
	}
	for m.Next() {
		if err := sem.Acquire(y); err != nil {
			return err
		}
		task.Spawn(l, body)
	}
	// Every permit back means every request finished.
	for range limit {
		if err := sem.Acquire(y); err != nil {
			return err
		}
	}
	return nil
}

// pacedTasks spawns a task per request as it falls due; the client's pool
// is the only bound, as for a goroutine per request. The tasks still
// waiting when the job expires are cancelled and their requests given up.
func pacedTasks(l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) {
	pacing := true
	alive := make(map[*task.Task[int]]bool)
	send := func(at time.Duration) {
		t := task.Spawn(l, func(y task.Yield) (int, error) {
			reply, err := client.Get(y, job.URL)
			if err != nil && m.Expired() {
				m.GiveUp(at)
			} else {
				m.CountAt(at, status(reply), err)
			}
			release(reply)
			return 0, nil
		})
		alive[t] = true
		t.OnDone(func() {
			delete(alive, t)
			if !pacing && len(alive) == 0 {
				l.Stop()
			}
		})
	}
	pace(l, m, send, func() {
		pacing = false
		if len(alive) == 0 {
			l.Stop()
		}
	})
	expire(l, m, func() {
		for t := range alive {
			t.Cancel()
		}
	})
}

// crawlTasks runs job.C worker tasks over the crawl, as crawlWorkers
// runs goroutines (bench/gostyle): a worker that finds the queue empty
// waits while others still fetch, and the crawl is over when nothing is
// queued and nobody is fetching.
func crawlTasks(y task.Yield, l *loop.Loop, client *http1.Client, job workload.Job, m *workload.Meter) error {
	f, err := crawlrules.New(job.URL)
	if err != nil {
		return err
	}
	busy := 0
	var changed task.Event
	worker := func(y task.Yield) (int, error) {
		for {
			it, ok := f.Next()
			if !ok && busy == 0 {
				changed.Set() // the crawl is over: wake the others
				return 0, nil
			}
			if !ok {
				changed.Clear()
				if err := changed.Wait(y); err != nil {
					return 0, err
				}
				continue
			}
			busy++
			reply, err := client.Get(y, it.URL)
			busy--
			visit(f, it, reply, err, m)
			release(reply)
			changed.Set()
		}
	}
	workers := make([]*task.Task[int], job.C)
	for i := range workers {
		workers[i] = task.Spawn(l, worker)
	}
	for _, w := range workers {
		if _, err := task.Await(y, w); err != nil {
			return err
		}
	}
	m.SetURLs(f.Fetched())
	return nil
}
