package baseline

import (
	"net/http"
	"sync"

	"loopkit/bench/frontier"
	"loopkit/bench/workload"
)

// follow is the part of a visit that needs no lock: the response's
// links, extracted on the goroutine that fetched it.
type follow struct {
	it   frontier.Item
	next []frontier.Item
	ok   bool
	err  error
}

// fetchAndFollow fetches it and extracts its links; release, if not nil,
// is called as soon as the response is in, before the links are
// extracted, like the reactor's window slot.
func fetchAndFollow(c *http.Client, f *frontier.Frontier, it frontier.Item, release func()) follow {
	resp, err := fetchPage(c, it.URL)
	if release != nil {
		release()
	}
	if err != nil {
		return follow{it: it, err: err}
	}
	next, ok := f.Follow(it, resp)
	return follow{it: it, next: next, ok: ok}
}

// record hands a followed response to the frontier and tallies it: any
// status is OK, no response at all a failure. The caller holds t.mu,
// which guards the frontier too.
func (v follow) record(f *frontier.Frontier, t *tally) {
	switch {
	case v.err != nil:
		f.Failed(v.it)
		t.Fail(v.it.URL + ": " + v.err.Error())
	case !v.ok:
		f.Record(v.it, nil)
		t.Fail(v.it.URL + ": links could not be extracted")
	default:
		f.Record(v.it, v.next)
		t.OK++
	}
}

// crawl starts a goroutine for each URL as soon as it is found.
func (gate perRequest) crawl(c *http.Client, job workload.Job, t *tally) error {
	f, err := frontier.New(job.URL)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	var spawnQueued func() // with t.mu held
	spawnQueued = func() {
		for it, ok := f.Next(); ok; it, ok = f.Next() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var release func()
				if gate != nil {
					release = gate()
				}
				v := fetchAndFollow(c, f, it, release)
				t.mu.Lock()
				defer t.mu.Unlock()
				v.record(f, t)
				spawnQueued()
			}()
		}
	}
	t.mu.Lock()
	spawnQueued()
	t.mu.Unlock()
	wg.Wait()
	t.URLs = f.Fetched()
	return nil
}

// crawl runs job.C workers over the frontier. A worker that finds the
// queue empty waits while others are still fetching (they may find more);
// when nothing is queued and nobody is fetching, the crawl is over.
func (pool) crawl(c *http.Client, job workload.Job, t *tally) error {
	f, err := frontier.New(job.URL)
	if err != nil {
		return err
	}
	changed := sync.NewCond(&t.mu)
	busy := 0
	worker := func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		for {
			it, ok := f.Next()
			for !ok && busy > 0 {
				changed.Wait()
				it, ok = f.Next()
			}
			if !ok {
				changed.Broadcast() // the crawl is over: wake the others
				return
			}
			busy++
			t.mu.Unlock()
			v := fetchAndFollow(c, f, it, nil)
			t.mu.Lock()
			busy--
			v.record(f, t)
			changed.Broadcast()
		}
	}
	var wg sync.WaitGroup
	for range job.C {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker()
		}()
	}
	wg.Wait()
	t.URLs = f.Fetched()
	return nil
}
