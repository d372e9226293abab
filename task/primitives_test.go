package task_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The source article's table as a behaviour test: 60 "requests" of 200 ms
// each, under Semaphore(5), (10), (20) and no limit. The peak number in
// flight is exactly the limit, and all 60 complete. The four runs share one
// loop and run side by side. (How long they take is the Example's and the
// benchmark's business, not a test's.)
func TestSemaphoreTablePeakConcurrency(t *testing.T) {
	t.Parallel() // its own loop; it mostly waits on timers
	l := newLoop(t)
	limits := []int{5, 10, 20, 0} // 0: unbounded gather
	peaks := make([]int, len(limits))
	done := make([]int, len(limits))
	var all []future.Awaitable[int]
	for i, limit := range limits {
		var sem *task.Semaphore
		if limit > 0 {
			sem = task.NewSemaphore(limit)
		}
		inFlight := 0
		for range 60 {
			all = append(all, task.Spawn(l, func(y task.Yield) (int, error) {
				if sem != nil {
					if err := sem.Acquire(y); err != nil {
						return 0, err
					}
					defer sem.Release()
				}
				inFlight++
				peaks[i] = max(peaks[i], inFlight)
				err := task.Sleep(y, 200*time.Millisecond)
				inFlight--
				done[i]++
				return 0, err
			}))
		}
	}
	_, err := run(t, l, func(y task.Yield) ([]task.Outcome[int], error) {
		return task.Gather(y, all...)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, limit := range limits {
		want := limit
		if limit == 0 {
			want = 60
		}
		if peaks[i] != want || done[i] != 60 {
			t.Errorf("limit %d: peak %d (want %d), completed %d of 60", limit, peaks[i], want, done[i])
		}
	}
}

func TestWaitForCancelsTheInnerTaskAndWaitsForIt(t *testing.T) {
	t.Parallel() // its own loop; it mostly waits on timers
	l := newLoop(t)
	innerSawCancel := false
	innerFinished := false
	_, err := run(t, l, func(y task.Yield) (int, error) {
		inner := task.Spawn(l, func(y task.Yield) (int, error) {
			defer func() { innerFinished = true }()
			err := task.Sleep(y, 3*time.Second)
			innerSawCancel = errors.Is(err, future.ErrCancelled)
			// Cleaning up takes a turn of its own before it is over.
			task.Pause(y)
			return 0, err
		})
		_, err := task.WaitFor[int](y, inner, time.Second)
		if !innerFinished {
			return 0, fmt.Errorf("WaitFor returned before the inner task finished")
		}
		return 0, err
	})
	if !errors.Is(err, task.ErrTimeout) {
		t.Fatalf("got %v, want ErrTimeout", err)
	}
	if !innerSawCancel {
		t.Fatal("the inner task did not observe its cancellation")
	}
}

func TestWaitForReturnsTheResultInTime(t *testing.T) {
	l := newLoop(t)
	v, err := run(t, l, func(y task.Yield) (string, error) {
		inner := task.Spawn(l, func(y task.Yield) (string, error) {
			return "quick", task.Sleep(y, time.Millisecond)
		})
		return task.WaitFor[string](y, inner, time.Minute)
	})
	if err != nil || v != "quick" {
		t.Fatalf("got %q, %v", v, err)
	}
}

// hookedFuture is a future that calls hook when WaitFor hands it its
// wake-up, which WaitFor does just after arming its timeout timer.
type hookedFuture struct {
	*future.Future[int]
	hook func()
}

func (h hookedFuture) OnDone(fn func()) {
	h.Future.OnDone(fn)
	h.hook()
}

// WaitFor gives up after its timeout, not later: a timer of the same delay
// armed just after WaitFor's own finds WaitFor already returned with
// ErrTimeout. The order of the two timers is fixed by their deadlines, so
// a busy machine cannot change it (wall time is not measured).
func TestWaitForGivesUpNoLaterThanATimerOfTheSameDelay(t *testing.T) {
	const timeout = 5 * time.Millisecond
	l := newLoop(t)
	returned := false
	returnedBySentinel := future.New[bool](l)
	f := hookedFuture{Future: future.New[int](l)}
	f.hook = func() {
		l.CallLater(timeout, func() {
			// One hop more, so a WaitFor woken in this same turn has resumed.
			l.CallSoon(func() { returnedBySentinel.SetResult(returned) })
		})
	}
	_, err := run(t, l, func(y task.Yield) (int, error) {
		v, err := task.WaitFor[int](y, f, timeout)
		returned = true
		return v, err
	})
	if !errors.Is(err, task.ErrTimeout) {
		t.Fatalf("WaitFor of a future never completed: %v, want ErrTimeout", err)
	}
	runUntilDone(t, l, returnedBySentinel) // it may be due a turn or two later
	if r, _ := returnedBySentinel.Result(); !r {
		t.Fatal("WaitFor had not given up when a timer of its own delay, armed after its own, fired")
	}
}

// Three producers, five consumers, 10 000 items through a queue of 10:
// Join returns after the last TaskDone, every item arrives exactly once,
// and the producers really waited at the max size.
func TestQueueProducersConsumersJoin(t *testing.T) {
	l := newLoop(t)
	const producers, consumers, items, maxSize = 3, 5, 10000, 10
	q := task.NewQueue[int](maxSize)
	seen := make([]int, items)
	taskDone, peakLen := 0, 0
	var joinedAfter int
	_, err := run(t, l, func(y task.Yield) (int, error) {
		var workers []*task.Task[int]
		for c := range consumers {
			workers = append(workers, task.Spawn(l, func(y task.Yield) (int, error) {
				for {
					item, err := q.Get(y)
					if err != nil {
						return c, err
					}
					seen[item]++
					if c%2 == 0 {
						task.Pause(y) // some consumers are slower
					}
					taskDone++
					q.TaskDone()
				}
			}))
		}
		var prods []future.Awaitable[int]
		for p := range producers {
			prods = append(prods, task.Spawn(l, func(y task.Yield) (int, error) {
				for i := p; i < items; i += producers {
					if err := q.Put(y, i); err != nil {
						return 0, err
					}
					peakLen = max(peakLen, q.Len())
				}
				return 0, nil
			}))
		}
		if _, err := task.GatherFailFast(y, prods...); err != nil {
			return 0, err
		}
		if err := q.Join(y); err != nil {
			return 0, err
		}
		joinedAfter = taskDone
		for _, w := range workers {
			w.Cancel()
		}
		return 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("item %d seen %d times", i, n)
		}
	}
	if joinedAfter != items {
		t.Fatalf("Join returned after %d TaskDone calls, want %d", joinedAfter, items)
	}
	if peakLen != maxSize {
		t.Fatalf("peak queue length %d, want exactly the max size %d", peakLen, maxSize)
	}
	if err := q.TaskDone(); !errors.Is(err, task.ErrTooManyTaskDone) {
		t.Fatalf("an extra TaskDone: %v", err)
	}
}

func TestQueueNowaitForms(t *testing.T) {
	q := task.NewQueue[string](1)
	if _, err := q.GetNowait(); !errors.Is(err, task.ErrQueueEmpty) {
		t.Fatal(err)
	}
	if err := q.PutNowait("a"); err != nil {
		t.Fatal(err)
	}
	if err := q.PutNowait("b"); !errors.Is(err, task.ErrQueueFull) {
		t.Fatal(err)
	}
	if v, err := q.GetNowait(); v != "a" || err != nil {
		t.Fatal(v, err)
	}
}

// blockedCase parks a task in a primitive; unblock later lets the next
// waiter through, which proves the primitive stayed consistent.
type blockedCase struct {
	name    string
	setup   func(l *loop.Loop) (block func(y task.Yield) error, unblock func())
	wantRun bool // whether a second waiter must get its turn after unblock
}

// A task cancelled while blocked in a primitive returns promptly with a
// cancellation error, and a second waiter behind it still gets its turn.
func TestCancellingABlockedTaskKeepsThePrimitiveConsistent(t *testing.T) {
	cases := []blockedCase{
		{"Queue.Get", func(*loop.Loop) (func(task.Yield) error, func()) {
			q := task.NewQueue[int](0)
			return func(y task.Yield) error { _, err := q.Get(y); return err }, func() { q.PutNowait(1) }
		}, true},
		{"Queue.Put", func(*loop.Loop) (func(task.Yield) error, func()) {
			q := task.NewQueue[int](1)
			q.PutNowait(0)
			return func(y task.Yield) error { return q.Put(y, 1) }, func() { q.GetNowait() }
		}, true},
		{"Semaphore.Acquire", func(*loop.Loop) (func(task.Yield) error, func()) {
			s := task.NewBoundedSemaphore(1)
			s.TryAcquire()
			return func(y task.Yield) error { return s.Acquire(y) }, func() { s.Release() }
		}, true},
		{"Lock.Lock", func(*loop.Loop) (func(task.Yield) error, func()) {
			lk := task.NewLock()
			lk.TryLock()
			return func(y task.Yield) error { return lk.Lock(y) }, func() { lk.Unlock() }
		}, true},
		{"Event.Wait", func(*loop.Loop) (func(task.Yield) error, func()) {
			var e task.Event
			return func(y task.Yield) error { return e.Wait(y) }, e.Set
		}, true},
		{"Sleep", func(*loop.Loop) (func(task.Yield) error, func()) {
			return func(y task.Yield) error { return task.Sleep(y, time.Hour) }, func() {}
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newLoop(t)
			block, unblock := c.setup(l)
			var order []string
			first := task.Spawn(l, func(y task.Yield) (int, error) {
				err := block(y)
				order = append(order, "first: "+fmt.Sprint(err))
				return 0, err
			})
			second := task.Spawn(l, func(y task.Yield) (int, error) {
				if !c.wantRun {
					return 0, nil
				}
				err := block(y)
				order = append(order, "second: "+fmt.Sprint(err))
				return 0, err
			})
			l.CallLater(5*time.Millisecond, func() { first.Cancel() })
			l.CallLater(10*time.Millisecond, unblock)
			_, err := run(t, l, func(y task.Yield) ([]task.Outcome[int], error) {
				return task.Gather[int](y, first, second)
			})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"first: cancelled"}
			if c.wantRun {
				want = append(want, "second: <nil>")
			}
			if !slices.Equal(order, want) {
				t.Fatalf("order %q, want %q", order, want)
			}
			if !first.Cancelled() {
				t.Fatal("the first task did not end cancelled")
			}
		})
	}
}

// A waiter that is woken and cancelled in the same turn passes the wake-up
// on: the semaphore's permit is not lost.
func TestWokenThenCancelledWaiterPassesThePermitOn(t *testing.T) {
	l := newLoop(t)
	s := task.NewBoundedSemaphore(1)
	s.TryAcquire()
	secondGot := false
	first := task.Spawn(l, func(y task.Yield) (int, error) { return 0, s.Acquire(y) })
	second := task.Spawn(l, func(y task.Yield) (int, error) {
		err := s.Acquire(y)
		secondGot = err == nil
		return 0, err
	})
	l.CallLater(5*time.Millisecond, func() {
		s.Release()    // hands the permit to first...
		first.Cancel() // ...which is cancelled before it can resume
	})
	run(t, l, func(y task.Yield) ([]task.Outcome[int], error) {
		return task.Gather[int](y, first, second)
	})
	if !first.Cancelled() || !secondGot {
		t.Fatalf("first cancelled %v, second got the permit %v", first.Cancelled(), secondGot)
	}
	if s.Available() != 0 {
		t.Fatalf("available %d: the second holds the only permit", s.Available())
	}
	if err := task.NewBoundedSemaphore(2).Release(); !errors.Is(err, task.ErrOverReleased) {
		t.Fatalf("over-release: %v", err)
	}
}

// A waiter cancelled in the queue, never woken, got no permit: it has
// none to pass on, and the permit stays with its holder.
func TestACancelledWaiterPassesNoPermitOn(t *testing.T) {
	l := newLoop(t)
	s := task.NewSemaphore(1)
	s.TryAcquire() // held by the test throughout
	waiter := task.Spawn(l, func(y task.Yield) (int, error) { return 0, s.Acquire(y) })
	cancelSoon(l, waiter)
	runUntilDone(t, l, waiter)
	if !waiter.Cancelled() || s.Available() != 0 {
		t.Fatalf("waiter cancelled %v, available %d; want true, 0: the only permit is held", waiter.Cancelled(), s.Available())
	}
}

// A release that finds only cancelled waiters in the queue gives its
// permit back to the semaphore: skipping them wakes nobody, so the permit
// is free for the next Acquire, not lost.
func TestAReleasePastCancelledWaitersFreesThePermit(t *testing.T) {
	l := newLoop(t)
	s := task.NewSemaphore(1)
	s.TryAcquire() // held by the test until after the waiter is cancelled
	waiter := task.Spawn(l, func(y task.Yield) (int, error) { return 0, s.Acquire(y) })
	cancelSoon(l, waiter)
	runUntilDone(t, l, waiter)
	if !waiter.Cancelled() {
		t.Fatalf("waiter: %v, want cancelled", waiter.Err())
	}
	if err := s.Release(); err != nil {
		t.Fatal(err)
	}
	if s.Available() != 1 || !s.TryAcquire() {
		t.Fatalf("available %d after the release; want the permit free (1)", s.Available())
	}
}

func TestGatherKeepsEveryOutcomeAndFailFastCancelsTheRest(t *testing.T) {
	l := newLoop(t)
	boom := errors.New("boom")
	sleepThen := func(d time.Duration, err error) func(task.Yield) (int, error) {
		return func(y task.Yield) (int, error) {
			if e := task.Sleep(y, d); e != nil {
				return 0, e
			}
			return int(d / time.Millisecond), err
		}
	}
	outs, err := run(t, l, func(y task.Yield) ([]task.Outcome[int], error) {
		return task.Gather[int](y,
			task.Spawn(l, sleepThen(3*time.Millisecond, nil)),
			task.Spawn(l, sleepThen(1*time.Millisecond, boom)),
			task.Spawn(l, sleepThen(2*time.Millisecond, nil)))
	})
	if err != nil || len(outs) != 3 || outs[0].Value != 3 || !errors.Is(outs[1].Err, boom) || outs[2].Value != 2 {
		t.Fatalf("Gather: %+v, %v", outs, err)
	}

	slow := task.Spawn(l, sleepThen(time.Hour, nil))
	_, err = run(t, l, func(y task.Yield) ([]int, error) {
		return task.GatherFailFast[int](y, task.Spawn(l, sleepThen(time.Millisecond, boom)), slow)
	})
	if !errors.Is(err, boom) || !slow.Cancelled() {
		t.Fatalf("GatherFailFast: err %v, slow cancelled %v", err, slow.Cancelled())
	}
}
