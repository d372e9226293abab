package task_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

// A task's coroutine outlives its body: parked when the body returns, it
// runs the next task's body, even after a body that panicked. Seen
// failing with pool.put stopping every worker (none parked).
func TestACoroutineServesTheNextTask(t *testing.T) {
	l := newLoop(t)
	_, err := run(t, l, func(y task.Yield) (int, error) {
		parked := task.ParkedWorkers(l)
		boom := task.Spawn(l, func(task.Yield) (int, error) { panic("boom") })
		var pe *task.PanicError
		if _, err := task.Await(y, boom); !errors.As(err, &pe) {
			t.Errorf("a panicking body: %v, want a PanicError", err)
		}
		if got := task.ParkedWorkers(l); got != parked+1 {
			t.Errorf("%d coroutines parked after the panicking body, want %d", got, parked+1)
		}
		next := task.Spawn(l, func(y task.Yield) (int, error) {
			if got := task.ParkedWorkers(l); got != parked {
				t.Errorf("%d coroutines parked while the next body runs, want %d: it took none", got, parked)
			}
			if err := task.Sleep(y, time.Millisecond); err != nil { // suspends and resumes on it
				return 0, err
			}
			return 7, nil
		})
		if v, err := task.Await(y, next); v != 7 || err != nil {
			t.Errorf("the next task on the reused coroutine: %v, %v", v, err)
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Parked coroutines are goroutines: a closing loop stops them, and none
// is left behind. Seen failing with the pool's Run not stopping them.
func TestClosingTheLoopStopsParkedCoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	l := newLoop(t)
	const n = 50
	_, err := run(t, l, func(y task.Yield) (int, error) {
		tasks := make([]*task.Task[int], n)
		for i := range tasks { // all alive at once: n coroutines
			tasks[i] = task.Spawn(l, func(y task.Yield) (int, error) { return 0, task.Sleep(y, time.Millisecond) })
		}
		for _, tk := range tasks {
			if _, err := task.Await(y, tk); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := task.ParkedWorkers(l); got < n {
		t.Fatalf("%d coroutines parked, want at least %d", got, n)
	}
	l.Close()
	noGoroutineLeft(t, before)
}

// A loop of a group locked to its threads made its coroutines on its
// thread, and closing it stops them: a parked one, and a task still
// suspended. iter.Pull switches to such a coroutine only from that
// thread, so the group closes each locked loop as its Run ends, on its
// own goroutine. Seen failing (the runtime killed the test binary: "coro:
// OS thread locking must match locking at coroutine creation") with the
// loops closed by Group.Close, from the goroutine that called it.
func TestALockedGroupClosesItsCoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	g, err := loop.NewGroup(2, &loop.GroupOptions{LockOSThread: true})
	if err != nil {
		t.Fatal(err)
	}
	var suspended [2]*task.Task[int]
	err = g.Run(func(i int, l *loop.Loop) error {
		suspended[i] = task.Spawn(l, func(y task.Yield) (int, error) { return 0, task.Sleep(y, time.Hour) })
		_, err := task.Run(l, func(y task.Yield) (int, error) { // leaves its coroutine parked
			return 0, task.Sleep(y, time.Millisecond)
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for i, tk := range suspended {
		if !errors.Is(tk.Err(), loop.ErrClosed) {
			t.Errorf("loop %d: the suspended task ended with %v, want loop.ErrClosed", i, tk.Err())
		}
	}
	noGoroutineLeft(t, before)
}
