//go:build solution

package frontier

import (
	"container/heap"
	"time"
)

// Less orders ready by next start, then by the order hosts were first
// seen: container/heap is not stable, and without the tie-break two hosts
// ready at the same moment go in whatever order its swaps leave them.
func (q hostHeap) Less(i, j int) bool {
	if q[i].nextStart != q[j].nextStart {
		return q[i].nextStart < q[j].nextStart
	}
	return q[i].seq < q[j].seq
}

// place puts h where it belongs in ready after any change to it: in the
// heap at its place, or out of it. Every method that changes a host calls
// it, so ready is always exactly the hosts with work and room.
func (f *Frontier) place(h *host) {
	want := len(h.queue) > 0 && h.inFlight < f.perHost
	switch in := h.index >= 0; {
	case want && in:
		heap.Fix(&f.ready, h.index) // its time changed, or nothing did: Fix is cheap either way
	case want:
		heap.Push(&f.ready, h)
	case in:
		heap.Remove(&f.ready, h.index)
	}
}

// Push queues url at the back of host's queue.
func (f *Frontier) Push(name, url string) {
	h := f.host(name)
	h.queue = append(h.queue, url)
	f.place(h)
}

// Next hands out the next job at time now, if a host may start one: the
// host at the top of the heap, if its time has come. If it has not, no
// other host's has either — one look, however many hosts wait.
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
	if h := f.host(name); t > h.nextStart {
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
