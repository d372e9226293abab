package task

import (
	"errors"
	"time"

	"loopkit/future"
)

// ErrTimeout is WaitFor's error when the time ran out.
var ErrTimeout = errors.New("task: timed out")

// WaitFor waits for f at most timeout. On timeout it cancels f and returns
// ErrTimeout — but only after f has finished cancelling, so that whatever
// f was doing (a connection, a lock) is cleaned up before the caller moves
// on. If the waiting task itself is cancelled, f is cancelled the same way.
func WaitFor[T any](y Yield, f future.Awaitable[T], timeout time.Duration) (T, error) {
	if f.Done() {
		return f.Result()
	}
	l := y.Loop()
	either := future.New[struct{}](l)
	wake := func() {
		if !either.Done() {
			either.SetResult(struct{}{})
		}
	}
	timer := l.CallLater(timeout, wake)
	f.OnDone(wake)
	_, err := Await(y, either)
	timer.Cancel()
	if err == nil && f.Done() {
		return f.Result()
	}
	if err == nil {
		err = ErrTimeout
	}
	f.Cancel()
	waitShielded(y, f)
	var zero T
	return zero, err
}
