//go:build workshop

package taskstep_test

import (
	"errors"
	"slices"
	"testing"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/taskstep"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The tests are written as loopkit tasks (wstest.Run), which spawn and
// await your tasks: a taskstep.Task is a future, so task.Await takes it.

func TestBodyStartsOnTheNextTurnAndItsValueIsTheTasks(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		started := false
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			started = true
			return 42, nil
		})
		if started {
			t.Error("the body ran inside Spawn: Spawn only schedules the first step")
		}
		if v, err := task.Await(y, tk); v != 42 || err != nil {
			t.Errorf("the task's result is %v, %v; want 42, nil", v, err)
		}
		if !started || tk.Cancel() {
			t.Errorf("after the task finished: started %v, Cancel returned true; want true, false", started)
		}
		return nil
	})
}

// Each Await suspends the body; completing the future resumes it, on a
// later turn, with the future's value.
func TestAwaitSuspendsUntilTheFutureIsDone(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f1, f2 := future.New[int](l), future.New[int](l)
		var log []string
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			log = append(log, "start")
			a, err := taskstep.Await(y, f1)
			if err != nil {
				return 0, err
			}
			log = append(log, "got f1")
			b, err := taskstep.Await(y, f2)
			log = append(log, "got f2")
			return a + b, err
		})
		wstest.Turns(y, 3)
		if !slices.Equal(log, []string{"start"}) || tk.Done() {
			t.Errorf("before f1 is done: %v, task done %v; want [start], false", log, tk.Done())
			return nil
		}
		f1.SetResult(2)
		wstest.Turns(y, 3)
		if !slices.Equal(log, []string{"start", "got f1"}) {
			t.Errorf("after f1 is done: %v; want [start got f1]", log)
			return nil
		}
		f2.SetResult(3)
		if v, err := task.Await(y, tk); v != 5 || err != nil {
			t.Errorf("the task's result is %v, %v; want 5, nil", v, err)
		}
		return nil
	})
}

func TestBodysErrorIsTheTasks(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		boom := errors.New("boom")
		f := future.New[int](l)
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			if _, err := taskstep.Await(y, f); err != nil {
				return 0, err
			}
			return 0, nil
		})
		l.CallSoon(func() { f.SetError(boom) })
		if _, err := task.Await(y, tk); err != boom {
			t.Errorf("the task's error is %v; want the body's, %v", err, boom)
		}
		return nil
	})
}

// A Task is a Future: one task awaits another like any future.
func TestATaskAwaitsATask(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[int](l)
		inner := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			v, err := taskstep.Await(y, f)
			return v * 10, err
		})
		outer := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			v, err := taskstep.Await[int](y, inner)
			return v + 1, err
		})
		wstest.Turns(y, 3)
		f.SetResult(4)
		if v, err := task.Await(y, outer); v != 41 || err != nil {
			t.Errorf("outer = %v, %v; want 41, nil", v, err)
		}
		return nil
	})
}

func TestCancelReachesTheSuspendedAwait(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[int](l) // nobody will complete it
		var seen error
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			_, seen = taskstep.Await(y, f)
			return 0, seen
		})
		wstest.Turns(y, 3)
		if !tk.Cancel() {
			t.Error("Cancel of a suspended task returned false")
			return nil
		}
		task.Await(y, tk)
		if !errors.Is(seen, future.ErrCancelled) || !f.Cancelled() || !tk.Cancelled() {
			t.Errorf("the body's Await returned %v; future cancelled %v; task cancelled %v; want ErrCancelled, true, true",
				seen, f.Cancelled(), tk.Cancelled())
		}
		return nil
	})
}

// Cancellation is a request: the body is told, and may clean up and go on.
func TestTheBodyMayHandleACancellation(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f, cleanup := future.New[int](l), future.New[int](l)
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (string, error) {
			if _, err := taskstep.Await(y, f); !errors.Is(err, future.ErrCancelled) {
				return "", errors.New("the Await was not cancelled")
			}
			if _, err := taskstep.Await(y, cleanup); err != nil {
				return "", err
			}
			return "cleaned up", nil
		})
		wstest.Turns(y, 3)
		tk.Cancel()
		wstest.Turns(y, 3)
		cleanup.SetResult(1)
		if v, err := task.Await(y, tk); v != "cleaned up" || err != nil {
			t.Errorf("the task's result is %q, %v; want %q, nil", v, err, "cleaned up")
		}
		return nil
	})
}

func TestCancelBeforeItStartsMeansItNeverRuns(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		ran := false
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			ran = true
			return 1, nil
		})
		if !tk.Cancel() {
			t.Error("Cancel of a task not yet started returned false")
			return nil
		}
		task.Await(y, tk)
		if ran || !tk.Cancelled() {
			t.Errorf("body ran %v, task cancelled %v; want false, true", ran, tk.Cancelled())
		}
		return nil
	})
}

// In one callback, f is completed and the task cancelled: f cannot be
// cancelled any more, yet the Await must return the cancellation.
func TestCancelWhileTheResultIsOnItsWay(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[int](l)
		var got int
		var seen error
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			got, seen = taskstep.Await(y, f)
			return got, seen
		})
		wstest.Turns(y, 3)
		f.SetResult(7)
		if !tk.Cancel() {
			t.Error("Cancel of a task whose future just completed returned false: it has not resumed yet")
			return nil
		}
		task.Await(y, tk)
		if !errors.Is(seen, future.ErrCancelled) || !tk.Cancelled() {
			t.Errorf("the Await returned %v, %v and the task cancelled %v; want the cancellation, true", got, seen, tk.Cancelled())
		}
		return nil
	})
}

// A task that cancels itself (or is cancelled by what it calls) while its
// body runs is told at its next Await, by cancelling the awaited future.
func TestATaskThatCancelsItselfStopsAtItsNextAwait(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[int](l) // nobody will complete it
		var tk *taskstep.Task[int]
		var seen error
		tk = taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			if !tk.Cancel() {
				return 0, errors.New("Cancel returned false while the body ran")
			}
			_, seen = taskstep.Await(y, f)
			return 0, seen
		})
		task.Await(y, tk)
		if !errors.Is(seen, future.ErrCancelled) || !f.Cancelled() || !tk.Cancelled() {
			t.Errorf("the next Await returned %v; its future cancelled %v; task cancelled %v; want ErrCancelled, true, true",
				seen, f.Cancelled(), tk.Cancelled())
		}
		return nil
	})
}

// A cancellation is delivered once. The body handles the one that came
// while its result was on its way, and awaits something else: that Await
// must wait and return its own result, not a second cancellation.
func TestACancellationIsDeliveredOnce(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f, g := future.New[int](l), future.New[int](l)
		tk := taskstep.Spawn(l, func(y taskstep.Yield) (int, error) {
			if _, err := taskstep.Await(y, f); !errors.Is(err, future.ErrCancelled) {
				return 0, errors.New("the first Await was not cancelled")
			}
			return taskstep.Await(y, g)
		})
		wstest.Turns(y, 3)
		f.SetResult(1)
		tk.Cancel()
		wstest.Turns(y, 3)
		if tk.Done() || g.Cancelled() {
			_, err := tk.Result()
			t.Errorf("after one Cancel, handled: task done %v (%v), second future cancelled %v; want false, false",
				tk.Done(), err, g.Cancelled())
			return nil
		}
		g.SetResult(2)
		if v, err := task.Await[int](y, tk); v != 2 || err != nil {
			t.Errorf("the task's result is %v, %v; want 2, nil", v, err)
		}
		return nil
	})
}
