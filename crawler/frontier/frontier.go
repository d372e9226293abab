package frontier

import (
	"container/heap"
	"math"
	"math/rand/v2"
	"time"
)

// Frontier holds the crawl's URLs in per-host queues and hands out jobs
// only when their server may be sent a request (see the package doc).
type Frontier struct {
	opts    Options
	hosts   map[string]*Host   // by origin
	servers map[string]*server // by authority (server.go)
	ready   hostHeap           // hosts with work and room, by their server's next start
	delayed delayHeap          // retries waiting out their backoff (retry.go)
	due     []delayedJob       // promote's buffer, kept between calls

	queued  int    // URLs in host queues
	peak    int    // the most that were ever queued at once
	running int    // jobs handed out and not finished
	stopped bool   // no job is handed out any more
	seq     uint64 // numbers the delayed jobs in their order of arrival
}

// Options configure a Frontier. Zero fields take the defaults in brackets.
type Options struct {
	// PerHost is the most requests a server may have in flight. It starts
	// at one and earns more (pace.go). [1]
	PerHost int
	// Delay is the least spacing between two request starts to a server. [0]
	Delay time.Duration
	// Jitter adds up to half of the spacing again, at random, to each
	// spacing, so that a crawler's requests do not tick like a clock.
	Jitter bool
	// Admit, if set, is asked before a job is handed out; false leaves it
	// where it is, and Next hands out nothing. The crawler's budgets sit
	// here: worker slots, pages, bodies awaiting their parse. Whoever
	// refuses must see that Next is called again once it would say yes.
	Admit func(Job) bool
}

// Item is one URL waiting in its host's queue: the 500-lines crawler's
// (url, max_redirect) pair, with the link depth and the attempts made so
// far. The fields are small, because a crawl may hold millions of them.
type Item struct {
	URL       string
	Redirects int32 // redirects still allowed from here
	Depth     int32 // links followed from a root
	Tries     int32 // attempts already made
	QueuedMS  int32 // loop time it (re)entered its host's queue, in ms; set by the frontier
}

// Job is what Next hands out: an item of a host, or the host's gate.
// The same *Job goes back with Sent, Finish or Requeue.
type Job struct {
	Host *Host
	Item Item
	Gate bool // the host's gate job (robots.txt), not a page

	epoch int  // the server's pace epoch when it was handed out
	sent  bool // Sent was called
	over  bool // Finish or Requeue was called
}

// New returns an empty frontier.
func New(opts Options) *Frontier {
	opts.PerHost = max(opts.PerHost, 1)
	return &Frontier{
		opts:    opts,
		hosts:   make(map[string]*Host),
		servers: make(map[string]*server),
	}
}

// Host returns the host of origin, whose server is authority, creating it
// if it is new. A new host has no gate: its queue may go at once.
func (f *Frontier) Host(origin, authority string) *Host {
	h := f.hosts[origin]
	if h == nil {
		h = &Host{origin: origin, seq: len(f.hosts), heapIndex: -1, gate: gateOpen}
		h.server = f.server(authority)
		h.server.hosts = append(h.server.hosts, h)
		f.hosts[origin] = h
	}
	return h
}

// Lookup returns the host of origin, or nil if there is none.
func (f *Frontier) Lookup(origin string) *Host { return f.hosts[origin] }

// Push queues it at the back of h's queue, at loop time now. It reports
// false, and queues nothing, if h was retired.
func (f *Frontier) Push(h *Host, it Item, now time.Duration) bool {
	if h.retired {
		return false
	}
	it.QueuedMS = loopMS(now)
	h.queue.pushBack(it)
	f.queued++
	f.peak = max(f.peak, f.queued)
	f.place(h)
	return true
}

// Next hands out a job at loop time now, if a host may start one: the
// host at the top of the ready heap, if its server's time has come and
// Admit says yes.
func (f *Frontier) Next(now time.Duration) (*Job, bool) {
	if f.stopped {
		return nil, false
	}
	f.promote(now)
	if len(f.ready) == 0 {
		return nil, false
	}
	h := f.ready[0]
	if h.server.nextStart > now {
		return nil, false
	}
	j := Job{Host: h, epoch: h.server.pace.epoch}
	if h.gate == gateOpen && h.gateUntil > 0 && now >= h.gateUntil {
		h.gate, h.gateItem = gateNeeded, h.gateFirst // the gate's pass has expired
	}
	if h.gate == gateNeeded {
		j.Gate, j.Item = true, h.gateItem
	} else {
		j.Item = h.queue.front()
	}
	if f.opts.Admit != nil && !f.opts.Admit(j) {
		return nil, false
	}
	if j.Gate {
		h.gate = gateInFlight
	} else {
		h.queue.popFront()
		f.queued--
	}
	s := h.server
	s.inFlight++
	s.unsent++
	f.running++
	f.placeServer(s)
	return &j, true
}

// Wake is the earliest loop time at which Next could hand out a job if
// nothing else happens meanwhile, and false if there is none: nothing
// queued or waiting out a backoff, or every host with work at its limit
// or waiting for a request of its server to be sent. A time already past
// means Next would hand out now, but for Admit.
func (f *Frontier) Wake() (time.Duration, bool) {
	if f.stopped {
		return 0, false
	}
	t, ok := time.Duration(0), false
	if len(f.ready) > 0 {
		t, ok = f.ready[0].server.nextStart, true
	}
	if len(f.delayed) > 0 && (!ok || f.delayed[0].at < t) {
		t, ok = f.delayed[0].at, true
	}
	return t, ok
}

// Finish says j is over: its URL was recorded, or given up.
func (f *Frontier) Finish(j *Job, now time.Duration) {
	if !f.release(j, now) {
		return
	}
	if j.Gate && j.Host.gate == gateInFlight {
		// Over without Open or Retire: the gate has not been passed, and
		// the host's next job is its gate again.
		j.Host.gate = gateNeeded
	}
	f.placeServer(j.Host.server)
}

// release takes j out of flight, once: a job finished twice is a bug in
// the caller, and must not free its server's slot twice.
func (f *Frontier) release(j *Job, now time.Duration) bool {
	if j.over {
		return false
	}
	j.over = true
	s := j.Host.server
	s.inFlight--
	f.running--
	if !j.sent {
		// It never reached the wire (the connection failed, or it was
		// cancelled): its server's spacing counts from now.
		s.unsent--
		s.nextStart = max(s.nextStart, now+f.gap(s))
	}
	return true
}

// Stop hands out nothing more. Retries waiting out a backoff go back to
// their queues, so that what is left is counted as queued.
func (f *Frontier) Stop(now time.Duration) {
	if f.stopped {
		return
	}
	f.stopped = true
	var all []delayedJob
	for len(f.delayed) > 0 {
		all = append(all, heap.Pop(&f.delayed).(delayedJob))
	}
	f.putBackInOrder(all, now)
}

// Stopped reports whether Stop was called.
func (f *Frontier) Stopped() bool { return f.stopped }

// Empty reports whether the frontier has nothing left: nothing queued,
// handed out or waiting out a backoff — or, once stopped, nothing handed
// out.
func (f *Frontier) Empty() bool {
	return f.running == 0 && (f.stopped || f.queued == 0 && len(f.delayed) == 0)
}

// Queued is how many URLs wait in host queues (not those waiting out a
// backoff, nor gates).
func (f *Frontier) Queued() int { return f.queued }

// QueuedPeak is the most URLs that were ever queued at once.
func (f *Frontier) QueuedPeak() int { return f.peak }

// Running is how many jobs are handed out and not over.
func (f *Frontier) Running() int { return f.running }

// Delayed is how many retries wait out their backoff.
func (f *Frontier) Delayed() int { return len(f.delayed) }

// Waiting is how many queued URLs are in hosts that may not start a
// request at loop time now: their server is busy, spaced or held, or they
// wait for their gate. It looks at every host: for a progress line, not a
// hot path.
func (f *Frontier) Waiting(now time.Duration) int {
	n := 0
	for _, h := range f.hosts {
		if !h.ready() || h.server.nextStart > now {
			n += h.queue.len()
		}
	}
	return n
}

// Hosts is how many hosts the frontier knows.
func (f *Frontier) Hosts() int { return len(f.hosts) }

// gap is s's spacing now, jittered if the options say so.
func (f *Frontier) gap(s *server) time.Duration {
	gap := s.pace.gap()
	if f.opts.Jitter && gap > 0 {
		gap += time.Duration(rand.Int64N(int64(gap)/2 + 1)) // up to +50%
	}
	return gap
}

// place puts h where it belongs: in the ready heap at its place, or out.
func (f *Frontier) place(h *Host) {
	switch in := h.heapIndex >= 0; {
	case h.ready() && in:
		heap.Fix(&f.ready, h.heapIndex)
	case h.ready():
		heap.Push(&f.ready, h)
	case in:
		heap.Remove(&f.ready, h.heapIndex)
	}
}

// placeServer places each of s's hosts: whether one may go depends on
// what its server has in flight, and its place on the server's next start.
func (f *Frontier) placeServer(s *server) {
	for _, h := range s.hosts {
		f.place(h)
	}
}

// loopMS is a loop time in whole milliseconds, saturated at about 24 days
// of loop time: enough for a timeline, and small enough for an Item.
func loopMS(t time.Duration) int32 {
	return int32(min(t.Milliseconds(), math.MaxInt32))
}
