//go:build solution

package countdown

import (
	"loopkit/future"
	"loopkit/loop"
)

// All returns a future of the values of fs, in the order of fs: see the
// package comment for the rules.
func All[T any](l *loop.Loop, fs ...*future.Future[T]) *future.Future[[]T] {
	out := future.New[[]T](l)
	values := make([]T, len(fs))
	if len(fs) == 0 {
		out.SetResult(values) // no callback would ever complete it
		return out
	}
	remaining := len(fs)
	for i, f := range fs {
		f.AddDoneCallback(func(f *future.Future[T]) {
			// out may be done already: an earlier input failed, or the
			// caller cancelled it. Completing it again would panic.
			if out.Done() {
				return
			}
			v, err := f.Result()
			if err != nil {
				out.SetError(err)
				return
			}
			values[i] = v // by index: completion order is not input order
			if remaining--; remaining == 0 {
				out.SetResult(values)
			}
		})
	}
	out.OnDone(func() {
		if out.Cancelled() {
			for _, f := range fs {
				f.Cancel() // does nothing to those already done
			}
		}
	})
	return out
}
