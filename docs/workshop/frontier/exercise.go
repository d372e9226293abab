package frontier

import "time"

// This is part 1's frontier, and it works: every host is looked at on
// every call, in earliest. Make it one look — see README.md.

// Less orders ready by next start, then by seq.
func (q hostHeap) Less(i, j int) bool {
	return false // TODO
}

// place puts h where it belongs in ready after a change to it: in the heap
// at its place, or out of it.
//
//lint:ignore U1000 yours to write, and to call
func (f *Frontier) place(h *host) {
	// TODO: heap.Fix, heap.Push or heap.Remove, as the case may be. Then
	// call it after every change to a host.
}

// Push queues url at the back of host's queue.
func (f *Frontier) Push(name, url string) {
	h := f.host(name)
	h.queue = append(h.queue, url)
}

// earliest is the host that may start soonest: of those with work and
// room, the one whose next start is earliest, and between equal times the
// first seen. It looks at every host.
func (f *Frontier) earliest() *host {
	var best *host
	for _, h := range f.hosts {
		if len(h.queue) == 0 || h.inFlight >= f.perHost {
			continue
		}
		if best == nil || h.nextStart < best.nextStart || h.nextStart == best.nextStart && h.seq < best.seq {
			best = h
		}
	}
	return best
}

// Next hands out the next job at time now, if a host may start one.
func (f *Frontier) Next(now time.Duration) (Job, bool) {
	h := f.earliest()
	if h == nil || h.nextStart > now {
		return Job{}, false
	}
	url := h.queue[0]
	h.queue[0] = ""
	h.queue = h.queue[1:]
	h.inFlight++
	h.nextStart = now + f.gap // spacing counts from this start
	return Job{Host: h.name, URL: url}, true
}

// Done says a job of host has finished: it is no longer in flight.
func (f *Frontier) Done(name string) {
	if h := f.hosts[name]; h != nil && h.inFlight > 0 {
		h.inFlight--
	}
}

// HoldUntil makes host wait: nothing of it starts before t. It only ever
// moves the host's time later.
func (f *Frontier) HoldUntil(name string, t time.Duration) {
	if h := f.host(name); t > h.nextStart {
		h.nextStart = t
	}
}

// Wake is when Next may next hand out a job, and false if no host could
// hand one out however long one waited.
func (f *Frontier) Wake() (time.Duration, bool) {
	h := f.earliest()
	if h == nil {
		return 0, false
	}
	return h.nextStart, true
}
