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

// The tests never bet on speed: a deadline is either an hour (it never
// passes) or a millisecond with nothing to race it; and "afterwards" is a
// sleep longer than d, which the loop's timer heap always fires later.

func TestResultInTimeIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[string](l)
		out := timeout.WithTimeout(l, f, 5*time.Millisecond)
		l.CallSoon(func() { f.SetResult("in time") })
		v, err := task.Await(y, out)
		if v != "in time" || err != nil {
			t.Errorf("WithTimeout = %q, %v; want %q, nil", v, err, "in time")
		}
		// Let the deadline pass: a timer that was not cancelled fires now,
		// and completing out a second time fails the test.
		task.Sleep(y, 20*time.Millisecond)
		return nil
	})
}

func TestErrorInTimeIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[string](l)
		boom := errors.New("boom")
		out := timeout.WithTimeout(l, f, time.Hour)
		l.CallSoon(func() { f.SetError(boom) })
		if _, err := task.Await(y, out); err != boom {
			t.Errorf("WithTimeout failed with %v, want f's own error", err)
		}
		return nil
	})
}

func TestDeadlinePassesAndCancelsF(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[string](l) // never completed by anyone
		_, err := task.Await(y, timeout.WithTimeout(l, f, time.Millisecond))
		if !errors.Is(err, timeout.ErrTimeout) {
			t.Errorf("WithTimeout failed with %v, want ErrTimeout", err)
		}
		if !f.Cancelled() {
			t.Error("f is still pending after the deadline: nobody will ever use its result")
		}
		return nil
	})
}

func TestAlreadyDoneFutureIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[string](l)
		f.SetResult("early")
		out := timeout.WithTimeout(l, f, time.Millisecond)
		v, err := task.Await(y, out)
		if v != "early" || err != nil {
			t.Errorf("WithTimeout = %q, %v; want %q, nil", v, err, "early")
		}
		task.Sleep(y, 10*time.Millisecond) // past the deadline: nothing may happen
		return nil
	})
}

func TestCancellingTheOutputCancelsF(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		f := future.New[string](l)
		out := timeout.WithTimeout(l, f, 5*time.Millisecond)
		wstest.Turns(y, 1)
		if !out.Cancel() {
			t.Error("the output could not be cancelled: it was already done")
			return nil
		}
		task.Sleep(y, 20*time.Millisecond) // a timer left armed would fire now
		if !f.Cancelled() {
			t.Error("f is still pending after its only consumer cancelled")
		}
		if _, err := out.Result(); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("the output's error is %v, want the cancellation", err)
		}
		return nil
	})
}
