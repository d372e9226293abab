// Package handback is a workshop warm-up: run a function off the loop,
// and hand its result back to the loop. README.md says what to build;
// exercise.go is yours to edit.
package handback

import (
	"loopkit/future"
	"loopkit/loop"
)

// Loop is what Offload needs of the loop, and *loop.Loop has it: CallSoon
// (futures schedule their callbacks with it: the loop's goroutine only)
// and CallSoonThreadsafe (any goroutine). The tests pass the loop
// wrapped, to see from where each is called.
type Loop interface {
	future.Scheduler
	CallSoonThreadsafe(fn func()) error
}

var _ Loop = (*loop.Loop)(nil)
