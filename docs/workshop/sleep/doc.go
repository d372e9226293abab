// Package sleep is a workshop warm-up: a task's Sleep. README.md says
// what to build; exercise.go is yours to edit.
package sleep

import (
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// Clock is all Sleep needs from the loop, and *loop.Loop has it: CallSoon
// (future.New schedules callbacks with it) and CallLater. The tests pass
// the loop wrapped, to count the timers you set.
type Clock interface {
	future.Scheduler
	CallLater(d time.Duration, fn func()) *loop.Timer
}

var _ Clock = (*loop.Loop)(nil)
