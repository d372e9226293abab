// Package frontier is workshop exercise 16, the second of two parts on a
// polite crawler's to-do list: the same frontier as part 1, with a heap of
// hosts instead of a scan. README.md says what to build; exercise.go is
// yours to edit. This file holds what you need and need not change: the
// types, New, and container/heap's plumbing.
package frontier

import (
	"container/heap"
	"time"
)

// Job is a URL handed out, with its host.
type Job struct {
	Host, URL string
}

// Frontier holds URLs in per-host queues and hands one out only when its
// host may start a request. Times are on the loop's clock: durations since
// the loop began, as loop.Time returns.
type Frontier struct {
	gap     time.Duration
	perHost int
	hosts   map[string]*host
	// ready is a heap of the hosts that have work and room — URLs queued,
	// fewer than perHost in flight — ordered by next start, then by seq.
	// Whatever their time: a host whose time has not come is in it too.
	//lint:ignore U1000 place, which you write, keeps it
	ready hostHeap
}

type host struct {
	name      string
	seq       int // the order hosts were first seen in: breaks ties
	queue     []string
	inFlight  int
	nextStart time.Duration // no request starts before this
	index     int           // position in ready; -1 when not in it
}

// New returns an empty frontier that spaces the starts of two requests to
// one host by at least gap, and lets at most perHost be in flight to one
// host at once.
func New(gap time.Duration, perHost int) *Frontier {
	return &Frontier{gap: gap, perHost: perHost, hosts: make(map[string]*host)}
}

// host returns the named host, made the first time it is seen, and never
// forgotten: its next start must outlive its queue.
func (f *Frontier) host(name string) *host {
	h := f.hosts[name]
	if h == nil {
		h = &host{name: name, seq: len(f.hosts), index: -1}
		f.hosts[name] = h
	}
	return h
}

// hostHeap is the hosts in ready, for container/heap; Less is yours. Swap,
// Push and Pop keep each host's index: heap.Fix and heap.Remove need it.
type hostHeap []*host

var _ heap.Interface = (*hostHeap)(nil)

func (q hostHeap) Len() int { return len(q) }
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
