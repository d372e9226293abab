package loop

import (
	"container/heap"
	"math"
	"time"
)

// Timer is a callback scheduled for a point on the loop's clock.
type Timer struct {
	loop      *Loop
	when      time.Duration
	seq       uint64 // breaks ties: equal deadlines fire in scheduling order
	fn        func()
	index     int // position in the heap; -1 once popped
	cancelled bool
	fired     bool
}

// When is the timer's deadline on the loop's clock.
func (t *Timer) When() time.Duration { return t.when }

// Cancel stops the timer from firing; it reports whether it did. The timer
// stays in the heap until it reaches the top (lazy cancellation): removing
// it at once would cost O(log n) on every cancel, and most timers — read
// timeouts — are cancelled long before they are due.
//
// A timer that is due but whose callback has not run yet — it waits in
// the ready queue behind callbacks of the same turn — can still be
// cancelled, and then does not run.
func (t *Timer) Cancel() bool {
	if t.cancelled || t.fired {
		return false
	}
	t.cancelled = true
	t.fn = nil
	if t.index < 0 {
		return true // already out of the heap, waiting in the ready queue
	}
	l := t.loop
	l.cancelledTimers++
	// Rebuild when cancelled timers are over half of a large heap, so a
	// program that sets and cancels millions of timeouts stays bounded.
	if l.cancelledTimers > 100 && 2*l.cancelledTimers > len(l.timers) {
		l.rebuildTimers()
	}
	return true
}

// dueTimer is a Timer seen from the ready queue: the same struct, whose
// Run method runs it. Queued as itself, a due timer costs no closure; and
// Run stays out of Timer's own API.
type dueTimer Timer

func (t *dueTimer) Run() { (*Timer)(t).run() }

// CallbackFunc is the timer's function, for Stats to name it by.
func (t *dueTimer) CallbackFunc() any { return t.fn }

// run is what the ready queue calls for a due timer.
func (t *Timer) run() {
	if t.cancelled {
		return
	}
	t.fired = true
	fn := t.fn
	t.fn = nil
	fn()
}

// CallLater runs fn after d (at the earliest: the loop may be busy). A d
// too large for the clock means "never": the deadline stops at the
// clock's end instead of wrapping round into the past.
func (l *Loop) CallLater(d time.Duration, fn func()) *Timer {
	now := l.Time()
	when := now + d
	if d > 0 && when < now {
		when = math.MaxInt64
	}
	return l.CallAt(when, fn)
}

// CallAt runs fn when the loop's clock reaches when.
func (l *Loop) CallAt(when time.Duration, fn func()) *Timer {
	l.timerSeq++
	t := &Timer{loop: l, when: when, seq: l.timerSeq, fn: fn}
	heap.Push(&l.timers, t)
	return t
}

func (l *Loop) popTimer() *Timer {
	t := heap.Pop(&l.timers).(*Timer)
	if t.cancelled {
		l.cancelledTimers--
	}
	return t
}

// readyDueTimers moves the timers whose time has come to the ready queue,
// in deadline order, and says how many. A cancelled one is dropped on the way.
func (l *Loop) readyDueTimers() (n int) {
	if len(l.timers) == 0 {
		return 0
	}
	now := l.TurnTime()
	for len(l.timers) > 0 && l.timers[0].when <= now {
		if t := l.popTimer(); !t.cancelled {
			l.ready = append(l.ready, (*dueTimer)(t))
			n++
		}
	}
	return n
}

// dropCancelledHead pops cancelled timers off the top, so the next wait is
// not cut short by a timer that will never fire.
func (l *Loop) dropCancelledHead() {
	for len(l.timers) > 0 && l.timers[0].cancelled {
		l.popTimer()
	}
}

func (l *Loop) rebuildTimers() {
	live := l.timers[:0]
	for _, t := range l.timers {
		if t.cancelled {
			t.index = -1
			continue
		}
		t.index = len(live)
		live = append(live, t)
	}
	for i := len(live); i < len(l.timers); i++ {
		l.timers[i] = nil
	}
	l.timers = live
	l.cancelledTimers = 0
	heap.Init(&l.timers)
}

// timerHeap orders timers by (deadline, sequence) for container/heap.
type timerHeap []*Timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when != h[j].when {
		return h[i].when < h[j].when
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}
