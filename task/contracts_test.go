package task_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// A task that cancels itself and then pauses is told at that Pause: the
// future Pause waits on is already done and cannot be cancelled, so the
// cancellation waits for the resume instead of being lost.
func TestACancelThatCannotCancelTheAwaitedFutureIsDeliveredAtResume(t *testing.T) {
	l := newLoop(t)
	var self *task.Task[int]
	self = task.Spawn(l, func(y task.Yield) (int, error) {
		self.Cancel()
		if err := task.Pause(y); !errors.Is(err, future.ErrCancelled) {
			return 1, fmt.Errorf("Pause after a self-cancel returned %v", err)
		}
		return 2, nil
	})
	runUntilDone(t, l, self)
	if v, err := self.Result(); v != 2 || err != nil {
		t.Fatalf("task: %d, %v", v, err)
	}
}

// Run on a closed loop says why it could not run: the loop's error, not
// "not done".
func TestRunOnAClosedLoopReturnsTheLoopsError(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	_, err = task.Run(l, func(task.Yield) (int, error) { return 1, nil })
	if !errors.Is(err, loop.ErrClosed) {
		t.Fatalf("task.Run on a closed loop: %v, want ErrClosed", err)
	}
}

func panickingBody(task.Yield) (int, error) { panic("the body broke") }

// A body's panic becomes an error whose message holds the value and the
// body's own stack, which names the body's function.
func TestAPanicErrorSaysWhereTheBodyPanicked(t *testing.T) {
	l := newLoop(t)
	_, err := run(t, l, panickingBody)
	var pe *task.PanicError
	if !errors.As(err, &pe) || pe.Value != "the body broke" || !strings.Contains(err.Error(), "panickingBody") {
		t.Fatalf("a panicking body's error: %v", err)
	}
}

// Catch returns the panic's own value, and the stack of the function
// that panicked.
func TestCatchKeepsThePanicValueAndStack(t *testing.T) {
	err := task.Catch(func() { panickingBody(task.Yield{}) })
	var pe *task.PanicError
	if !errors.As(err, &pe) || pe.Value != "the body broke" || !strings.Contains(string(pe.Stack), "panickingBody") {
		t.Fatalf("Catch: %v", err)
	}
	if err := task.Catch(func() {}); err != nil {
		t.Fatalf("Catch of a function that returns: %v", err)
	}
}

// AddDoneCallback hands the callback the task it was added to.
func TestAddDoneCallbackGetsTheTask(t *testing.T) {
	l := newLoop(t)
	tk := task.Spawn(l, func(task.Yield) (int, error) { return 7, nil })
	got := 0
	tk.AddDoneCallback(func(d *task.Task[int]) { got, _ = d.Result() })
	runUntilDone(t, l, tk)
	l.CallSoon(l.Stop)
	runLoop(t, l)
	if got != 7 {
		t.Fatalf("the callback saw %d, want the task's 7", got)
	}
}

// GatherFailFast returns the values in the order of its arguments, not
// of completion.
func TestGatherFailFastKeepsTheArgumentOrder(t *testing.T) {
	l := newLoop(t)
	got, err := run(t, l, func(y task.Yield) ([]int, error) {
		a := task.Spawn(l, func(y task.Yield) (int, error) { return 1, task.Sleep(y, 2*time.Millisecond) })
		b := task.Spawn(l, func(task.Yield) (int, error) { return 2, nil })
		c := task.Spawn(l, func(task.Yield) (int, error) { return 3, nil })
		return task.GatherFailFast[int](y, a, b, c)
	})
	if err != nil || fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("GatherFailFast: %v, %v; want [1 2 3]", got, err)
	}
}

// A finished task is not kept by the loop, nor by the coroutine that ran
// it: once the caller drops it, it can be collected, and its result with
// it, while the loop lives. (The finalizer is on the result: a task points
// at itself, and the runtime does not finalize an object in a cycle.)
func TestAFinishedTaskIsLetGo(t *testing.T) {
	l := newLoop(t)
	var freed atomic.Int64
	const tasks = 5
	for range tasks {
		runUntilDone(t, l, task.Spawn(l, func(y task.Yield) (*[64]byte, error) {
			v := new([64]byte)
			runtime.SetFinalizer(v, func(*[64]byte) { freed.Add(1) })
			return v, task.Pause(y)
		}))
	}
	for range 400 { // up to 2 s: a busy machine may run the finalizers late
		if runtime.GC(); freed.Load() == tasks {
			return
		}
		time.Sleep(5 * time.Millisecond) // the finalizers' goroutine runs; the count is re-checked
	}
	t.Fatalf("%d of %d finished tasks were freed while their loop lived", freed.Load(), tasks)
}
