package task

import "loopkit/future"

// waiters is a FIFO of parked tasks, each represented by the future it
// awaits. Cancelled waiters stay in the queue until they reach the front
// and are skipped there: removing them from the middle would cost O(n).
type waiters struct {
	q    []*future.Future[struct{}]
	head int
}

// park adds a waiter at the back.
func (w *waiters) park(y Yield) *future.Future[struct{}] {
	f := future.New[struct{}](y.Loop())
	w.q = append(w.q, f)
	return f
}

// wakeFirst completes the first waiter that is still waiting and reports
// whether there was one. A cancelled waiter is skipped, so it never
// swallows a wake-up meant for the next one.
func (w *waiters) wakeFirst() bool {
	for w.head < len(w.q) {
		f := w.q[w.head]
		w.q[w.head] = nil
		w.head++
		if !f.Done() {
			f.SetResult(struct{}{})
			w.compact()
			return true
		}
	}
	w.compact()
	return false
}

// wakeAll completes every waiter still waiting.
func (w *waiters) wakeAll() {
	for w.wakeFirst() {
	}
}

// waiting reports whether any waiter is still waiting.
func (w *waiters) waiting() bool {
	for _, f := range w.q[w.head:] {
		if !f.Done() {
			return true
		}
	}
	return false
}

// compact reuses the slice once its front half is spent.
func (w *waiters) compact() {
	if w.head == len(w.q) {
		w.q, w.head = w.q[:0], 0
	} else if w.head > 32 && 2*w.head > len(w.q) {
		w.q = append(w.q[:0], w.q[w.head:]...)
		w.head = 0
	}
}

// granted reports whether a waiter that Await released with an error was
// in fact woken first: the wake-up then belongs to the next waiter.
func granted(f *future.Future[struct{}]) bool {
	return f.Done() && !f.Cancelled()
}
