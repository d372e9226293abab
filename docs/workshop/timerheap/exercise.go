package timerheap

import "time"

// Less orders timers by deadline.
func (q timerHeap) Less(i, j int) bool {
	return q[i].when < q[j].when // TODO: and two timers with the same deadline?
}

// Cancel stops the timer from running and reports whether it did. It does
// not take the timer out of the heap (see README.md).
func (t *Timer) Cancel() bool {
	return false // TODO
}

// Due removes the timers whose deadline is at or before now and returns
// them in the order they must run. Cancelled timers are dropped, not
// returned.
func (h *Heap) Due(now time.Duration) []*Timer {
	return nil // TODO
}

// Next returns the earliest deadline of a timer still armed, and false if
// there is none. Cancelled timers at the top of the heap are dropped on
// the way.
func (h *Heap) Next() (time.Duration, bool) {
	return 0, false // TODO
}
