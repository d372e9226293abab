package task_test

import (
	"errors"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/task"
)

// A task that awaits itself, or a task that (through others) awaits it,
// would wait for ever, and a Cancel would chase the cycle round until the
// stack overflowed. Await refuses at once with ErrAwaitCycle instead, as
// asyncio raises "Task cannot await on itself".
func TestATaskCannotAwaitItselfOrATaskThatAwaitsIt(t *testing.T) {
	l := newLoop(t)
	var self *task.Task[int]
	var selfErr error
	self = task.Spawn(l, func(y task.Yield) (int, error) {
		_, selfErr = task.Await[int](y, self)
		return 0, task.Sleep(y, time.Hour) // wait here to be cancelled
	})
	var a, b *task.Task[int]
	a = task.Spawn(l, func(y task.Yield) (int, error) { return task.Await[int](y, b) })
	b = task.Spawn(l, func(y task.Yield) (int, error) {
		if err := task.Pause(y); err != nil { // let a start awaiting b
			return 0, err
		}
		return task.Await[int](y, a)
	})
	l.CallLater(10*time.Millisecond, func() { self.Cancel(); a.Cancel() })
	all := task.Spawn(l, func(y task.Yield) ([]task.Outcome[int], error) {
		return task.Gather[int](y, self, a, b)
	})
	runUntilDone(t, l, all)
	if !errors.Is(selfErr, task.ErrAwaitCycle) || !self.Cancelled() {
		t.Errorf("awaiting itself: %v, then cancelled: %v", selfErr, self.Cancelled())
	}
	if !errors.Is(b.Err(), task.ErrAwaitCycle) || !errors.Is(a.Err(), task.ErrAwaitCycle) {
		t.Errorf("a awaits b awaits a: b ended with %v, a with %v", b.Err(), a.Err())
	}
}

// A cancellation asked for while the body runs reaches its next Await at
// once, as in asyncio: the awaited future is cancelled, rather than the
// cancellation waiting until that future completes on its own.
func TestCancelWhileRunningReachesTheNextAwaitAtOnce(t *testing.T) {
	l := newLoop(t)
	var self *task.Task[int]
	self = task.Spawn(l, func(y task.Yield) (int, error) {
		self.Cancel()
		return 0, task.Sleep(y, time.Hour)
	})
	runUntilDone(t, l, self)
	if !self.Cancelled() {
		t.Fatalf("a task that cancelled itself, then slept: %v", self.Err())
	}

	// The awaited task cancels its awaiter, then waits on an Event never
	// set: the cancellation goes down to it, and both end.
	var outer, inner *task.Task[int]
	var never task.Event
	inner = task.Spawn(l, func(y task.Yield) (int, error) {
		if err := task.Pause(y); err != nil { // let outer start awaiting
			return 0, err
		}
		outer.Cancel()
		return 0, never.Wait(y)
	})
	outer = task.Spawn(l, func(y task.Yield) (int, error) { return task.Await[int](y, inner) })
	runUntilDone(t, l, outer)
	if !outer.Cancelled() || !inner.Cancelled() {
		t.Fatalf("outer cancelled %v (%v), inner cancelled %v (%v)", outer.Cancelled(), outer.Err(), inner.Cancelled(), inner.Err())
	}
}

// asyncio's rule: a body that returns normally while a cancellation is
// still pending — it never reached an Await that could have told it —
// leaves its task cancelled. One that was told and handled it does not
// (TestBodyMayHandleCancellation).
func TestReturningWithACancellationPendingEndsCancelled(t *testing.T) {
	l := newLoop(t)
	var self *task.Task[int]
	self = task.Spawn(l, func(y task.Yield) (int, error) {
		if !self.Cancel() {
			t.Error("Cancel of a running task returned false")
		}
		return 1, nil
	})
	runUntilDone(t, l, self)
	if v, err := self.Result(); !self.Cancelled() || !errors.Is(err, future.ErrCancelled) {
		t.Fatalf("a task that cancelled itself and returned (1, nil): (%v, %v), cancelled %v", v, err, self.Cancelled())
	}
}
