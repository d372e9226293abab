// Package timeout is workshop exercise 7: a deadline for any future, made
// of a loop timer and cancellation. README.md says what to build;
// exercise.go is yours to edit.
package timeout

import (
	"errors"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// ErrTimeout is the output's error when d passed before f completed.
var ErrTimeout = errors.New("timeout: deadline passed")

// Clock is all WithTimeout needs from the loop, and *loop.Loop has it:
// CallSoon, which futures schedule their callbacks with, and CallLater.
// Asking for an interface instead of the loop is what lets the tests see
// every timer you set, and find one left armed.
type Clock interface {
	future.Scheduler
	CallLater(d time.Duration, fn func()) *loop.Timer
}

var _ Clock = (*loop.Loop)(nil)
