//go:build workshop

package sleep_test

import (
	"errors"
	"testing"
	"time"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/sleep"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// clock is the loop, with a record of every timer set (wstest.Clock).
type clock = wstest.Clock

// The loop's clock says the time went by: no stopwatch, no bet on speed.
func TestSleepReturnsOnceTheTimeHasPassed(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		start := l.Time()
		if err := sleep.Sleep(y, c, 5*time.Millisecond); err != nil {
			t.Errorf("Sleep returned %v; want nil", err)
			return nil
		}
		if slept := l.Time() - start; slept < 5*time.Millisecond || len(c.Timers) != 1 {
			t.Errorf("Sleep(5ms) returned after %v on the loop's clock, with %d timers set; want 5ms or more, and one timer", slept, len(c.Timers))
		}
		return nil
	})
}

func TestACancelledSleepCancelsItsTimer(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		sleeper := task.Spawn(l, func(y task.Yield) (struct{}, error) {
			return struct{}{}, sleep.Sleep(y, c, time.Hour)
		})
		wstest.Turns(y, 2)
		sleeper.Cancel()
		task.Await(y, sleeper)
		if err := sleeper.Err(); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("the cancelled sleep returned %v; want the cancellation error", err)
		}
		if n := c.Armed(); n != 0 {
			t.Errorf("%d timer(s) of an hour still armed after the sleep was cancelled; want 0", n)
		}
		return nil
	})
}

// The task is cancelled in the turn its timer fires, just before the
// timer's callback runs: the future the task awaited is done (cancelled),
// and completing it again panics (wstest fails the test).
func TestCancelledInTheTurnTheTimerFires(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		var sleeper *task.Task[struct{}]
		c.BeforeFire = func() { sleeper.Cancel() }
		sleeper = task.Spawn(l, func(y task.Yield) (struct{}, error) {
			return struct{}{}, sleep.Sleep(y, c, time.Millisecond)
		})
		task.Await(y, sleeper)
		wstest.Turns(y, 2)
		if err := sleeper.Err(); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("the sleep cancelled as its timer fired returned %v; want the cancellation error", err)
		}
		return nil
	})
}
