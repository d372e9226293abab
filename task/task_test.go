package task_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

func TestAwaitReturnsTheFutureResultAfterSuspending(t *testing.T) {
	l := newLoop(t)
	var order []string
	got, err := run(t, l, func(y task.Yield) (int, error) {
		f := future.New[int](l)
		l.CallSoon(func() { order = append(order, "producer"); f.SetResult(42) })
		order = append(order, "before await")
		v, err := task.Await(y, f)
		order = append(order, "after await")
		return v, err
	})
	if err != nil || got != 42 {
		t.Fatalf("got %d, %v", got, err)
	}
	if strings.Join(order, ",") != "before await,producer,after await" {
		t.Fatalf("order %v", order)
	}
}

func TestTaskIsAFutureThatOtherTasksAwait(t *testing.T) {
	l := newLoop(t)
	got, err := run(t, l, func(y task.Yield) (string, error) {
		inner := task.Spawn(l, func(y task.Yield) (string, error) {
			if err := task.Sleep(y, time.Millisecond); err != nil {
				return "", err
			}
			return "inner result", nil
		})
		return task.Await[string](y, inner)
	})
	if err != nil || got != "inner result" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestBodyErrorBecomesTheTaskError(t *testing.T) {
	l := newLoop(t)
	boom := errors.New("boom")
	_, err := run(t, l, func(y task.Yield) (int, error) { return 0, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
}

func TestCancelledBeforeFirstStepNeverRunsItsBody(t *testing.T) {
	l := newLoop(t)
	ran := false
	tk := task.Spawn(l, func(y task.Yield) (int, error) { ran = true; return 1, nil })
	if !tk.Cancel() {
		t.Fatal("Cancel of a fresh task returned false")
	}
	runUntilDone(t, l, tk)
	if ran || !tk.Cancelled() || !errors.Is(tk.Err(), future.ErrCancelled) {
		t.Fatalf("ran=%v cancelled=%v err=%v", ran, tk.Cancelled(), tk.Err())
	}
}

// Cancel reaches the pending Await; the body's defers run; cancelling a
// task that awaits another task cancels the inner one as well.
func TestCancelPropagatesToTheAwaitedTask(t *testing.T) {
	l := newLoop(t)
	var events []string
	inner := task.Spawn(l, func(y task.Yield) (int, error) {
		defer func() { events = append(events, "inner cleaned up") }()
		err := task.Sleep(y, time.Hour)
		events = append(events, "inner saw: "+err.Error())
		return 0, err
	})
	outer := task.Spawn(l, func(y task.Yield) (int, error) {
		return task.Await[int](y, inner)
	})
	l.CallLater(5*time.Millisecond, func() { outer.Cancel() })
	runUntilDone(t, l, outer)
	if !outer.Cancelled() || !inner.Cancelled() {
		t.Fatalf("outer cancelled %v, inner cancelled %v", outer.Cancelled(), inner.Cancelled())
	}
	if strings.Join(events, ";") != "inner saw: cancelled;inner cleaned up" {
		t.Fatalf("events %v", events)
	}
}

// A body may handle a cancellation and go on; its task then finishes normally.
func TestBodyMayHandleCancellation(t *testing.T) {
	l := newLoop(t)
	tk := task.Spawn(l, func(y task.Yield) (string, error) {
		if err := task.Sleep(y, time.Hour); !errors.Is(err, future.ErrCancelled) {
			return "", err
		}
		if err := task.Sleep(y, time.Millisecond); err != nil {
			return "", err
		}
		return "carried on", nil
	})
	l.CallLater(time.Millisecond, func() { tk.Cancel() })
	runUntilDone(t, l, tk)
	if v, err := tk.Result(); err != nil || v != "carried on" || tk.Cancelled() {
		t.Fatalf("got %q, %v (cancelled %v)", v, err, tk.Cancelled())
	}
}

func TestPanicInNestedCallKeepsTheBodyStack(t *testing.T) {
	l := newLoop(t)
	_, err := run(t, l, func(y task.Yield) (int, error) {
		if err := task.Sleep(y, time.Millisecond); err != nil {
			return 0, err
		}
		return parsePrice("not a number"), nil
	})
	var pe *task.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a PanicError", err)
	}
	if !strings.Contains(string(pe.Stack), "parsePrice") || !strings.Contains(err.Error(), "bad price") {
		t.Fatalf("the error does not name the inner function:\n%v", err)
	}
}

func parsePrice(s string) int { panic("bad price " + s) }

// Closing a loop with a thousand suspended tasks unwinds every body (its
// defers run) and leaves no coroutine goroutine behind.
func TestClosingTheLoopStopsSuspendedTasks(t *testing.T) {
	before := runtime.NumGoroutine()
	l := newLoop(t)
	cleaned := 0
	var tasks []*task.Task[int]
	for range 1000 {
		tasks = append(tasks, task.Spawn(l, func(y task.Yield) (int, error) {
			defer func() { cleaned++ }()
			return 0, task.Sleep(y, time.Hour)
		}))
	}
	l.CallSoon(l.Stop) // after the 1000 first steps, scheduled before it
	runLoop(t, l)
	// Each suspended task is a parked coroutine goroutine. (Compared with
	// 1000, not before+1000: goroutines of earlier tests may end meanwhile.)
	if n := runtime.NumGoroutine(); n < 1000 {
		t.Fatalf("expected 1000 suspended coroutines, have %d goroutines in all", n)
	}
	l.Close()
	if cleaned != 1000 {
		t.Fatalf("%d bodies unwound, want 1000", cleaned)
	}
	for _, tk := range tasks {
		if !tk.Done() || tk.Err() == nil {
			t.Fatalf("a task survived its loop: done %v err %v", tk.Done(), tk.Err())
		}
	}
	noGoroutineLeft(t, before)
}

func TestPauseLetsOtherCallbacksRun(t *testing.T) {
	l := newLoop(t)
	other := 0
	_, err := run(t, l, func(y task.Yield) (int, error) {
		l.CallSoon(func() { other++ })
		if err := task.Pause(y); err != nil {
			return 0, err
		}
		return other, nil
	})
	if err != nil || other != 1 {
		t.Fatalf("other ran %d times before the task resumed (%v)", other, err)
	}
}

func TestCatchTurnsAPanicIntoAnErrorButLetsLoopCloseThrough(t *testing.T) {
	l := newLoop(t)
	handled := 0
	var caught *task.PanicError
	worker := task.Spawn(l, func(y task.Yield) (int, error) {
		// Bounded: if Catch swallowed the unwinding of the closing loop,
		// the worker would go round for ever inside Close, and the test
		// would hang instead of failing.
		for i := 0; i < 10; i++ {
			err := task.Catch(func() {
				if i == 0 {
					parsePrice("oops")
				}
				task.Sleep(y, time.Hour) // the loop closes while we sleep here
			})
			if err != nil {
				handled++
				errors.As(err, &caught)
			}
		}
		return 0, nil
	})
	l.CallSoon(l.Stop) // after the worker's first step, scheduled before it
	runLoop(t, l)
	l.Close()
	if handled != 1 || !errors.Is(worker.Err(), loop.ErrClosed) {
		t.Fatalf("handled %d panics (want 1); worker ended with %v", handled, worker.Err())
	}
	// The error says where the panic was: its stack is the panicking
	// function's, taken before the unwinding lost it.
	if caught == nil || !strings.Contains(string(caught.Stack), "parsePrice") {
		t.Fatalf("Catch's error %v: its stack does not name parsePrice", caught)
	}
}

// A closing loop unwinds a suspended body whatever the body would do next:
// one that ignores its Awaits' errors and would await again is not resumed
// at all (its Await does not return), and its defers run.
func TestAClosingLoopUnwindsABodyThatIgnoresErrors(t *testing.T) {
	l := newLoop(t)
	returned, unwound := 0, false
	tk := task.Spawn(l, func(y task.Yield) (int, error) {
		defer func() { unwound = true }()
		for range 10 {
			task.Sleep(y, time.Hour) // its error ignored, as a careless body does
			returned++
		}
		return 0, nil
	})
	l.CallSoon(l.Stop) // after the task's first step, scheduled before it
	runLoop(t, l)
	l.Close()
	if returned != 0 || !unwound || !errors.Is(tk.Err(), loop.ErrClosed) {
		t.Fatalf("after Close: the Await returned %d times (want 0), defers ran %v, the task ended with %v (want loop.ErrClosed)", returned, unwound, tk.Err())
	}
}
