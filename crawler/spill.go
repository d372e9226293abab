package crawler

import (
	"context"
	"path/filepath"

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

// overflow is one loop's URLs on disk.
type overflow struct {
	c     *Crawler
	store *store
	dir   string // the spill directory: the state directory's spill/, or a temporary one
	spill *journal.Spill
	hosts map[*frontier.Host]*hostSpill // the hosts that spilled and have not caught up

	later  *backlog // the rest of a stopped crawl's queue, the crawl's (backlog.go); nil if none
	count  int      // URLs spilled and not back: still to do
	peak   int      // the most ever spilled at once
	onDisk int      // chunk writes and reads on their way
	told   int64    // this loop's queue in memory, as last told the budget (budget.go)
}

// hostSpill is a host's URLs on disk, and its tail.
type hostSpill struct {
	policy  *hostPolicy
	chunks  []*chunk
	tail    []journal.Spilled
	reading bool // its first chunk is being read
}

type chunk struct {
	name    string
	n       int
	written *future.Future[struct{}]
}

func newOverflow(c *Crawler, s *store) *overflow {
	o := &overflow{c: c, store: s, hosts: make(map[*frontier.Host]*hostSpill)}
	if c.cfg.State != "" {
		o.dir = filepath.Join(c.cfg.State, "spill")
	}
	return o
}

// left is how many URLs wait on disk: to do. Those of a stopped crawl's
// backlog count at most, on loop 0.
func (o *overflow) left() int { return o.count + o.later.left(o.c) }

// busy says whether URLs wait on disk or on their way to it.
func (o *overflow) busy() bool { return o.count > 0 || o.onDisk > 0 || o.later.more() }

// takes puts it on disk, rather than in h's queue in memory, if h has
// spilled already and not caught up, or the crawl's queue is over its
// memory and h's is one of the long ones. It reports whether it did.
func (o *overflow) takes(h *hostPolicy, it frontier.Item) bool {
	s := o.hosts[h.host]
	if s == nil && !o.full(h) {
		return false
	}
	if err := o.open(); err != nil {
		o.store.stopCrawl(o.c, spillError{err})
		return true // not lost: the crawl stops, and it is to do
	}
	if s == nil {
		s = &hostSpill{policy: h}
		o.hosts[h.host] = s
	}
	s.tail = append(s.tail, journal.Spilled{URL: it.URL, Depth: it.Depth, Redirects: it.Redirects})
	o.count++
	o.peak = max(o.peak, o.count)
	if len(s.tail) >= spillChunk {
		o.writeChunk(s)
	}
	return true
}

// full says whether the crawl's queue is over its memory and h's queue is
// a long one. A host whose queue is short stays in memory, so that it has
// work while a chunk of its is read back; so memory holds at most
// QueueMemory URLs, plus half a chunk per host.
func (o *overflow) full(h *hostPolicy) bool {
	limit := o.c.cfg.QueueMemory
	if limit <= 0 || o.c.budget.queuedInMemory(o.c) < int64(limit) {
		return false
	}
	return h.host.Queued() >= spillChunk/2
}

// spillDir opens the spill directory if need be, and says where it is:
// the seen set keeps its files there too (seen.go).
func (o *overflow) spillDir() (string, error) {
	if err := o.open(); err != nil {
		return "", err
	}
	return o.spill.Dir(), nil
}

func (o *overflow) open() error {
	if o.spill != nil {
		return nil
	}
	sp, err := o.store.openSpill(o.dir)
	if err != nil {
		return err
	}
	o.spill = sp
	return nil
}

// writeChunk hands s's tail to the executor as a chunk.
func (o *overflow) writeChunk(s *hostSpill) {
	urls := s.tail
	s.tail = nil
	sp := o.spill
	ch := &chunk{name: sp.Name(), n: len(urls)}
	o.onDisk++
	f := loop.RunInExecutor(o.c.loop, func(context.Context) (struct{}, error) { return struct{}{}, sp.Write(ch.name, urls) })
	ch.written = f
	s.chunks = append(s.chunks, ch)
	f.OnDone(func() {
		o.onDisk--
		if err := f.Err(); err != nil {
			o.store.stopCrawl(o.c, spillError{err})
		}
	})
}

// refill brings a host's next URLs back from disk when its queue in
// memory runs low: its first chunk, once written, then read; or, with no
// chunk left, its tail, and the host has caught up. Each URL comes back
// through the screen (todo.go): a host given up meanwhile has them
// recorded with why, all of them, and robots.txt, known by now, may
// refuse some.
func (o *overflow) refill(fh *frontier.Host) {
	s := o.hosts[fh]
	if s == nil || s.reading || fh.Queued() >= spillChunk/2 {
		return
	}
	if len(s.chunks) == 0 {
		o.putBack(s, s.tail)
		delete(o.hosts, fh)
		o.c.dispatch()
		return
	}
	ch := s.chunks[0]
	s.reading = true
	o.onDisk++
	sp := o.spill
	ch.written.OnDone(func() {
		f := loop.RunInExecutor(o.c.loop, func(context.Context) ([]journal.Spilled, error) { return sp.Read(ch.name) })
		f.OnDone(func() {
			o.onDisk--
			s.reading = false
			urls, err := f.Result()
			if err != nil {
				o.store.stopCrawl(o.c, spillError{err})
				return
			}
			s.chunks = s.chunks[1:]
			o.putBack(s, urls)
			o.refill(fh) // the tail, if that was the last chunk
			o.c.dispatch()
		})
	})
}

// putBack returns spilled URLs to their host's queue, through the screen.
// While they come back, the host is not refilled again (each push may
// dispatch, and a dispatch refills): its tail must not overtake them.
func (o *overflow) putBack(s *hostSpill, urls []journal.Spilled) {
	o.count -= len(urls)
	s.reading = true
	for _, u := range urls {
		it := frontier.Item{URL: u.URL, Depth: u.Depth, Redirects: u.Redirects}
		if o.c.screen(s.policy, it) {
			o.c.push(s.policy, it)
		}
	}
	s.reading = false
}

// spillError is a failure of the queue's overflow on disk.
type spillError struct{ err error }

func (e spillError) Error() string { return "the queue's overflow on disk: " + plainly(e.err).Error() }
func (e spillError) Unwrap() error { return e.err }
