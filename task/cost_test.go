package task_test

import (
	"testing"

	"loopkit/future"
	"loopkit/task"
)

// An Await allocates nothing of its own: the future awaited is the
// caller's, and the task hands every one the same wake-up, made once
// when it was spawned. Checked by hand: a method value made in step
// (w.OnDone(t.wakeup)) makes this 2.
func TestAwaitAllocatesNothingOfItsOwn(t *testing.T) {
	l := newLoop(t)
	var cur *future.Future[int]
	complete := func() { cur.SetResult(1) }
	allocs, err := run(t, l, func(y task.Yield) (float64, error) {
		var failed error
		n := testing.AllocsPerRun(100, func() {
			cur = future.New[int](l) // the one allocation: the awaited future
			l.CallSoon(complete)
			if _, err := task.Await[int](y, cur); err != nil {
				failed = err
			}
		})
		return n, failed
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 1 {
		t.Fatalf("%v allocations per Await of a new future, want 1 (the future)", allocs)
	}
}

// A task costs two allocations of its own: the Task with its future
// inside, and its wake-up. Its coroutine is a parked one from the loop's
// pool (worker.go), where iter.Pull would cost six, and the function it
// runs a seventh. Registering for the loop's Close and the first step
// cost none. Checked by hand: pool.put stopping every coroutine, so that
// each task makes its own, makes it 10; OnClose in place of AddCloser
// makes it 4.
func TestASpawnedTaskAllocatesTwo(t *testing.T) {
	l := newLoop(t)
	body := func(task.Yield) (int, error) { return 1, nil }
	allocs, err := run(t, l, func(y task.Yield) (float64, error) {
		var failed error
		n := testing.AllocsPerRun(100, func() {
			if _, err := task.Await[int](y, task.Spawn(l, body)); err != nil {
				failed = err
			}
		})
		return n, failed
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 2 {
		t.Fatalf("%v allocations per task spawned and awaited, want 2", allocs)
	}
}
