package task_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/task"
)

// An unbounded semaphore takes any number of releases: each adds a permit.
func TestAnUnboundedSemaphoreTakesExtraReleases(t *testing.T) {
	s := task.NewSemaphore(1)
	if !s.TryAcquire() {
		t.Fatal("no permit")
	}
	for range 3 {
		if err := s.Release(); err != nil {
			t.Fatalf("Release of an unbounded semaphore: %v", err)
		}
	}
	if s.Available() != 3 {
		t.Fatalf("%d permits, want 3", s.Available())
	}
}

// Waiting on a set event leaves it set: every waiter passes.
func TestWaitingOnASetEventLeavesItSet(t *testing.T) {
	l := newLoop(t)
	var e task.Event
	e.Set()
	n, err := run(t, l, func(y task.Yield) (int, error) {
		for i := range 3 {
			if err := e.Wait(y); err != nil || !e.IsSet() {
				return i, fmt.Errorf("wait %d: %v, set %v", i, err, e.IsSet())
			}
		}
		return 3, nil
	})
	if n != 3 || err != nil {
		t.Fatal(err)
	}
}

// Unfinished counts the items put and not yet marked done, taken or not;
// Len only those still in the queue.
func TestUnfinishedCountsTakenItemsUntilDone(t *testing.T) {
	q := task.NewQueue[int](0)
	q.PutNowait(1)
	q.PutNowait(2)
	q.GetNowait()
	if q.Len() != 1 || q.Unfinished() != 2 {
		t.Fatalf("len %d, unfinished %d; want 1 and 2", q.Len(), q.Unfinished())
	}
	q.TaskDone()
	if q.Unfinished() != 1 {
		t.Fatalf("after TaskDone: unfinished %d, want 1", q.Unfinished())
	}
}

// A coroutine pool keeps at most 128 parked coroutines: the 129th task to
// end stops its coroutine.
func TestTheParkedCoroutinesAreBounded(t *testing.T) {
	l := newLoop(t)
	var release task.Event
	var ts []*task.Task[int]
	for range 130 {
		ts = append(ts, task.Spawn(l, func(y task.Yield) (int, error) { return 0, release.Wait(y) }))
	}
	task.Spawn(l, func(y task.Yield) (int, error) { release.Set(); return 0, nil })
	for _, tk := range ts {
		runUntilDone(t, l, tk)
	}
	if n := task.ParkedWorkers(l); n != 128 {
		t.Fatalf("%d coroutines parked after 131 tasks ended, want 128", n)
	}
}

// An item taken from a queue is not kept by it: the queue lives on, the
// item can be collected.
func TestATakenItemIsLetGo(t *testing.T) {
	q := task.NewQueue[*[64]byte](0)
	freed := make(chan struct{})
	func() {
		v := new([64]byte)
		runtime.SetFinalizer(v, func(*[64]byte) { close(freed) })
		q.PutNowait(v)
		q.PutNowait(new([64]byte))
		q.GetNowait()
	}()
	for range 40 {
		runtime.GC()
		select {
		case <-freed:
			runtime.KeepAlive(q)
			return
		case <-time.After(5 * time.Millisecond): // the finalizer runs on the runtime's goroutine
		}
	}
	t.Fatal("the queue keeps an item that was taken")
}

// WaitFor of a future that is already done returns its result at once,
// as Await does, without giving up its turn: a callback scheduled before
// the call has not run when it returns.
func TestWaitForOfADoneFutureDoesNotSuspend(t *testing.T) {
	l := newLoop(t)
	done := future.New[int](l)
	done.SetResult(7)
	otherRan := false
	got, err := run(t, l, func(y task.Yield) (int, error) {
		l.CallSoon(func() { otherRan = true })
		v, err := task.WaitFor[int](y, done, time.Hour)
		if otherRan {
			t.Error("WaitFor of a done future gave up the task's turn")
		}
		return v, err
	})
	if got != 7 || err != nil {
		t.Fatalf("WaitFor of a done future: %d, %v; want 7, nil", got, err)
	}
}

// Sleep wakes its task after d, not later: a timer of the same delay, armed
// in the turn the task went to sleep but after its Sleep, finds it awake.
// The order of the two timers is fixed by their deadlines, so a busy
// machine cannot change it (wall time is not measured).
func TestSleepWakesNoLaterThanATimerOfTheSameDelay(t *testing.T) {
	const d = 5 * time.Millisecond
	l := newLoop(t)
	awake := false
	awakeAtSentinel := future.New[bool](l)
	tk := task.Spawn(l, func(y task.Yield) (int, error) {
		// Runs once the body has suspended in Sleep, its timer armed.
		l.CallSoon(func() {
			l.CallLater(d, func() {
				// One hop more, so a task woken in this same turn has resumed.
				l.CallSoon(func() { awakeAtSentinel.SetResult(awake) })
			})
		})
		err := task.Sleep(y, d)
		awake = true
		return 0, err
	})
	runUntilDone(t, l, tk)
	if err := tk.Err(); err != nil {
		t.Fatal(err)
	}
	runUntilDone(t, l, awakeAtSentinel) // it may be due a turn or two later
	if a, _ := awakeAtSentinel.Result(); !a {
		t.Fatal("Sleep had not returned when a timer of its delay, armed after its own, fired")
	}
}

// A lock with tasks waiting for it is held all the same: Locked says so
// while its holder has it, and a waiter that was handed it holds it in turn.
func TestALockWithWaitersIsLocked(t *testing.T) {
	l := newLoop(t)
	lk := task.NewLock()
	lk.TryLock()
	var seen []bool
	waiter := task.Spawn(l, func(y task.Yield) (int, error) {
		if err := lk.Lock(y); err != nil {
			return 0, err
		}
		seen = append(seen, lk.Locked())
		return 0, lk.Unlock()
	})
	task.Spawn(l, func(y task.Yield) (int, error) {
		if err := task.Pause(y); err != nil { // the waiter is parked by now
			return 0, err
		}
		seen = append(seen, lk.Locked())
		return 0, lk.Unlock() // hands the lock to the waiter
	})
	runUntilDone(t, l, waiter)
	if err := waiter.Err(); err != nil || fmt.Sprint(seen) != "[true true]" || lk.Locked() {
		t.Fatalf("Locked with a waiter, then held by it: %v (%v), then %v; want [true true], then false", seen, err, lk.Locked())
	}
}

// A sleeping task cancelled in the very turn its timer is due (an earlier
// timer of the same turn cancels it) ends cancelled, and Sleep's own timer,
// running after, finds its future done and leaves it be.
func TestASleepCancelledInTheTurnItsTimerFiresEndsCancelled(t *testing.T) {
	l := newLoop(t)
	var tk *task.Task[int]
	tk = task.Spawn(l, func(y task.Yield) (int, error) {
		l.CallLater(0, func() { tk.Cancel() }) // due with Sleep's, and before it
		return 0, task.Sleep(y, 0)
	})
	runUntilDone(t, l, tk)
	if !tk.Cancelled() {
		t.Fatalf("the sleeping task: %v, want cancelled", tk.Err())
	}
}
