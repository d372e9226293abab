package task

import (
	"loopkit/future"
)

// Outcome is one child's result in Gather: a value or an error.
type Outcome[T any] struct {
	Value T
	Err   error
}

// Gather waits for all of fs and returns each one's outcome, in order:
// errors are results, so one failure loses nothing else (asyncio's
// gather(..., return_exceptions=True)). The error is non-nil only if the
// gathering task itself was cancelled; then every child is cancelled, and
// Gather returns after all of them have finished.
func Gather[T any](y Yield, fs ...future.Awaitable[T]) ([]Outcome[T], error) {
	err := waitAll(y, fs)
	if err != nil {
		for _, f := range fs {
			f.Cancel()
		}
		waitAllShielded(y, fs)
	}
	out := make([]Outcome[T], len(fs))
	for i, f := range fs {
		out[i].Value, out[i].Err = f.Result()
	}
	return out, err
}

// GatherFailFast waits for all of fs and returns their values in order, or
// the first error: then it cancels the children still running and returns
// only once they have all finished, so nothing outlives the call.
func GatherFailFast[T any](y Yield, fs ...future.Awaitable[T]) ([]T, error) {
	l := y.Loop()
	failed := future.New[struct{}](l)
	var first error
	remaining := len(fs)
	for _, f := range fs {
		f.OnDone(func() {
			remaining--
			if _, err := f.Result(); err != nil && first == nil {
				first = err
			}
			if (first != nil || remaining == 0) && !failed.Done() {
				failed.SetResult(struct{}{})
			}
		})
	}
	if remaining > 0 {
		if _, err := Await(y, failed); err != nil && first == nil {
			first = err // we were cancelled
		}
	}
	if first != nil {
		for _, f := range fs {
			f.Cancel()
		}
		waitAllShielded(y, fs)
		return nil, first
	}
	values := make([]T, len(fs))
	for i, f := range fs {
		values[i], _ = f.Result()
	}
	return values, nil
}

// waitAll suspends until every f is done; it returns an error only if the
// waiting task is cancelled.
func waitAll[T any](y Yield, fs []future.Awaitable[T]) error {
	all := future.New[struct{}](y.Loop())
	remaining := len(fs)
	if remaining == 0 {
		return nil
	}
	for _, f := range fs {
		f.OnDone(func() {
			if remaining--; remaining == 0 && !all.Done() {
				all.SetResult(struct{}{})
			}
		})
	}
	_, err := Await(y, all)
	return err
}

// waitAllShielded waits until every f is done, even if the waiting task is
// cancelled again meanwhile: cleanup that is cut short leaks the very work
// it was meant to stop.
func waitAllShielded[T any](y Yield, fs []future.Awaitable[T]) {
	for _, f := range fs {
		waitShielded(y, f)
	}
}

// waitShielded suspends until w is done, ignoring cancellation of the
// waiting task. Each round waits on a fresh future, because a cancelled one
// would wake us at once forever.
func waitShielded(y Yield, w future.Waitable) {
	for !w.Done() {
		f := future.New[struct{}](y.Loop())
		w.OnDone(func() {
			if !f.Done() {
				f.SetResult(struct{}{})
			}
		})
		y.suspend(f)
	}
}
