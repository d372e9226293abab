//go:build solution

package timeout

import (
	"time"

	"loopkit/future"
)

// WithTimeout returns a future that completes like f if f completes within
// d, and otherwise fails with ErrTimeout and cancels f. Whichever way it
// ends, no timer is left armed.
func WithTimeout[T any](c Clock, f *future.Future[T], d time.Duration) *future.Future[T] {
	out := future.New[T](c)
	timer := c.CallLater(d, func() {
		if !out.Done() {
			out.SetError(ErrTimeout)
			f.Cancel() // its done callback runs next, and finds out done
		}
	})
	f.AddDoneCallback(func(f *future.Future[T]) {
		// f won, or was cancelled by the timer or by out's owner: in every
		// case the timer has nothing left to do. Left armed, it would keep
		// its closure, and f with it, alive until the deadline.
		timer.Cancel()
		if out.Done() {
			return
		}
		v, err := f.Result()
		if err != nil {
			out.SetError(err) // a cancelled f gives an error matching ErrCancelled
			return
		}
		out.SetResult(v)
	})
	out.OnDone(func() {
		if out.Cancelled() {
			timer.Cancel()
			f.Cancel()
		}
	})
	return out
}
