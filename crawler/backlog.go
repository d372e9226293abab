package crawler

import (
	"context"
	"errors"
	"io"
	"net/url"
	"sync/atomic"
	"time"

	"loopkit/crawler/journal"
	"loopkit/loop"
)

// A crawl stopped half way through ten million pages leaves four million
// URLs to do. The journal hands the next start the first of them
// (Config.QueueMemory's worth, upfront); the rest, its backlog
// (journal.Backlog), wait where they are, in the snapshot and the
// journals, and are read back in order as the crawl's queue in memory
// runs low — as a spilled host's chunks are (spill.go), but for the whole
// crawl. So the first request leaves within a second or two of a start,
// however much was left to do.
//
// The backlog is the crawl's, not a loop's: any loop whose work runs low
// reads its next batch, one loop at a time, on that loop's executor, and
// hands each URL to the loop that owns its server. Loop 0 counts what is
// left of it among its URLs on disk, so that the crawl is not over, nor
// complete, while any is.

// backlog is the rest of a stopped crawl's queue, shared by the loops.
type backlog struct {
	b        *journal.Backlog
	crawlers []*Crawler
	group    *Group    // nil: a Crawler on its own
	refilter bool      // this run's filters differ: each URL passes them first (persist.go)
	start    time.Time // when this run started: a server first seen here is held from then (requeue)
	reading  atomic.Bool
	ended    atomic.Bool // read to its end, or failed (the crawl stops)
}

// more says whether URLs may still come from it.
func (l *backlog) more() bool { return l != nil && !l.ended.Load() }

// left is how many of the backlog's URLs loop c counts among its URLs on
// disk: at most how many are still to come, on loop 0; none elsewhere.
func (l *backlog) left(c *Crawler) int {
	if !l.more() || c.index != 0 {
		return 0
	}
	return max(l.b.Left(), 1) // not read to its end: not over
}

// read reads the backlog's next batch, on c's executor, if no loop is
// reading one and the crawl's queue in memory is under half its
// Config.QueueMemory. Once the batch is in, it reads again while the
// queue is still short, and wakes every loop once it is read to its end.
func (l *backlog) read(c *Crawler) {
	if !l.more() || c.front.Stopped() || c.stopping || c.empty.Done() {
		return
	}
	if limit := c.cfg.QueueMemory; limit > 0 && c.budget.queuedInMemory(c) >= int64(limit/2) {
		return
	}
	if !l.reading.CompareAndSwap(false, true) {
		return
	}
	f := loop.RunInExecutor(c.loop, func(ctx context.Context) ([]journal.Spilled, error) { return l.b.Next(ctx) })
	f.OnDone(func() {
		urls, err := f.Result()
		l.reading.Store(false)
		switch {
		case c.empty.Done():
			// The crawl is over on this loop: what was read stays to do
			// in the journal.
		case errors.Is(err, io.EOF):
			l.ended.Store(true)
			l.wakeAll()
		case err != nil:
			l.ended.Store(true)
			c.overflow.store.stopCrawl(c, backlogError{err})
		default:
			l.handOut(c, urls)
			l.read(c)
			c.checkEmpty()
		}
	})
}

// handOut puts each URL on the loop that owns its server: c's own at
// once, the others' in one batch each, counted as work until they are
// in (shard.go).
func (l *backlog) handOut(c *Crawler, urls []journal.Spilled) {
	batches := make([][]queued, len(l.crawlers))
	for _, q := range urls {
		u, err := url.Parse(q.URL)
		if err != nil {
			continue // the journal only holds URLs that parsed when they were queued
		}
		i := 0
		if l.group != nil {
			i = ownerOf(u, len(l.crawlers))
		}
		batches[i] = append(batches[i], queued{u, q})
	}
	for i, batch := range batches {
		switch {
		case len(batch) == 0:
		case i == c.index:
			for _, q := range batch {
				l.requeue(c, q)
			}
		default:
			peer := l.crawlers[i]
			l.group.work.Add(1)
			err := peer.loop.CallSoonThreadsafe(func() {
				for _, q := range batch {
					l.requeue(peer, q)
				}
				peer.checkEmpty()
				l.group.settle()
			})
			if err != nil { // its loop is closed: the crawl is over, and the URLs stay to do in the journal
				l.group.settle()
			}
		}
	}
}

// queued is a URL of the backlog, parsed once.
type queued struct {
	u *url.URL
	q journal.Spilled
}

// requeue puts one URL back on c (persist.go). A host the start did not
// know yet is held for its spacing from the start, as restarted holds
// those it knew: the last process may have sent its last request to that
// server a moment before it stopped.
func (l *backlog) requeue(c *Crawler, it queued) {
	u := it.u
	_, known := c.hosts[origin(u)]
	c.requeue(u, it.q, l.refilter)
	if h := c.hosts[origin(u)]; !known && h != nil {
		c.holdServer(h, l.start.Add(c.front.Gap(h.host)))
	}
}

// wakeAll has every loop look again whether it is done: the backlog
// kept them from being.
func (l *backlog) wakeAll() {
	for _, c := range l.crawlers {
		c.loop.CallSoonThreadsafe(c.checkEmpty)
	}
}

// backlogError is a failure to read the rest of the queue.
type backlogError struct{ err error }

func (e backlogError) Error() string {
	return "the rest of the queue, in the state directory: " + plainly(e.err).Error()
}
func (e backlogError) Unwrap() error { return e.err }
