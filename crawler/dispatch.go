package crawler

import (
	"errors"
	"time"

	"loopkit/crawler/frontier"
	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// dispatcher is the frontier's loop side. The frontier (crawler/frontier)
// is pure: it says which job may go now, and when the next one could. The
// dispatcher makes that a loop's work: idle workers park here, each on a
// future, and dispatch hands them jobs; when the frontier says "not
// before t", one loop timer wakes dispatch at t. So no worker ever sleeps
// on a host, and a host that must wait a minute costs nothing meanwhile.
type dispatcher struct {
	idle  []*future.Future[*frontier.Job] // parked workers, first come first served
	timer *loop.Timer                     // wakes dispatch when the frontier's next time comes
	held  bool                            // the budget said no: it calls dispatch when it may say yes
	empty *future.Future[struct{}]        // completes when the crawl is over

	fetches map[*future.Future[*http1.Reply]]*frontier.Job // requests on the wire, for cancelInFlight and Drop
}

func (d *dispatcher) init(l *loop.Loop) {
	d.empty = future.New[struct{}](l)
	d.fetches = make(map[*future.Future[*http1.Reply]]*frontier.Job)
}

// errStopped is what next says once the frontier hands out nothing more.
var errStopped = errors.New("crawler: the frontier is stopped")

// next parks the calling worker until dispatch hands it a job.
func (c *Crawler) next(y task.Yield) (*frontier.Job, error) {
	if c.front.Stopped() {
		return nil, errStopped
	}
	w := future.New[*frontier.Job](c.loop)
	c.idle = append(c.idle, w)
	c.dispatch()
	j, err := task.Await(y, w)
	if err != nil && w.Done() {
		// Cancelled just after dispatch handed us a job: give it back,
		// or it would be neither done nor to do.
		if handed, herr := w.Result(); herr == nil {
			c.endJob(handed, verdict{retry: true, tries: handed.Item.Tries})
		}
	}
	return j, err
}

// dispatch hands jobs to parked workers for as long as the frontier has
// one to hand out now, and otherwise sets the timer for when it will.
// It is called after anything that may let a job go: a worker parking, a
// URL queued, a job over, a request sent, a budget freed, the timer.
func (c *Crawler) dispatch() {
	now := c.loop.Time()
	c.held = false
	for c.hasIdle() {
		j, ok := c.front.Next(now)
		if !ok {
			break
		}
		c.popIdle().SetResult(j)
		c.refill(j.Host) // its queue may have run low: URLs come back from disk
	}
	if at, ok := c.front.Wake(); ok && !c.held {
		switch {
		case c.hasIdle():
			c.wakeAt(at)
		case at <= now:
			c.startWorkers() // a job waits for a worker
		case len(c.workers) == 0:
			// No worker yet, and the first job must wait: a Retry-After
			// replayed from the journal, or inherited with a fleet's
			// shard. No worker will come back to dispatch, so the timer
			// must, or the crawl waits forever.
			c.wakeAt(at)
		}
	}
	c.checkEmpty()
}

// startWorkers starts a few more worker tasks, up to MaxTasks on this
// loop. Workers are started as jobs come, not all at the start: a loop
// whose servers have little to do — one of two, in a crawl of one site —
// costs no idle coroutines. Each new worker parks in next, which
// dispatches again: a loop with much to do reaches its share in a few
// turns.
func (c *Crawler) startWorkers() {
	if !c.crawling {
		return
	}
	for range min(4, c.cfg.MaxTasks-len(c.workers)) {
		c.workers = append(c.workers, task.Spawn(c.loop, c.work))
	}
}

// hasIdle says whether a worker is parked, dropping those cancelled
// while they were.
func (c *Crawler) hasIdle() bool {
	for len(c.idle) > 0 && c.idle[0].Done() {
		c.idle[0] = nil
		c.idle = c.idle[1:]
	}
	return len(c.idle) > 0
}

func (c *Crawler) popIdle() *future.Future[*frontier.Job] {
	w := c.idle[0]
	c.idle[0] = nil
	c.idle = c.idle[1:]
	return w
}

// wakeAt makes sure dispatch runs at t.
func (c *Crawler) wakeAt(t time.Duration) {
	if c.timer != nil {
		if c.timer.When() <= t {
			return
		}
		c.timer.Cancel()
	}
	c.timer = c.loop.CallAt(t, func() {
		c.timer = nil
		c.dispatch()
	})
}

// stop hands out nothing more: parked workers are told so, and retries
// waiting out a backoff go back to their queues, as to do.
func (c *Crawler) stop() {
	if c.front.Stopped() {
		return
	}
	c.front.Stop(c.loop.Time())
	for c.hasIdle() {
		c.popIdle().SetError(errStopped)
	}
	if c.timer != nil {
		c.timer.Cancel()
		c.timer = nil
	}
	c.checkEmpty()
}

// checkEmpty tells the crawl's peers whether this loop has nothing left
// to do: nothing queued, handed out or waiting out a backoff, nor on
// disk (spilled URLs, and links waiting for the seen set's answer, are
// work the frontier cannot see; once stopped, they are to do, like the
// queued ones). On its own, that is the end.
func (c *Crawler) checkEmpty() {
	if c.empty.Done() {
		return
	}
	c.peers.idle(c.front.Empty() && (c.front.Stopped() || !c.waitsOnDisk()))
}

// end ends the crawl on this loop: join returns. Its peers call it: at
// once on its own, when every loop is idle in a Group, when the fleet
// says so.
func (c *Crawler) end() {
	if !c.empty.Done() {
		c.empty.SetResult(struct{}{})
	}
}

// join waits until checkEmpty says the crawl has nothing left: the
// chapter's q.join().
func (c *Crawler) join(y task.Yield) error {
	_, err := task.Await(y, c.empty)
	return err
}

// cancelInFlight cancels the requests on the wire. A request whose answer
// has already come cannot be cancelled, and is recorded as usual; one
// cancelled is counted as to do. Pages being parsed are not cancelled:
// their answer came, and their parse is bounded (parsepool.go).
func (c *Crawler) cancelInFlight() {
	for f := range c.fetches {
		f.Cancel()
	}
}
