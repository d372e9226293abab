//go:build workshop

package timeout_test

import (
	"errors"
	"testing"
	"time"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/timeout"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// The tests never bet on speed: a deadline is either an hour (it cannot
// pass during a test) or a millisecond with nothing to race it.

// clock is the loop, with a record of every timer set (wstest.Clock).
type clock = wstest.Clock

// noTimerLeft fails the test if a timer outlived the request. An hour-long
// timer left armed keeps its closure, and f, alive for an hour; a crawler
// that did that per request would fill the loop's heap. (Setting no timer
// at all is fine where f was done from the start: there is nothing to
// time.)
func noTimerLeft(t *testing.T, c *clock, y task.Yield) {
	t.Helper()
	wstest.Turns(y, 2) // let done callbacks run
	if n := c.Armed(); n > 0 {
		t.Errorf("%d timer(s) still armed after the outcome: cancel the timer once it cannot matter", n)
	}
}

func TestResultInTimeIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		out := timeout.WithTimeout(c, f, time.Hour)
		l.CallSoon(func() { f.SetResult("in time") })
		v, err := task.Await(y, out)
		if v != "in time" || err != nil {
			t.Errorf("WithTimeout = %q, %v; want %q, nil", v, err, "in time")
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

func TestErrorInTimeIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		boom := errors.New("boom")
		out := timeout.WithTimeout(c, f, time.Hour)
		l.CallSoon(func() { f.SetError(boom) })
		if _, err := task.Await(y, out); err != boom {
			t.Errorf("WithTimeout failed with %v, want f's own error", err)
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

func TestDeadlinePassesAndCancelsF(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l) // never completed by anyone
		_, err := task.Await(y, timeout.WithTimeout(c, f, time.Millisecond))
		if len(c.Timers) == 0 {
			t.Error("WithTimeout set no timer with CallLater: how did it know the deadline had passed?")
		}
		if !errors.Is(err, timeout.ErrTimeout) {
			t.Errorf("WithTimeout failed with %v, want ErrTimeout", err)
		}
		if !f.Cancelled() {
			t.Error("f is still pending after the deadline: nobody will ever use its result")
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

func TestAlreadyDoneFutureIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		f.SetResult("early")
		out := timeout.WithTimeout(c, f, time.Hour)
		v, err := task.Await(y, out)
		if v != "early" || err != nil {
			t.Errorf("WithTimeout = %q, %v; want %q, nil", v, err, "early")
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

func TestCancellingTheOutputCancelsF(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		out := timeout.WithTimeout(c, f, time.Hour)
		wstest.Turns(y, 1)
		if !out.Cancel() {
			t.Error("the output could not be cancelled: it was already done")
			return nil
		}
		wstest.Turns(y, 2)
		if !f.Cancelled() {
			t.Error("f is still pending after its only consumer cancelled")
		}
		if _, err := out.Result(); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("the output's error is %v, want the cancellation", err)
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

// A short deadline that passes after f has won must change nothing: the
// output keeps f's value (the wstest guard fails the test if anything
// completes it a second time).
func TestLateDeadlineChangesNothing(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[int](l)
		out := timeout.WithTimeout(c, f, time.Millisecond)
		f.SetResult(7)
		task.Sleep(y, 10*time.Millisecond) // past the deadline
		if v, err := out.Result(); v != 7 || err != nil {
			t.Errorf("after the deadline passed, the output is %v, %v; want 7, nil", v, err)
		}
		if f.Cancelled() {
			t.Error("f was cancelled after it had already won")
		}
		return nil
	})
}

// Somebody else cancels f — the request it stood for was abandoned. That
// is not a timeout: no deadline passed, and a crawler that counted it as
// one would slow down a host that did nothing wrong.
func TestAThirdPartysCancelIsNotATimeout(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		out := timeout.WithTimeout(c, f, time.Hour)
		l.CallSoon(func() { f.Cancel() })
		_, err := task.Await(y, out)
		if errors.Is(err, timeout.ErrTimeout) || !errors.Is(err, future.ErrCancelled) {
			t.Errorf("f was cancelled by someone else, and the output failed with %v; want f's own error, matching future.ErrCancelled", err)
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

// In one callback f completes and the owner cancels the output: both of
// f's done callback and the owner's cancellation want to complete the
// output. The first decides; the second must complete nothing again (the
// wstest guard fails the test if anything panics with "completed twice").
func TestOwnerCancelsInTheTurnFCompletes(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		out := timeout.WithTimeout(c, f, time.Hour)
		wstest.Turns(y, 1)
		l.CallSoon(func() {
			f.SetResult("too late")
			out.Cancel()
		})
		wstest.Turns(y, 3)
		if _, err := out.Result(); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("the output's error is %v, want the owner's cancellation", err)
		}
		noTimerLeft(t, c, y)
		return nil
	})
}

// The owner cancels the output in the very turn the deadline passes, just
// before the timer's callback runs: the timer must find the output done,
// and leave it alone.
func TestOwnerCancelsInTheTurnTheDeadlinePasses(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		f := future.New[string](l)
		var out *future.Future[string]
		c.BeforeFire = func() { out.Cancel() }
		out = timeout.WithTimeout(c, f, time.Millisecond)
		task.Sleep(y, 10*time.Millisecond) // past the deadline
		wstest.Turns(y, 2)
		if _, err := out.Result(); errors.Is(err, timeout.ErrTimeout) || !errors.Is(err, future.ErrCancelled) {
			t.Errorf("the output's error is %v, want the owner's cancellation, which came first", err)
		}
		if !f.Cancelled() {
			t.Error("f is still pending after its only consumer cancelled")
		}
		return nil
	})
}
