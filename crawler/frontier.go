package crawler

import (
	"container/heap"
	"errors"
	"math"
	"math/rand/v2"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// frontier is the crawl's to-do list, organised by host, as Scrapy's
// downloader slots and Heritrix's per-host queues are. It replaces the
// chapter's single queue, which cannot be polite without stalling: a worker
// that takes a URL first and then waits for its host's turn is a worker
// lost to every other host — with a slow host and ten workers, the other
// hosts got two.
//
// Here URLs wait in their host's queue. A host is ready when its time has
// come (its next-allowed start: spacing, Crawl-delay, Retry-After) and it
// is under its concurrency limit; ready hosts sit in a heap ordered by that
// time. An idle worker parks in the frontier, and dispatch hands it a job
// from the top host only when that host's time has come; one loop timer
// wakes dispatch for the earliest host. So no worker ever waits on a host,
// and a host that must wait costs nothing while it waits.
//
// A queued URL costs about 93 bytes at a million of them on a thousand
// hosts (BenchmarkQueueAMillionURLs): its string (~36 bytes here), a
// 32-byte item in its host's ring buffer (which doubles as it grows, so
// it is a third empty on average), and 12 bytes in the seen set. A
// frontier of a hundred million URLs would live on disk, as Heritrix's
// does; this one lives in memory.
type frontier struct {
	loop    *loop.Loop
	jitter  bool
	hosts   map[string]*host   // by origin
	servers map[string]*server // by authority (server.go)
	newPace func() pace
	ready   hostHeap
	idle    []*future.Future[job] // parked workers, first come first served
	timer   *loop.Timer           // wakes dispatch when the top host's time comes

	started func(job)   // told of each job handed out (the page budget)
	hold    func() bool // if set and true, nothing is handed out (parsing is behind)
	quiet   func(bool)  // a Group's shard: told when it has nothing left, and when it has again
	isQuiet bool

	queued  int                      // URLs in host queues
	running int                      // jobs handed out and not finished
	delayed map[*loop.Timer]job      // retries waiting out their backoff
	stopped bool                     // no job is handed out any more
	empty   *future.Future[struct{}] // completes when the crawl has nothing left
}

// job is what a worker is handed: a page, or its host's robots.txt.
type job struct {
	host   *host
	item   item
	robots bool
	epoch  int // the host's pace epoch when the job was handed out
}

func newFrontier(l *loop.Loop, jitter bool, newPace func() pace) *frontier {
	return &frontier{
		loop:    l,
		jitter:  jitter,
		newPace: newPace,
		hosts:   make(map[string]*host),
		servers: make(map[string]*server),
		delayed: make(map[*loop.Timer]job),
		empty:   future.New[struct{}](l),
	}
}

// host returns the host of origin, on the server of authority, creating
// it with newHost if it is new.
func (f *frontier) host(origin, authority string, newHost func(origin string) *host) *host {
	h := f.hosts[origin]
	if h == nil {
		h = newHost(origin)
		h.origin, h.seq, h.heapIndex = origin, len(f.hosts), -1
		h.server = f.server(authority)
		h.server.hosts = append(h.server.hosts, h)
		f.hosts[origin] = h
	}
	return h
}

// push queues it on h, behind what is there.
func (f *frontier) push(h *host, it item) {
	it.queuedMS = loopMS(f.loop.Time())
	h.queue.pushBack(it)
	f.queued++
	f.changed(h)
}

// errStopped is what next says once the frontier hands out nothing more.
var errStopped = errors.New("crawler: the frontier is stopped")

// next parks the calling worker until dispatch hands it a job.
func (f *frontier) next(y task.Yield) (job, error) {
	if f.stopped {
		return job{}, errStopped
	}
	w := future.New[job](f.loop)
	f.idle = append(f.idle, w)
	f.dispatch()
	j, err := task.Await(y, w)
	if err != nil && w.Done() {
		// Cancelled just after dispatch handed us a job: give it back,
		// or it would be neither done nor to do.
		if handed, herr := w.Result(); herr == nil {
			f.requeue(handed, 0)
		}
	}
	return j, err
}

// dispatch hands jobs to parked workers for as long as the top host is
// ready now, and otherwise sets the timer for when it will be.
func (f *frontier) dispatch() {
	now := f.loop.Time()
	for !f.stopped && len(f.ready) > 0 {
		if f.hold != nil && f.hold() {
			return // called again when it lets go
		}
		h := f.ready[0]
		if t := h.server.nextStart; t > now {
			f.wakeAt(t)
			return
		}
		w := f.popIdle()
		if w == nil {
			return
		}
		j := f.take(h, now)
		w.SetResult(j)
		if f.started != nil {
			f.started(j) // may stop the frontier
		}
	}
}

func (f *frontier) popIdle() *future.Future[job] {
	for len(f.idle) > 0 {
		w := f.idle[0]
		f.idle[0] = nil
		f.idle = f.idle[1:]
		if !w.Done() { // a worker cancelled while parked
			return w
		}
	}
	return nil
}

// take starts h's next job now: robots.txt first, then its queue.
func (f *frontier) take(h *host, now time.Duration) job {
	s := h.server
	j := job{host: h, epoch: s.pace.epoch}
	if h.robots == robotsKnown && h.robotsUntil > 0 && now >= h.robotsUntil {
		h.robots = robotsNeeded // RFC 9309 §2.4: robots.txt is fetched again after a day
	}
	if h.robots == robotsNeeded {
		j.robots, j.item = true, h.robotsItem
		h.robots = robotsFetching
	} else {
		j.item = h.queue.popFront()
		f.queued--
	}
	s.inFlight++
	f.running++
	gap := s.pace.gap()
	if f.jitter && gap > 0 {
		gap += time.Duration(rand.Int64N(int64(gap)/2 + 1)) // up to +50%
	}
	s.nextStart = now + gap
	f.placeServer(s)
	return j
}

// finish marks j done: its URL was recorded, or given up.
func (f *frontier) finish(j job) {
	j.host.server.inFlight--
	f.running--
	f.changed(j.host)
	f.checkEmpty()
}

// requeue puts j's URL back at the front of its host's queue, after wait
// (a backoff) if wait > 0: a retry goes before the URLs queued after it.
func (f *frontier) requeue(j job, wait time.Duration) {
	j.host.server.inFlight--
	f.running--
	if wait <= 0 || f.stopped {
		f.putBack(j)
		return
	}
	var t *loop.Timer
	t = f.loop.CallLater(wait, func() {
		delete(f.delayed, t)
		f.putBack(j)
	})
	f.delayed[t] = j
	f.changed(j.host)
}

func (f *frontier) putBack(j job) {
	h := j.host
	j.item.queuedMS = loopMS(f.loop.Time())
	if j.robots {
		h.robots, h.robotsItem = robotsNeeded, j.item
	} else {
		h.queue.pushFront(j.item)
		f.queued++
	}
	f.changed(h)
}

// drain empties h's queue, calling fn for each URL (a host that failed
// records them all).
func (f *frontier) drain(h *host, fn func(item)) {
	f.queued -= h.queue.len()
	h.queue.drain(fn)
	f.changed(h)
}

// changed is called after any change to h or its server: it puts the
// server's hosts in their places, then hands out what can be handed out
// and sees whether the crawl is over.
func (f *frontier) changed(h *host) {
	f.placeServer(h.server)
	f.dispatch()
	f.checkEmpty()
}

// place puts h where it belongs: in the ready heap at its place, or out.
func (f *frontier) place(h *host) {
	switch in := h.heapIndex >= 0; {
	case h.ready() && in:
		heap.Fix(&f.ready, h.heapIndex)
	case h.ready():
		heap.Push(&f.ready, h)
	case in:
		heap.Remove(&f.ready, h.heapIndex)
	}
}

// wakeAt makes sure dispatch runs at t.
func (f *frontier) wakeAt(t time.Duration) {
	if f.timer != nil {
		if f.timer.When() <= t {
			return
		}
		f.timer.Cancel()
	}
	f.timer = f.loop.CallAt(t, func() {
		f.timer = nil
		f.dispatch()
	})
}

// stop hands out nothing more. Retries waiting out a backoff go back to
// their queues, so that what is left counts as to do.
func (f *frontier) stop() {
	if f.stopped {
		return
	}
	f.stopped = true
	for w := f.popIdle(); w != nil; w = f.popIdle() {
		w.SetError(errStopped)
	}
	if f.timer != nil {
		f.timer.Cancel()
		f.timer = nil
	}
	for t, j := range f.delayed {
		t.Cancel()
		delete(f.delayed, t)
		f.putBack(j)
	}
	f.checkEmpty()
}

// checkEmpty completes empty when nothing is queued, running or waiting
// to be retried — or, once stopped, when nothing is running.
func (f *frontier) checkEmpty() {
	if f.empty.Done() {
		return
	}
	nothing := f.running == 0 && (f.stopped || f.queued == 0 && len(f.delayed) == 0)
	if f.quiet == nil {
		if nothing {
			f.empty.SetResult(struct{}{})
		}
		return
	}
	// One of a Group's shards: its having nothing left is not the end of
	// the crawl, as another shard may yet send it links. It says when it
	// falls quiet and when it wakes, and the Group ends the crawl
	// (finishShard) when every shard is quiet and no link is on its way.
	if nothing != f.isQuiet {
		f.isQuiet = nothing
		f.quiet(nothing)
	}
}

// finishShard ends a shard's crawl: join returns.
func (f *frontier) finishShard() {
	if !f.empty.Done() {
		f.empty.SetResult(struct{}{})
	}
}

// join waits until checkEmpty says the crawl has nothing left.
func (f *frontier) join(y task.Yield) error {
	_, err := task.Await(y, f.empty)
	return err
}

// loopMS is a loop time in whole milliseconds, saturated at about 24 days
// of loop time: enough for a timeline, and small enough for an item.
func loopMS(t time.Duration) int32 {
	return int32(min(t.Milliseconds(), math.MaxInt32))
}
