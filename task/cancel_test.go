package task_test

import (
	"errors"
	"testing"
	"time"

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
