//go:build solution

package taskstep

import (
	"iter"

	"loopkit/future"
)

// step runs the body until its next Await, or its end: the chapter's
// Task.step. The loop calls it, as a callback — first from Spawn, then
// each time a future the body awaits is done.
func (t *Task[T]) step() {
	if t.result.Done() {
		return
	}
	if t.next == nil {
		if t.cancelPending { // cancelled before it ever ran: it never will
			t.err = future.ErrCancelled
			t.finish()
			return
		}
		t.next, t.stop = iter.Pull(t.run)
	}
	if t.cancelPending {
		// The awaited future could not be cancelled (its result was on
		// its way): the Await returns the cancellation instead.
		t.cancelPending = false
		t.resumeErr = future.ErrCancelled
	}
	w, running := t.next() // the body runs until it yields w, or returns
	if !running {
		t.finish()
		return
	}
	if t.cancelPending && w.Cancel() {
		// Cancel came while the body ran (it cancelled itself): it
		// reaches this Await at once, through the future it awaits.
		t.cancelPending = false
	}
	t.waiting = w
	w.OnDone(t.wakeup) // done, w schedules wakeup: the loop resumes us
}

func (t *Task[T]) wakeup() {
	t.waiting = nil
	t.step()
}

// Cancel asks the task to stop and reports whether it could (false once
// the task is done). A suspended task is reached through what it awaits:
// cancelling that future completes it, so the loop resumes the body, and
// its Await returns the future's error, the cancellation.
func (t *Task[T]) Cancel() bool {
	if t.result.Done() {
		return false
	}
	if t.waiting != nil && t.waiting.Cancel() {
		return true
	}
	t.cancelPending = true // not started, running, or its future already done
	return true
}
