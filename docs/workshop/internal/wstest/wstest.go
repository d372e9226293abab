// Package wstest is what the workshop's tests share: a fresh loop for each
// test, a task to write the test in, and two guards that turn the usual
// mistakes into failures instead of hangs or silent passes.
package wstest

import (
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

// HangGuard is how long a test body may run. Nothing in the workshop needs
// more than a fraction of it; it only stops a broken solution from hanging
// the test run. It is a guard, not an assertion about speed.
const HangGuard = 5 * time.Second

// Run runs body as a task on a fresh loop and waits for it. The test fails
// if body returns an error, if any callback panics (a future completed
// twice, say), or if body is still running after HangGuard.
//
// Inside body, report with t.Errorf and return: t.Fatal must not be called
// from a task, which runs on a coroutine, not on the test's goroutine.
func Run(t *testing.T, body func(l *loop.Loop, y task.Yield) error) {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.SetPanicHandler(func(p loop.PanicInfo) {
		t.Errorf("a callback panicked: %v\n%s", p.Value, p.Stack)
	})
	main := task.Spawn(l, func(y task.Yield) (struct{}, error) {
		return struct{}{}, body(l, y)
	})
	guard := l.CallLater(HangGuard, func() {
		t.Errorf("still running after %v: something waits for an event that never comes", HangGuard)
		l.Stop()
	})
	if err := l.RunUntilComplete(main); err != nil {
		t.Error(err)
		return
	}
	guard.Cancel()
	if err := main.Err(); err != nil {
		t.Error(err)
	}
}

// Turns gives the loop n turns, so that whatever is scheduled runs: the
// way a test says "and then, once everything has settled".
func Turns(y task.Yield, n int) {
	for range n {
		task.Pause(y)
	}
}

// Clock is a loop that keeps every timer set through its CallLater, for
// the exercises that take a clock instead of the loop: Armed finds a
// timer left armed. BeforeFire, if set, runs in a timer's own callback
// just before the exercise's: it plays what happens in the very turn the
// timer fires.
type Clock struct {
	*loop.Loop
	Timers     []*loop.Timer
	BeforeFire func()
}

// CallLater is the loop's, recorded.
func (c *Clock) CallLater(d time.Duration, fn func()) *loop.Timer {
	t := c.Loop.CallLater(d, func() {
		if c.BeforeFire != nil {
			c.BeforeFire()
		}
		fn()
	})
	c.Timers = append(c.Timers, t)
	return t
}

// Armed counts the timers still armed, and disarms them: Cancel reports
// true only for a timer that had neither fired nor been cancelled.
func (c *Clock) Armed() int {
	n := 0
	for _, t := range c.Timers {
		if t.Cancel() {
			n++
		}
	}
	return n
}
