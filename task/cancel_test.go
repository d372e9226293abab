package task_test

import (
	"errors"
	"fmt"
	"strings"
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
	// Once a and b have ended and self has been refused (and so has gone
	// to sleep), cancel self. Waiting for those states, not for a timer: a
	// timer could fire first on a slow machine, and its Cancel would then
	// replace the refusal that each Await is about to return.
	task.Spawn(l, func(y task.Yield) (int, error) {
		task.Await[int](y, a) // their errors are checked below
		task.Await[int](y, b)
		for selfErr == nil {
			if err := task.Pause(y); err != nil {
				return 0, err
			}
		}
		self.Cancel()
		return 0, nil
	})
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

// A body that returns an error of its own with a cancellation still
// pending keeps that error (finish's rule): it says more than "cancelled".
func TestReturningAnErrorWithACancellationPendingKeepsTheError(t *testing.T) {
	l := newLoop(t)
	own := errors.New("own failure")
	var self *task.Task[int]
	self = task.Spawn(l, func(y task.Yield) (int, error) {
		self.Cancel() // pending: the body reaches no Await to be told
		return 0, own
	})
	runUntilDone(t, l, self)
	if err := self.Err(); self.Cancelled() || err != own {
		t.Fatalf("a task that cancelled itself and returned its own error: %v, cancelled %v; want the error, not cancelled", err, self.Cancelled())
	}
}

// Cancelling a task blocked in Gather or GatherFailFast cancels the
// children, and Gather returns only once they have all finished, so no
// child outlives the call.
func TestACancelledGatherCancelsItsChildren(t *testing.T) {
	gathers := map[string]func(task.Yield, ...future.Awaitable[int]) error{
		"Gather": func(y task.Yield, fs ...future.Awaitable[int]) error {
			_, err := task.Gather(y, fs...)
			return err
		},
		"GatherFailFast": func(y task.Yield, fs ...future.Awaitable[int]) error {
			_, err := task.GatherFailFast(y, fs...)
			return err
		},
	}
	for name, gather := range gathers {
		t.Run(name, func(t *testing.T) {
			l := newLoop(t)
			var children []*task.Task[int]
			finished := 0
			parent := task.Spawn(l, func(y task.Yield) (int, error) {
				var fs []future.Awaitable[int]
				for range 3 {
					child := task.Spawn(l, func(y task.Yield) (int, error) {
						defer func() { finished++ }()
						return 0, task.Sleep(y, time.Hour)
					})
					children = append(children, child)
					fs = append(fs, child)
				}
				err := gather(y, fs...)
				if finished != 3 {
					t.Errorf("%s returned with %d of 3 children finished", name, finished)
				}
				return 0, err
			})
			l.CallLater(5*time.Millisecond, func() { parent.Cancel() })
			runUntilDone(t, l, parent)
			if !parent.Cancelled() {
				t.Errorf("the parent ended with %v, not cancelled", parent.Err())
			}
			for i, c := range children {
				if !c.Cancelled() {
					t.Errorf("child %d ended with %v, not cancelled", i, c.Err())
				}
			}
		})
	}
}

// Cancelling twice is safe: two Cancels before the body resumes reach it
// as one cancellation (the body that handles it is not cancelled again at
// its next Await), and a Cancel of a finished task changes nothing.
func TestCancellingTwiceIsSafe(t *testing.T) {
	l := newLoop(t)
	seen := 0
	tk := task.Spawn(l, func(y task.Yield) (string, error) {
		if err := task.Sleep(y, time.Hour); errors.Is(err, future.ErrCancelled) {
			seen++
		}
		if err := task.Sleep(y, time.Millisecond); err != nil {
			return "", err
		}
		return "carried on", nil
	})
	l.CallLater(5*time.Millisecond, func() {
		first := tk.Cancel()
		second := tk.Cancel()
		if !first || !second {
			t.Errorf("Cancel of a pending task returned %v, then %v; want true twice", first, second)
		}
	})
	runUntilDone(t, l, tk)
	if v, err := tk.Result(); v != "carried on" || err != nil || seen != 1 {
		t.Fatalf("after two Cancels: %q, %v; cancellations seen: %d, want 1", v, err, seen)
	}
	if tk.Cancel() || tk.Cancelled() {
		t.Fatal("Cancel of a finished task returned true, or changed it")
	}
}

// A body that returns its cancellation wrapped ("fetching x: cancelled"),
// as a body does that adds context to every error, ends cancelled, not
// failed: the cancellation is known by errors.Is, not by identity.
func TestBodyReturningAWrappedCancellationEndsCancelled(t *testing.T) {
	l := newLoop(t)
	tk := task.Spawn(l, func(y task.Yield) (int, error) {
		if err := task.Sleep(y, time.Hour); err != nil {
			return 0, fmt.Errorf("fetching x: %w", err)
		}
		return 1, nil
	})
	cancelSoon(l, tk)
	runUntilDone(t, l, tk)
	if !tk.Cancelled() || !errors.Is(tk.Err(), future.ErrCancelled) {
		t.Fatalf("cancelled %v, error %v; want the task cancelled", tk.Cancelled(), tk.Err())
	}
}

// A task cancelled from outside while it waits in WaitFor gets its
// cancellation from WaitFor, not ErrTimeout: the time did not run out.
// What it waited for is cancelled too.
func TestWaitForCancelledFromOutsideIsNoTimeout(t *testing.T) {
	l := newLoop(t)
	inner := future.New[int](l)
	var waitErr error
	tk := task.Spawn(l, func(y task.Yield) (int, error) {
		_, waitErr = task.WaitFor[int](y, inner, time.Hour)
		return 0, waitErr
	})
	cancelSoon(l, tk)
	runUntilDone(t, l, tk)
	if !errors.Is(waitErr, future.ErrCancelled) || errors.Is(waitErr, task.ErrTimeout) {
		t.Fatalf("WaitFor of a cancelled task returned %v; want its cancellation, not a timeout", waitErr)
	}
	if !inner.Cancelled() || !tk.Cancelled() {
		t.Fatalf("what it waited for: cancelled %v; the task: cancelled %v; want both", inner.Cancelled(), tk.Cancelled())
	}
}

// A task cancelled in the very turn that what it waits for in WaitFor
// completes still gets its cancellation: the cancel came first, and a
// cancelled task must not go on as if it had its result.
func TestWaitForCancelledInTheTurnItsFutureCompletesIsCancelled(t *testing.T) {
	l := newLoop(t)
	inner := future.New[int](l)
	var got int
	var waitErr error
	tk := task.Spawn(l, func(y task.Yield) (int, error) {
		got, waitErr = task.WaitFor[int](y, inner, time.Hour)
		return got, waitErr
	})
	task.Spawn(l, func(y task.Yield) (struct{}, error) {
		if err := task.Pause(y); err != nil {
			return struct{}{}, err
		}
		tk.Cancel()
		inner.SetResult(5) // the same turn
		return struct{}{}, nil
	})
	runUntilDone(t, l, tk)
	if !errors.Is(waitErr, future.ErrCancelled) || got != 0 || !tk.Cancelled() {
		t.Fatalf("WaitFor returned %d, %v, the task cancelled %v; want the cancellation", got, waitErr, tk.Cancelled())
	}
}

// An Await refused as a cycle returns on the next turn, as asyncio raises
// it, not inside the step that refused it: a callback the body scheduled
// just before the Await runs first.
func TestAnAwaitCycleIsRefusedOnTheNextTurn(t *testing.T) {
	l := newLoop(t)
	var order []string
	var self *task.Task[int]
	self = task.Spawn(l, func(y task.Yield) (int, error) {
		l.CallSoon(func() { order = append(order, "callback") })
		_, err := task.Await[int](y, self)
		order = append(order, "refused")
		return 0, err
	})
	runUntilDone(t, l, self)
	if !errors.Is(self.Err(), task.ErrAwaitCycle) || strings.Join(order, ",") != "callback,refused" {
		t.Fatalf("ended with %v; order %v; want ErrAwaitCycle, and the callback before the refusal", self.Err(), order)
	}
}
