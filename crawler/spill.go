package crawler

import (
	"context"

	"loopkit/crawler/frontier"
	"loopkit/crawler/journal"
	"loopkit/future"
	"loopkit/loop"
)

// A crawl of a million pages finds most of them long before it fetches
// them: the demo site's frontier holds half the site at its peak. In
// memory, a queued URL costs about 93 bytes; so past Config.QueueMemory
// queued URLs, a host's later URLs go to disk instead (journal.Spill), in
// chunks, and come back in order when its queue in memory runs low. The
// frontier never knows: it sees a host whose queue is short and refilled.
//
// Order is kept per host: its queue in memory comes first, then its
// chunks on disk in the order written, then its tail — the URLs found
// since its last chunk, waiting in memory to fill the next one. A host
// that has spilled keeps spilling until it has caught up, so no URL
// overtakes one found before it.
//
// The disk is not pollable: chunks are written and read by the executor,
// and a host waits for a chunk it needs like a worker waits for a page.

// spillChunk is how many URLs a chunk holds, and how long a host's tail
// grows before it is written.
var spillChunk = 1024 // a variable only so a test can make chunks small

// hostSpill is a host's URLs on disk, and its tail.
type hostSpill struct {
	chunks  []*chunk
	tail    []journal.Spilled
	reading bool // its first chunk is being read
}

type chunk struct {
	name    string
	n       int
	written *future.Future[struct{}]
}

// overflow is the crawl's spilled URLs, for one loop.
type overflow struct {
	spill *journal.Spill
	count int // URLs spilled and not back: still to do
	peak  int // the most ever spilled at once
	busy  int // chunk writes and reads on their way
}

// spillNeeded says whether a URL for h goes to disk: h has spilled already
// and not caught up, or the crawl's queue is over its memory and h's is
// one of the long ones.
func (c *Crawler) spillNeeded(h *hostPolicy) bool {
	if h.spilled != nil {
		return true
	}
	limit := c.cfg.QueueMemory
	if limit <= 0 || c.budget.queuedInMemory(c) < int64(limit) {
		return false
	}
	// A host whose queue is short stays in memory, so that it has work
	// while a chunk of its is read back; the rest go to disk. So memory
	// holds at most QueueMemory URLs, plus half a chunk per host.
	return h.host.Queued() >= spillChunk/2
}

// spillURL puts it in h's tail, and writes the tail as a chunk when full.
func (c *Crawler) spillURL(h *hostPolicy, it frontier.Item) error {
	if err := c.openSpill(); err != nil {
		return err
	}
	if h.spilled == nil {
		h.spilled = &hostSpill{}
	}
	s := h.spilled
	s.tail = append(s.tail, journal.Spilled{URL: it.URL, Depth: it.Depth, Redirects: it.Redirects})
	c.overflow.count++
	c.overflow.peak = max(c.overflow.peak, c.overflow.count)
	if len(s.tail) >= spillChunk {
		c.writeChunk(s)
	}
	return nil
}

func (c *Crawler) openSpill() error {
	if c.overflow.spill != nil {
		return nil
	}
	sp, err := c.store.openSpill(c.cfg.spillDir())
	if err != nil {
		return err
	}
	c.overflow.spill = sp
	return nil
}

// writeChunk hands s's tail to the executor as a chunk.
func (c *Crawler) writeChunk(s *hostSpill) {
	urls := s.tail
	s.tail = nil
	sp := c.overflow.spill
	ch := &chunk{name: sp.Name(), n: len(urls)}
	c.overflow.busy++
	f := loop.RunInExecutor(c.loop, func(context.Context) (struct{}, error) { return struct{}{}, sp.Write(ch.name, urls) })
	ch.written = f
	s.chunks = append(s.chunks, ch)
	f.OnDone(func() {
		c.overflow.busy--
		if err := f.Err(); err != nil {
			c.storeFailed(fmtSpill(err))
		}
	})
}

// refill brings h's next URLs back from disk when its queue in memory
// runs low: its first chunk, once written, then read; or, with no chunk
// left, its tail, and h has caught up. A host given up has its spilled
// URLs read back and recorded with why, all of them.
func (c *Crawler) refill(h *hostPolicy) {
	s := h.spilled
	if s == nil || s.reading || h.host.Queued() >= spillChunk/2 {
		return
	}
	if len(s.chunks) == 0 {
		for _, u := range s.tail {
			c.back(h, u)
		}
		c.overflow.count -= len(s.tail)
		h.spilled = nil
		c.dispatch()
		return
	}
	ch := s.chunks[0]
	s.reading = true
	c.overflow.busy++
	sp := c.overflow.spill
	ch.written.OnDone(func() {
		f := loop.RunInExecutor(c.loop, func(context.Context) ([]journal.Spilled, error) { return sp.Read(ch.name) })
		f.OnDone(func() {
			c.overflow.busy--
			s.reading = false
			urls, err := f.Result()
			if err != nil {
				c.storeFailed(fmtSpill(err))
				return
			}
			s.chunks = s.chunks[1:]
			for _, u := range urls {
				c.back(h, u)
			}
			c.overflow.count -= len(urls)
			c.refill(h) // the tail, if that was the last chunk
			c.dispatch()
		})
	})
}

// back returns a spilled URL to h's queue — or records it, if h was
// given up meanwhile, or drops it, if h's robots.txt, known since it was
// spilled, disallows it.
func (c *Crawler) back(h *hostPolicy, u journal.Spilled) {
	it := frontier.Item{URL: u.URL, Depth: u.Depth, Redirects: u.Redirects}
	switch {
	case h.failure != "":
		c.recordHostFailure(h, it)
	case h.rules != nil && !c.robotsAllow(h, u.URL):
	default:
		c.front.Push(h.host, it, c.loop.Time())
	}
}

// spilledWork says whether URLs wait on disk or on their way to it.
func (c *Crawler) spilledWork() bool { return c.overflow.count > 0 || c.overflow.busy > 0 }

func fmtSpill(err error) error {
	return &spillError{plainly(err)}
}

type spillError struct{ err error }

func (e *spillError) Error() string { return "the queue's overflow on disk: " + e.err.Error() }
func (e *spillError) Unwrap() error { return e.err }
