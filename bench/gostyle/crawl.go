package gostyle

import (
	"sync"

	"loopkit/bench/crawlrules"
	"loopkit/bench/workload"
)

// crawl is a crawl shared by goroutines, with the one lock that guards
// it. Links are extracted outside the lock (Frontier.Follow may run
// concurrently), so that parsing spreads over every core the variant has.
type crawl struct {
	mu   sync.Mutex
	f    *crawlrules.Crawl
	busy int        // fetches in progress, guarded by mu
	more *sync.Cond // signalled when the queue grew or a fetch ended
}

func newCrawl(job workload.Job) (*crawl, error) {
	f, err := crawlrules.New(job.URL)
	if err != nil {
		return nil, err
	}
	c := &crawl{f: f}
	c.more = sync.NewCond(&c.mu)
	return c, nil
}

// fetchAndFollow fetches it and extracts its links, without the lock;
// release, if not nil, is called as soon as the response is in, before
// the links are extracted, like the reactor's window slot.
func (c *crawl) fetchAndFollow(get Get, it crawlrules.Item, release func()) visit {
	resp, err := get(it.URL)
	if release != nil {
		release()
	}
	if err != nil {
		return visit{it: it, err: err}
	}
	next, ok := c.f.Follow(it, resp)
	return visit{it: it, next: next, ok: ok, size: len(resp.Body)}
}

// visit is a response with its links, ready to be recorded.
type visit struct {
	it   crawlrules.Item
	next []crawlrules.Item
	ok   bool
	err  error
	size int // of the body
}

// record hands v to the crawl and tallies it: any status is a page,
// no response at all a failure. The caller holds c.mu.
func (c *crawl) record(v visit, m *workload.Meter) {
	switch {
	case v.err != nil:
		c.f.Failed(v.it)
		m.Fail(v.it.URL + ": " + v.err.Error())
	case !v.ok:
		c.f.Record(v.it, nil)
		m.Fail(v.it.URL + ": links could not be extracted")
	default:
		c.f.Record(v.it, v.next)
		m.Received(v.size)
		m.OK()
	}
}

// crawlWorkers runs job.C workers over the crawlrules. A worker that finds
// the queue empty waits while others are still fetching (they may find
// more); when nothing is queued and nobody is fetching, the crawl is over.
func crawlWorkers(job workload.Job, m *workload.Meter, newWorker NewWorker) error {
	c, err := newCrawl(job)
	if err != nil {
		return err
	}
	worker := func(get Get) {
		c.mu.Lock()
		defer c.mu.Unlock()
		for {
			it, ok := c.f.Next()
			for !ok && c.busy > 0 {
				c.more.Wait()
				it, ok = c.f.Next()
			}
			if !ok {
				c.more.Broadcast() // the crawl is over: wake the others
				return
			}
			c.busy++
			c.mu.Unlock()
			v := c.fetchAndFollow(get, it, nil)
			c.mu.Lock()
			c.busy--
			c.record(v, m)
			c.more.Broadcast()
		}
	}
	var wg sync.WaitGroup
	for range job.C {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get, done := newWorker()
			defer done()
			worker(get)
		}()
	}
	wg.Wait()
	m.SetURLs(c.f.Fetched())
	return nil
}

// crawlPerRequest starts a goroutine for each URL as soon as it is found;
// sem, if not nil, is taken by each before its request and released as
// soon as the response is in.
func crawlPerRequest(job workload.Job, m *workload.Meter, get Get, sem chan struct{}) error {
	c, err := newCrawl(job)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	var spawnQueued func() // with c.mu held
	spawnQueued = func() {
		for it, ok := c.f.Next(); ok; it, ok = c.f.Next() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var release func()
				if sem != nil {
					sem <- struct{}{}
					release = func() { <-sem }
				}
				v := c.fetchAndFollow(get, it, release)
				c.mu.Lock()
				defer c.mu.Unlock()
				c.record(v, m)
				spawnQueued()
			}()
		}
	}
	c.mu.Lock()
	spawnQueued()
	c.mu.Unlock()
	wg.Wait()
	m.SetURLs(c.f.Fetched())
	return nil
}
