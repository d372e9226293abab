package frontier

import (
	"container/heap"
	"time"
)

// Host is one origin (scheme://host:port): the unit of robots.txt (RFC
// 9309 §2.3 scopes a robots.txt to exactly that) and of a queue. Its URLs
// wait in its own queue; the frontier hands one out only when the host is
// ready and its server's time has come. Politeness is its server's
// (server.go), which it may share with another origin: http and https of
// one site.
type Host struct {
	origin    string
	server    *server
	seq       int // creation order: breaks ties in the ready heap
	queue     deque[Item]
	heapIndex int // position in the ready heap; -1 when not in it

	gate      gateState
	gateFirst Item          // the gate job as Gate gave it, for when its pass expires
	gateItem  Item          // the gate job as it stands (a redirect changes its URL)
	gateUntil time.Duration // loop time the gate's pass expires; 0: never
	retired   bool          // given up: nothing more is queued or handed out
}

// gateState is how far a host is with its gate.
type gateState uint8

const (
	gateOpen     gateState = iota // no gate, or it was passed: the queue may go
	gateNeeded                    // the host's next job is its gate
	gateInFlight                  // the gate is handed out: the queue waits for it
	gateWaiting                   // the gate waits out a backoff: so does the queue
)

// Origin is the host's scheme://host:port.
func (h *Host) Origin() string { return h.origin }

// Queued is how many URLs wait in the host's queue.
func (h *Host) Queued() int { return h.queue.len() }

// Retired reports whether the host was given up.
func (h *Host) Retired() bool { return h.retired }

// ready reports whether the host may hand out a job once its server's
// time has come: it has work, its gate does not hold it, and its server
// is under its concurrency limit and has no request waiting to be sent
// while a spacing is to be kept.
func (h *Host) ready() bool {
	s := h.server
	switch {
	case h.retired, h.queue.len() == 0:
		return false
	case h.gate == gateInFlight, h.gate == gateWaiting:
		return false
	case s.inFlight >= s.pace.limit:
		return false
	case s.unsent > 0 && s.pace.gap() > 0:
		return false // its spacing will count from that request's sending
	}
	return true
}

// Gate makes it h's next job, handed out alone: h's queue waits until the
// gate is passed (Open) or the host given up (Retire). The crawler's gate
// is robots.txt. A gate is handed out only when the host has a URL queued.
func (f *Frontier) Gate(h *Host, it Item) {
	h.gate, h.gateFirst, h.gateItem = gateNeeded, it, it
	f.place(h)
}

// Open says h's gate was passed: its queue may go. until, if positive, is
// the loop time the pass expires, after which the gate is h's next job
// again, as Gate first gave it (a robots.txt is fetched again after a
// day). keep, if not nil, is asked of every URL queued meanwhile, in
// order, and those it refuses are dropped (robots.txt's rules).
func (f *Frontier) Open(h *Host, until time.Duration, keep func(Item) bool) {
	h.gate, h.gateUntil = gateOpen, until
	if keep != nil {
		before := h.queue.len()
		h.queue.filter(keep)
		f.queued -= before - h.queue.len()
	}
	f.place(h)
}

// Retire gives h up: nothing of it is handed out again, and fn is called
// for each URL it had queued or waiting out a backoff, in order, so the
// crawler can record why. Push and Requeue refuse its URLs from now on.
// Its jobs in flight finish as usual.
func (f *Frontier) Retire(h *Host, fn func(Item)) {
	if h.retired {
		return
	}
	h.retired = true
	f.place(h)
	f.queued -= h.queue.len()
	h.queue.drain(fn)
	kept := f.delayed[:0]
	var mine []delayedJob
	for _, d := range f.delayed {
		if d.host == h {
			mine = append(mine, d)
		} else {
			kept = append(kept, d)
		}
	}
	if len(mine) > 0 {
		clear(f.delayed[len(kept):])
		f.delayed = kept
		heap.Init(&f.delayed)
		for _, d := range mine {
			if !d.gate {
				fn(d.item)
			}
		}
	}
}

// hostHeap orders ready hosts by the time their server may start its next
// request: the frontier's answer to "who goes next" is its top, so
// finding work never scans the hosts that must wait.
type hostHeap []*Host

func (q hostHeap) Len() int { return len(q) }
func (q hostHeap) Less(i, j int) bool {
	if a, b := q[i].server.nextStart, q[j].server.nextStart; a != b {
		return a < b
	}
	return q[i].seq < q[j].seq
}
func (q hostHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].heapIndex, q[j].heapIndex = i, j
}
func (q *hostHeap) Push(x any) {
	h := x.(*Host)
	h.heapIndex = len(*q)
	*q = append(*q, h)
}
func (q *hostHeap) Pop() any {
	old := *q
	h := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	h.heapIndex = -1
	return h
}

// Forget drops h's queued URLs and its retries waiting out a backoff,
// without retiring it: they are somebody else's to fetch now (a fleet's
// shard whose lease was lost, or given back). fn, if not nil, is called
// for each, in order. h may be pushed to again later.
func (f *Frontier) Forget(h *Host, fn func(Item)) {
	if fn == nil {
		fn = func(Item) {}
	}
	f.queued -= h.queue.len()
	h.queue.drain(fn)
	kept := f.delayed[:0]
	var mine []delayedJob
	for _, d := range f.delayed {
		if d.host == h {
			mine = append(mine, d)
		} else {
			kept = append(kept, d)
		}
	}
	clear(f.delayed[len(kept):])
	f.delayed = kept
	heap.Init(&f.delayed)
	for _, d := range mine {
		if !d.gate {
			fn(d.item)
		}
	}
	if h.gate == gateWaiting {
		h.gate = gateNeeded
	}
	f.place(h)
}
