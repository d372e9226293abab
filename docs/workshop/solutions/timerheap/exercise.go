//go:build solution

package timerheap

import (
	"container/heap"
	"time"
)

// Less orders timers by deadline, and timers with the same deadline by the
// order they were added in: container/heap is not stable, and two
// callbacks scheduled for one instant must run in the order asked.
func (q timerHeap) Less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when < q[j].when
	}
	return q[i].seq < q[j].seq
}

// Cancel stops the timer from running and reports whether it did. The
// timer stays in the heap until it reaches the top (lazy cancellation):
// removing it now would cost O(log n) on every cancel, and most timers —
// read timeouts — are cancelled long before they are due.
func (t *Timer) Cancel() bool {
	if t.cancelled || t.fired {
		return false
	}
	t.cancelled = true
	t.fn = nil // let the closure go now, even if the timer stays a while
	if t.index < 0 {
		return true // already out of the heap: Due returned it, Run will skip it
	}
	h := t.heap
	h.cancelled++
	// Lazy, but bounded: once cancelled timers are most of a large heap,
	// sweep them out, so a program that sets and cancels millions of
	// timeouts keeps a heap the size of what is really armed.
	if h.cancelled > 100 && 2*h.cancelled > len(h.timers) {
		h.rebuild()
	}
	return true
}

// Due removes the timers whose deadline is at or before now and returns
// them in the order they must run. Cancelled timers are dropped.
func (h *Heap) Due(now time.Duration) []*Timer {
	var due []*Timer
	for len(h.timers) > 0 && h.timers[0].when <= now {
		if t := h.pop(); !t.cancelled {
			due = append(due, t)
		}
	}
	return due
}

// Next returns the earliest deadline of a timer still armed. A cancelled
// timer at the top would cut the loop's wait short for nothing, so it is
// dropped first.
func (h *Heap) Next() (time.Duration, bool) {
	for len(h.timers) > 0 && h.timers[0].cancelled {
		h.pop()
	}
	if len(h.timers) == 0 {
		return 0, false
	}
	return h.timers[0].when, true
}

// pop takes the top timer out, keeping the count of cancelled ones true.
func (h *Heap) pop() *Timer {
	t := heap.Pop(&h.timers).(*Timer)
	if t.cancelled {
		h.cancelled--
	}
	return t
}

// rebuild drops every cancelled timer and restores the heap order.
func (h *Heap) rebuild() {
	live := h.timers[:0]
	for _, t := range h.timers {
		if t.cancelled {
			t.index = -1
			continue
		}
		t.index = len(live)
		live = append(live, t)
	}
	clear(h.timers[len(live):]) // the tail still points at dropped timers
	h.timers = live
	h.cancelled = 0
	heap.Init(&h.timers)
}
