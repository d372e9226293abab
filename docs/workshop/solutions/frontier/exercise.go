//go:build solution

package frontier

import (
	"container/heap"
	"time"
)

// Frontier holds URLs in per-host queues and hands one out only when its
// host may start a request. Hosts that have work and room sit in a heap
// ordered by their next allowed start, so Next looks at one host, never
// scans them all: a million URLs waiting on a slow host cost nothing per
// call.
type Frontier struct {
	gap     time.Duration
	perHost int
	hosts   map[string]*host
	ready   hostHeap
}

type host struct {
	name      string
	seq       int // creation order: breaks ties in the heap
	queue     []string
	inFlight  int
	nextStart time.Duration // no request starts before this
	index     int           // position in the heap; -1 when not in it
}

// ready: it has work and room. Its time may not have come yet.
func (h *host) ready(perHost int) bool { return len(h.queue) > 0 && h.inFlight < perHost }

// New returns an empty frontier that spaces the starts of two requests to
// one host by at least gap, and lets at most perHost be in flight to one
// host at once.
func New(gap time.Duration, perHost int) *Frontier {
	return &Frontier{gap: gap, perHost: perHost, hosts: make(map[string]*host)}
}

// Push queues url at the back of host's queue.
func (f *Frontier) Push(name, url string) {
	h := f.hosts[name]
	if h == nil {
		h = &host{name: name, seq: len(f.hosts), index: -1}
		f.hosts[name] = h
	}
	h.queue = append(h.queue, url)
	f.place(h)
}

// Next hands out the next job at time now, if a host may start one: the
// host at the top of the heap, if its time has come. If it has not, no
// other host's has either.
func (f *Frontier) Next(now time.Duration) (Job, bool) {
	if len(f.ready) == 0 || f.ready[0].nextStart > now {
		return Job{}, false
	}
	h := f.ready[0]
	url := h.queue[0]
	h.queue[0] = ""
	h.queue = h.queue[1:]
	h.inFlight++
	h.nextStart = now + f.gap // spacing counts from this start
	f.place(h)
	return Job{Host: h.name, URL: url}, true
}

// Done says a job of host has finished: it is no longer in flight.
func (f *Frontier) Done(name string) {
	if h := f.hosts[name]; h != nil && h.inFlight > 0 {
		h.inFlight--
		f.place(h)
	}
}

// HoldUntil makes host wait: nothing of it starts before t. It only ever
// moves the host's time later.
func (f *Frontier) HoldUntil(name string, t time.Duration) {
	h := f.hosts[name]
	if h == nil {
		h = &host{name: name, seq: len(f.hosts), index: -1}
		f.hosts[name] = h
	}
	if t > h.nextStart {
		h.nextStart = t
		f.place(h)
	}
}

// Wake is when Next may next hand out a job: the top host's time.
func (f *Frontier) Wake() (time.Duration, bool) {
	if len(f.ready) == 0 {
		return 0, false
	}
	return f.ready[0].nextStart, true
}

// place puts h where it belongs after any change: in the heap at its
// place, or out of it.
func (f *Frontier) place(h *host) {
	switch in := h.index >= 0; {
	case h.ready(f.perHost) && in:
		heap.Fix(&f.ready, h.index)
	case h.ready(f.perHost):
		heap.Push(&f.ready, h)
	case in:
		heap.Remove(&f.ready, h.index)
	}
}

// hostHeap orders hosts by next allowed start, then creation order.
type hostHeap []*host

func (q hostHeap) Len() int { return len(q) }
func (q hostHeap) Less(i, j int) bool {
	if q[i].nextStart != q[j].nextStart {
		return q[i].nextStart < q[j].nextStart
	}
	return q[i].seq < q[j].seq
}
func (q hostHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *hostHeap) Push(x any) {
	h := x.(*host)
	h.index = len(*q)
	*q = append(*q, h)
}
func (q *hostHeap) Pop() any {
	old := *q
	h := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	h.index = -1
	return h
}
