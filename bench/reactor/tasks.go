package reactor

import (
	"loopkit/bench/workload"
	"loopkit/crawler"
	"loopkit/crawler/http1"
	"loopkit/loop"
	"loopkit/task"
)

// Tasks runs job on tasks: the crawler's own engine.
func Tasks(job workload.Job) (workload.Tally, error) {
	l, err := newLoop(job)
	if err != nil {
		return workload.Tally{}, err
	}
	defer l.Close()
	var t workload.Tally
	if job.Kind == workload.Crawl {
		err = crawlTasks(l, job, &t) // the crawler brings its own client
		return t, err
	}
	client := newClient(l, job)
	defer client.Close()
	err = fetchTasks(l, client, job, &t)
	return t, err
}

// fetchTasks spawns a task per request, gated by a semaphore acquired
// before the spawn, as seed 000's asyncio.Semaphore example gates its
// coroutines: at most job.Limit() tasks exist at once, each with its
// coroutine stack.
func fetchTasks(l *loop.Loop, client *http1.Client, job workload.Job, t *workload.Tally) error {
	limit := job.Limit()
	_, err := task.Run(l, func(y task.Yield) (int, error) {
		sem := task.NewSemaphore(limit)
		for range job.N {
			if err := sem.Acquire(y); err != nil {
				return 0, err
			}
			task.Spawn(l, func(y task.Yield) (int, error) {
				defer sem.Release()
				reply, err := client.Get(y, job.URL)
				count(t, reply, err)
				return 0, nil
			})
		}
		// Every permit back means every request finished.
		for range limit {
			if err := sem.Acquire(y); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	return err
}

// crawlTasks is the crawler itself, with job.C workers and job.C requests
// in flight to the site, robots.txt off as for every variant (the site is
// ours, and the frontier the others use does not read it either).
func crawlTasks(l *loop.Loop, job workload.Job, t *workload.Tally) error {
	c, err := crawler.New(l, crawler.Config{
		Roots:    []string{job.URL},
		MaxTasks: job.C,
		PerHost:  job.C,
		NoRobots: true,
	})
	if err != nil {
		return err
	}
	if _, err := task.Run(l, func(y task.Yield) (int, error) { return 0, c.Crawl(y) }); err != nil {
		return err
	}
	for _, r := range c.Records() {
		t.URLs = append(t.URLs, r.URL)
		if r.Status == nil {
			t.Fail(r.URL + ": " + *r.Exception)
		} else {
			t.OK++
		}
	}
	return nil
}
