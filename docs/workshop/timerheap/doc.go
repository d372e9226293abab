// Package timerheap is workshop exercise 2: the loop's timers, a heap
// ordered by (deadline, sequence) with lazy cancellation. README.md says
// what to build; exercise.go is yours to edit. This file holds what you
// need and need not change: the Timer, and container/heap's plumbing.
package timerheap

import (
	"container/heap"
	"time"
)

// Timer is a callback scheduled for a point on the loop's clock.
type Timer struct {
	heap      *Heap
	when      time.Duration
	seq       uint64 // the order timers were added in
	fn        func()
	index     int // position in the heap; -1 once out of it
	cancelled bool
	fired     bool
}

// When is the timer's deadline.
func (t *Timer) When() time.Duration { return t.when }

// Run is what the loop calls for a timer Due returned: it runs the
// callback unless the timer was cancelled meanwhile (by a callback that
// ran before it in the same turn, say).
func (t *Timer) Run() {
	if t.cancelled || t.fired {
		return
	}
	t.fired = true
	fn := t.fn
	t.fn = nil
	fn()
}

// Heap holds the timers of one loop.
type Heap struct {
	timers timerHeap
	seq    uint64
	//lint:ignore U1000 Cancel, Due and Next, which you write, keep it
	cancelled int // cancelled timers still in the heap
}

// Add schedules fn for when.
func (h *Heap) Add(when time.Duration, fn func()) *Timer {
	h.seq++
	t := &Timer{heap: h, when: when, seq: h.seq, fn: fn}
	heap.Push(&h.timers, t)
	return t
}

// Len is how many timers the heap holds, cancelled ones included.
func (h *Heap) Len() int { return len(h.timers) }

// timerHeap is a slice of timers for container/heap; Less is yours.
type timerHeap []*Timer

func (q timerHeap) Len() int { return len(q) }
func (q timerHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.index = len(*q)
	*q = append(*q, t)
}
func (q *timerHeap) Pop() any {
	old := *q
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	t.index = -1
	return t
}
