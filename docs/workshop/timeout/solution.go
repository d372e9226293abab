//go:build solution

package timeout

import (
	"time"

	"loopkit/future"
	"loopkit/loop"
)

// WithTimeout returns a future that completes like f if f completes within
// d, and otherwise fails with ErrTimeout and cancels f.
func WithTimeout[T any](l *loop.Loop, f *future.Future[T], d time.Duration) *future.Future[T] {
	out := future.New[T](l)
	timer := l.CallLater(d, func() {
		if !out.Done() {
			out.SetError(ErrTimeout)
			f.Cancel()
		}
	})
	f.AddDoneCallback(func(f *future.Future[T]) {
		timer.Cancel()
		if out.Done() {
			return // the timer won, or out was cancelled
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
