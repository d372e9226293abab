package countdown

import (
	"errors"

	"loopkit/future"
	"loopkit/loop"
)

// All returns a future of the values of fs, in the order of fs: see the
// package comment for the rules.
func All[T any](l *loop.Loop, fs ...*future.Future[T]) *future.Future[[]T] {
	out := future.New[[]T](l)
	// TODO: add a done callback to every input that counts it down, keeps
	// its value, and completes out when the count reaches zero or an input
	// fails. Then make cancelling out cancel the inputs (out.OnDone).
	out.SetError(errors.New("countdown: All is not written yet"))
	return out
}
