package timeout

import (
	"errors"
	"time"

	"loopkit/future"
)

// WithTimeout returns a future that completes like f if f completes within
// d, and otherwise fails with ErrTimeout and cancels f. Whichever way it
// ends, no timer is left armed.
func WithTimeout[T any](c Clock, f *future.Future[T], d time.Duration) *future.Future[T] {
	out := future.New[T](c)
	// TODO: arm a timer with c.CallLater, add a done callback to f, and
	// make whichever comes first complete out and stop the other. Cancel f
	// (and the timer) when out is cancelled.
	out.SetError(errors.New("timeout: WithTimeout is not written yet"))
	return out
}
