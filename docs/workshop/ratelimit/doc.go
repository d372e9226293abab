// Package ratelimit is workshop exercise 10: a token bucket, as a task
// primitive like task.Semaphore. README.md says what to build; exercise.go
// is yours to edit.
package ratelimit

import (
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// Clock is what the bucket needs from the loop, and *loop.Loop has it:
// CallSoon for its futures and CallLater for the refill. The tests pass a
// Clock that counts the timers you set.
type Clock interface {
	future.Scheduler
	CallLater(d time.Duration, fn func()) *loop.Timer
}

var _ Clock = (*loop.Loop)(nil)
