package task_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The tests in this file pin what happens exactly once: a cancellation
// is delivered once, a wake-up reaches one waiter, a timer that is no
// longer needed never fires, and an Await on a finished future costs no
// turn.

// One Cancel is one cancellation: a body that handles it and awaits again
// is not cancelled a second time — whether the Cancel came while the body
// ran (it reaches the next Await), or after what it awaited had finished
// but before it resumed (the Await reports the cancellation instead). And
// a Cancel handed down to an awaited task is that task's to handle: if it
// carries on and returns a value, the awaiting task gets the value, as in
// asyncio, and is not cancelled on top — however the Cancel came.
func TestOneCancelIsDeliveredOnce(t *testing.T) {
	t.Run("while running", func(t *testing.T) {
		l := newLoop(t)
		var tk *task.Task[string]
		tk = task.Spawn(l, func(y task.Yield) (string, error) {
			tk.Cancel()
			if _, err := task.Await[int](y, future.New[int](l)); !errors.Is(err, future.ErrCancelled) {
				return "", errors.New("the first Await was not cancelled")
			}
			for range 3 { // handled: the next Awaits go through
				if err := task.Sleep(y, time.Millisecond); err != nil {
					return "", err
				}
			}
			return "carried on", nil
		})
		runUntilDone(t, l, tk)
		if v, err := tk.Result(); v != "carried on" || err != nil {
			t.Fatalf("got %q, %v", v, err)
		}
	})
	for _, how := range []string{"while the awaiting task waits", "while the awaiting task runs"} {
		t.Run("handed down to a task that handles it, "+how, func(t *testing.T) {
			l := newLoop(t)
			inner := task.Spawn(l, func(y task.Yield) (int, error) {
				if err := task.Sleep(y, time.Hour); !errors.Is(err, future.ErrCancelled) {
					return 0, err
				}
				return 5, nil // handled
			})
			var outer *task.Task[int]
			outer = task.Spawn(l, func(y task.Yield) (int, error) {
				if how == "while the awaiting task runs" {
					outer.Cancel()
				}
				v, err := task.Await[int](y, inner)
				if err != nil {
					return 0, err
				}
				return v, task.Sleep(y, time.Millisecond)
			})
			if how == "while the awaiting task waits" {
				l.CallLater(time.Millisecond, func() { outer.Cancel() })
			}
			runUntilDone(t, l, outer)
			if v, err := outer.Result(); v != 5 || err != nil {
				t.Fatalf("outer: %d, %v; want the inner task's 5", v, err)
			}
		})
	}
	t.Run("after its future finished, before it resumed", func(t *testing.T) {
		l := newLoop(t)
		var f *future.Future[int]
		tk := task.Spawn(l, func(y task.Yield) (string, error) {
			f = future.New[int](y.Loop())
			if _, err := task.Await[int](y, f); !errors.Is(err, future.ErrCancelled) {
				return "", errors.New("the Await was not cancelled")
			}
			for range 3 {
				if err := task.Sleep(y, time.Millisecond); err != nil {
					return "", err
				}
			}
			return "carried on", nil
		})
		l.CallLater(time.Millisecond, func() {
			f.SetResult(1) // the task's wake-up is scheduled...
			tk.Cancel()    // ...and the Cancel comes before it runs
		})
		runUntilDone(t, l, tk)
		if v, err := tk.Result(); v != "carried on" || err != nil {
			t.Fatalf("got %q, %v", v, err)
		}
	})
}

// Await on a future that is already done returns at once: the body goes
// on in the same turn, and a callback scheduled just before has not run.
func TestAwaitOnADoneFutureDoesNotSuspend(t *testing.T) {
	l := newLoop(t)
	done := future.New[int](l)
	done.SetResult(7)
	ran, ranBetween := false, false
	v, err := run(t, l, func(y task.Yield) (int, error) {
		l.CallSoon(func() { ran = true })
		v, err := task.Await[int](y, done)
		ranBetween = ran
		return v, err
	})
	if v != 7 || err != nil || ranBetween {
		t.Fatalf("Await of a done future: %d, %v; another callback ran meanwhile: %v", v, err, ranBetween)
	}
}

// A Gather cancelled twice still waits for every child to finish: the
// second Cancel arrives while the children are cleaning up from the
// first, and must not cut that wait short.
func TestGatherCancelledTwiceStillWaitsForItsChildren(t *testing.T) {
	l := newLoop(t)
	var children []*task.Task[int]
	for _, cleanup := range []time.Duration{60 * time.Millisecond, time.Millisecond, time.Millisecond} {
		children = append(children, task.Spawn(l, func(y task.Yield) (int, error) {
			err := task.Sleep(y, time.Hour)
			// Cleaning up takes a while (the first child's longest), and
			// is not cut short.
			task.Sleep(y, cleanup)
			return 0, err
		}))
	}
	var doneAtReturn []bool
	g := task.Spawn(l, func(y task.Yield) (int, error) {
		_, err := task.Gather[int](y, children[0], children[1], children[2])
		for _, c := range children {
			doneAtReturn = append(doneAtReturn, c.Done())
		}
		return 0, err
	})
	l.CallLater(5*time.Millisecond, func() { g.Cancel() })
	l.CallLater(15*time.Millisecond, func() { g.Cancel() })
	runUntilDone(t, l, g)
	if !g.Cancelled() {
		t.Fatalf("the gathering task: %v, want cancelled", g.Err())
	}
	for i, done := range doneAtReturn {
		if !done {
			t.Fatalf("Gather returned before child %d had finished: %v", i, doneAtReturn)
		}
	}
}

// A Queue waiter that is handed its turn (an item to get, or room to put)
// and cancelled before it resumes passes the turn on: the next waiter
// gets the item, or puts its own.
func TestWokenThenCancelledQueueWaiterPassesTheTurnOn(t *testing.T) {
	t.Run("Get", func(t *testing.T) {
		l := newLoop(t)
		q := task.NewQueue[int](0)
		get := func(y task.Yield) (int, error) { return q.Get(y) }
		first, second := task.Spawn(l, get), task.Spawn(l, get)
		l.CallLater(time.Millisecond, func() {
			q.PutNowait(42) // wakes first...
			first.Cancel()  // ...which is cancelled before it resumes
		})
		runUntilDone(t, l, second)
		if v, err := second.Result(); v != 42 || err != nil || !first.Cancelled() {
			t.Fatalf("second got %d, %v; first cancelled %v", v, err, first.Cancelled())
		}
	})
	t.Run("Put", func(t *testing.T) {
		l := newLoop(t)
		q := task.NewQueue[int](1)
		q.PutNowait(0)
		put := func(v int) func(y task.Yield) (int, error) {
			return func(y task.Yield) (int, error) { return v, q.Put(y, v) }
		}
		first, second := task.Spawn(l, put(1)), task.Spawn(l, put(2))
		l.CallLater(time.Millisecond, func() {
			q.GetNowait()  // room for first...
			first.Cancel() // ...which is cancelled before it resumes
		})
		runUntilDone(t, l, second)
		if err := second.Err(); err != nil || !first.Cancelled() {
			t.Fatalf("second: %v; first cancelled %v", err, first.Cancelled())
		}
		if v, err := q.GetNowait(); v != 2 || err != nil {
			t.Fatalf("the queue holds %d, %v; want the second's 2", v, err)
		}
	})
}

// countTimers returns a loop that counts the timers that fire on it.
func countTimers(t *testing.T) (*loop.Loop, *int) {
	t.Helper()
	fired := new(int)
	l, err := loop.New(&loop.Options{Trace: func(it *loop.Iteration) { *fired += it.Timers }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, fired
}

// idle runs the loop with nothing to do for d, on a timer of its own.
func idle(t *testing.T, l *loop.Loop, d time.Duration) {
	t.Helper()
	l.CallLater(d, l.Stop)
	runLoop(t, l)
}

// A timer that is no longer needed is cancelled, not left to fire for
// nothing later: WaitFor's, when what it waited for came in time, and
// Sleep's, when the sleeping task was cancelled. Only the test's own
// timers fire.
func TestWaitForAndSleepLeaveNoTimerArmed(t *testing.T) {
	t.Run("WaitFor in time", func(t *testing.T) {
		l, fired := countTimers(t)
		_, err := run(t, l, func(y task.Yield) (int, error) {
			quick := future.New[int](l)
			l.CallSoon(func() { quick.SetResult(1) })
			return task.WaitFor[int](y, quick, 20*time.Millisecond)
		})
		if err != nil {
			t.Fatal(err)
		}
		idle(t, l, 60*time.Millisecond)
		if *fired != 1 {
			t.Fatalf("%d timers fired, want 1 (the test's own): WaitFor left its timeout armed", *fired)
		}
	})
	t.Run("Sleep cancelled", func(t *testing.T) {
		l, fired := countTimers(t)
		tk := task.Spawn(l, func(y task.Yield) (int, error) { return 0, task.Sleep(y, 20*time.Millisecond) })
		l.CallSoon(func() { tk.Cancel() })
		runUntilDone(t, l, tk)
		if !tk.Cancelled() {
			t.Fatalf("the sleeping task: %v, want cancelled", tk.Err())
		}
		idle(t, l, 60*time.Millisecond)
		if *fired != 1 {
			t.Fatalf("%d timers fired, want 1 (the test's own): a cancelled Sleep left its timer armed", *fired)
		}
	})
}

// A long queue stays first in, first out while it is being read, also
// when it compacts its storage (which it does once more than a thousand
// items have been taken from its front).
func TestALongQueueStaysFIFO(t *testing.T) {
	q := task.NewQueue[int](0)
	next, want := 0, 0
	for round := range 30 {
		for range 200 {
			q.PutNowait(next)
			next++
		}
		for range 150 + round%3*10 {
			got, err := q.GetNowait()
			if err != nil || got != want {
				t.Fatalf("got %d, %v; want %d", got, err, want)
			}
			want++
		}
	}
	for q.Len() > 0 {
		if got, _ := q.GetNowait(); got != want {
			t.Fatalf("draining: got %d, want %d", got, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("%d items came out of %d put in", want, next)
	}
}

// Locked says whether the lock is held, through Lock, TryLock and Unlock.
func TestLockedSaysWhetherTheLockIsHeld(t *testing.T) {
	l := newLoop(t)
	lk := task.NewLock()
	var seen []bool
	_, err := run(t, l, func(y task.Yield) (int, error) {
		seen = append(seen, lk.Locked())
		if err := lk.Lock(y); err != nil {
			return 0, err
		}
		seen = append(seen, lk.Locked(), lk.TryLock())
		lk.Unlock()
		seen = append(seen, lk.Locked(), lk.TryLock(), lk.Locked())
		return 0, lk.Unlock()
	})
	if err != nil || fmt.Sprint(seen) != "[false true false false true true]" {
		t.Fatalf("Locked, TryLock along the way: %v (%v), want [false true false false true true]", seen, err)
	}
}

// Unlocking a Lock that nobody holds is refused, and makes no room for
// two holders: after it, one TryLock takes the lock and a second fails.
func TestUnlockingAnUnlockedLockIsRefused(t *testing.T) {
	lk := task.NewLock()
	if err := lk.Unlock(); !errors.Is(err, task.ErrOverReleased) {
		t.Fatalf("Unlock of an unlocked Lock: %v, want ErrOverReleased", err)
	}
	if !lk.TryLock() || lk.TryLock() {
		t.Fatal("after an Unlock too many, two holders took the lock, or none")
	}
	if err := lk.Unlock(); err != nil {
		t.Fatalf("Unlock by its holder: %v", err)
	}
	if err := lk.Unlock(); !errors.Is(err, task.ErrOverReleased) {
		t.Fatalf("a second Unlock: %v, want ErrOverReleased", err)
	}
}

// Gather of nothing returns at once, with nothing.
func TestGatherOfNothingReturnsAtOnce(t *testing.T) {
	l := newLoop(t)
	outs, err := run(t, l, func(y task.Yield) ([]task.Outcome[int], error) { return task.Gather[int](y) })
	if err != nil || len(outs) != 0 {
		t.Fatalf("Gather(): %v, %v", outs, err)
	}
	vals, err := run(t, l, func(y task.Yield) ([]int, error) { return task.GatherFailFast[int](y) })
	if err != nil || len(vals) != 0 {
		t.Fatalf("GatherFailFast(): %v, %v", vals, err)
	}
}

// A getter woken for an item that someone else took before it resumed
// goes back to waiting, and gets the next item, not an error.
func TestAGetterWhoseItemWasTakenWaitsOn(t *testing.T) {
	l := newLoop(t)
	q := task.NewQueue[int](0)
	getter := task.Spawn(l, func(y task.Yield) (int, error) { return q.Get(y) })
	l.CallLater(time.Millisecond, func() {
		q.PutNowait(1) // wakes the getter...
		q.GetNowait()  // ...but the item is gone before it resumes
	})
	l.CallLater(5*time.Millisecond, func() { q.PutNowait(2) })
	runUntilDone(t, l, getter)
	if v, err := getter.Result(); v != 2 || err != nil {
		t.Fatalf("the getter got %d, %v; want 2", v, err)
	}
}

// A putter woken for room that someone else filled before it resumed goes
// back to waiting, and puts when there is room again.
func TestAPutterWhoseRoomWasTakenWaitsOn(t *testing.T) {
	l := newLoop(t)
	q := task.NewQueue[int](1)
	q.PutNowait(0)
	putter := task.Spawn(l, func(y task.Yield) (int, error) { return 0, q.Put(y, 2) })
	l.CallLater(time.Millisecond, func() {
		q.GetNowait()  // room for the putter...
		q.PutNowait(1) // ...taken before it resumes
	})
	l.CallLater(5*time.Millisecond, func() { q.GetNowait() })
	runUntilDone(t, l, putter)
	if err := putter.Err(); err != nil || q.Len() != 1 {
		t.Fatalf("the putter: %v; the queue holds %d, want 1", err, q.Len())
	}
	if v, _ := q.GetNowait(); v != 2 {
		t.Fatalf("the queue holds %d, want the putter's 2", v)
	}
}

// Join on a queue that never had an item returns at once: nothing is
// unfinished.
func TestJoinOfAnEmptyQueueReturnsAtOnce(t *testing.T) {
	l := newLoop(t)
	q := task.NewQueue[int](0)
	if _, err := run(t, l, func(y task.Yield) (int, error) { return 0, q.Join(y) }); err != nil {
		t.Fatal(err)
	}
}

// A waiter woken and cancelled at once passes its turn on only if what it
// was woken for is still there: when another took the item (or the room)
// first, waking the next waiter for nothing would send it to the back of
// the line, behind a waiter that came after it.
func TestACancelledWaiterWhoseTurnWasTakenWakesNobody(t *testing.T) {
	t.Run("Get", func(t *testing.T) {
		l := newLoop(t)
		q := task.NewQueue[int](0)
		get := func(y task.Yield) (int, error) { return q.Get(y) }
		first, second, third := task.Spawn(l, get), task.Spawn(l, get), task.Spawn(l, get)
		l.CallLater(time.Millisecond, func() {
			q.PutNowait(1) // wakes first...
			q.GetNowait()  // ...but the item is taken from under it...
			first.Cancel() // ...and it is cancelled before it resumes
			l.CallLater(time.Millisecond, func() { q.PutNowait(2); q.PutNowait(3) })
		})
		runUntilDone(t, l, third)
		v2, _ := second.Result()
		v3, _ := third.Result()
		if v2 != 2 || v3 != 3 || !first.Cancelled() {
			t.Fatalf("second got %d, third %d, first cancelled %v; want 2, 3, true", v2, v3, first.Cancelled())
		}
	})
	t.Run("Put", func(t *testing.T) {
		l := newLoop(t)
		q := task.NewQueue[int](1)
		q.PutNowait(0)
		put := func(v int) func(y task.Yield) (int, error) {
			return func(y task.Yield) (int, error) { return v, q.Put(y, v) }
		}
		first, second, third := task.Spawn(l, put(1)), task.Spawn(l, put(2)), task.Spawn(l, put(3))
		var got []int
		reader := task.Spawn(l, func(y task.Yield) (struct{}, error) {
			// Past the cancel, then a few turns more: a waiter woken for
			// nothing has gone to the back of the line by then.
			for !first.Done() {
				if err := task.Pause(y); err != nil {
					return struct{}{}, err
				}
			}
			for range 3 {
				if err := task.Pause(y); err != nil {
					return struct{}{}, err
				}
			}
			for range 3 {
				v, err := q.Get(y)
				if err != nil {
					return struct{}{}, err
				}
				got = append(got, v)
			}
			return struct{}{}, nil
		})
		l.CallLater(time.Millisecond, func() {
			q.GetNowait()   // room for first...
			q.PutNowait(-1) // ...taken from under it...
			first.Cancel()  // ...and it is cancelled before it resumes
		})
		runUntilDone(t, l, reader)
		if second.Err() != nil || third.Err() != nil {
			t.Fatalf("second: %v, third: %v", second.Err(), third.Err())
		}
		if fmt.Sprint(got) != "[-1 2 3]" || !first.Cancelled() {
			t.Fatalf("the queue gave %v, first cancelled %v; want [-1 2 3], true", got, first.Cancelled())
		}
	})
}

// GatherFailFast keeps the first error: a child that fails first is the
// error it returns, not the cancellation of a child it then cancelled,
// nor a cancellation of the gathering task that came after that failure,
// before the task resumed.
func TestGatherFailFastKeepsTheFirstError(t *testing.T) {
	boom, late := errors.New("boom"), errors.New("late")
	t.Run("a later failure", func(t *testing.T) {
		l := newLoop(t)
		a, b, c := future.New[int](l), future.New[int](l), future.New[int](l)
		g := task.Spawn(l, func(y task.Yield) ([]int, error) {
			l.CallSoon(func() { a.SetError(boom); b.SetError(late) })
			return task.GatherFailFast[int](y, a, b, c)
		})
		runUntilDone(t, l, g)
		if err := g.Err(); err != boom || !c.Cancelled() {
			t.Fatalf("GatherFailFast: %v, the child still running cancelled %v; want boom, true", err, c.Cancelled())
		}
	})
	t.Run("a cancellation after the failure", func(t *testing.T) {
		l := newLoop(t)
		a, b := future.New[int](l), future.New[int](l)
		var g *task.Task[[]int]
		g = task.Spawn(l, func(y task.Yield) ([]int, error) {
			l.CallSoon(func() { a.SetError(boom); g.Cancel() })
			return task.GatherFailFast[int](y, a, b)
		})
		runUntilDone(t, l, g)
		if err := g.Err(); err != boom || !b.Cancelled() {
			t.Fatalf("GatherFailFast: %v, the child still running cancelled %v; want boom, true", err, b.Cancelled())
		}
	})
}

// A cancelled Gather waits for every child, the last as much as the first:
// here the last child takes longest to clean up, and it has finished when
// Gather returns.
func TestACancelledGatherWaitsForItsLastChild(t *testing.T) {
	l := newLoop(t)
	var children []future.Awaitable[int]
	var last *task.Task[int]
	for i := range 3 {
		last = task.Spawn(l, func(y task.Yield) (int, error) {
			err := task.Sleep(y, time.Hour)
			for range 3 * i { // cleaning up takes turns, the last child's most
				task.Pause(y)
			}
			return 0, err
		})
		children = append(children, last)
	}
	lastDone := false
	g := task.Spawn(l, func(y task.Yield) (int, error) {
		_, err := task.Gather(y, children...)
		lastDone = last.Done()
		return 0, err
	})
	cancelSoon(l, g)
	runUntilDone(t, l, g)
	if !g.Cancelled() || !lastDone {
		t.Fatalf("the gathering task: %v; the last child done when Gather returned: %v; want cancelled, true", g.Err(), lastDone)
	}
}
