//go:build solution

package hostqueues

import "time"

// Frontier holds URLs in per-host queues and hands one out only when its
// host may start a request. Times are on the loop's clock: durations since
// the loop began, as loop.Time returns.
//
// This one finds the next host by looking at every host, which costs a
// look per host per call: part 2, frontier, makes it one look.
type Frontier struct {
	gap     time.Duration
	perHost int
	hosts   map[string]*host
	order   []*host // every host, in the order first seen: ties go to the first
}

type host struct {
	name      string
	queue     []string
	inFlight  int
	nextStart time.Duration // no request starts before this
}

// New returns an empty frontier that spaces the starts of two requests to
// one host by at least gap, and lets at most perHost be in flight to one
// host at once.
func New(gap time.Duration, perHost int) *Frontier {
	return &Frontier{gap: gap, perHost: perHost, hosts: make(map[string]*host)}
}

// host returns the named host, made and put in order the first time it is
// seen. A host is never forgotten: its next start must outlive its queue.
func (f *Frontier) host(name string) *host {
	h := f.hosts[name]
	if h == nil {
		h = &host{name: name}
		f.hosts[name] = h
		f.order = append(f.order, h)
	}
	return h
}

// Push queues url at the back of host's queue.
func (f *Frontier) Push(name, url string) {
	h := f.host(name)
	h.queue = append(h.queue, url)
}

// earliest is the host that may start soonest: of those with work and
// room, the one whose next start is earliest. The scan goes in the order
// hosts were first seen, and only a strictly earlier time replaces the
// best so far, so between equal times the first seen wins.
func (f *Frontier) earliest() *host {
	var best *host
	for _, h := range f.order {
		if len(h.queue) > 0 && h.inFlight < f.perHost && (best == nil || h.nextStart < best.nextStart) {
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
	h.nextStart = now + f.gap // spacing counts from this start, not from when it was allowed
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

// Wake is when Next may next hand out a job: the earliest host's time.
func (f *Frontier) Wake() (time.Duration, bool) {
	h := f.earliest()
	if h == nil {
		return 0, false
	}
	return h.nextStart, true
}
