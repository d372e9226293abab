//go:build !solution

package timeout

import (
	"errors"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// WithTimeout returns a future that completes like f if f completes within
// d, and otherwise fails with ErrTimeout and cancels f.
func WithTimeout[T any](l *loop.Loop, f *future.Future[T], d time.Duration) *future.Future[T] {
	out := future.New[T](l)
	// TODO: arm a timer with l.CallLater, add a done callback to f, and
	// make whichever comes first complete out and stop the other. Cancel f
	// when out is cancelled.
	out.SetError(errors.New("timeout: WithTimeout is not written yet"))
	return out
}
