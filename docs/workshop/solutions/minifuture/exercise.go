//go:build solution

package minifuture

import "fmt"

// Future is a result that arrives later. Its callbacks always run on the
// loop, scheduled, never inside the call that completed the future: a
// caller of SetResult never finds its own state changed under it by a
// callback, and a callback added late is not lost.
type Future[T any] struct {
	sched     Scheduler
	state     state
	value     T
	err       error
	callbacks []func(*Future[T])
}

type state uint8

const (
	pending state = iota
	finished
	cancelled
)

// New returns a pending future whose callbacks run on s.
func New[T any](s Scheduler) *Future[T] { return &Future[T]{sched: s} }

// Done reports whether the future has a value, an error, or was cancelled.
func (f *Future[T]) Done() bool { return f.state != pending }

// Cancelled reports whether the future was cancelled.
func (f *Future[T]) Cancelled() bool { return f.state == cancelled }

// Result returns the value and the error; ErrNotDone while pending.
func (f *Future[T]) Result() (T, error) {
	if f.state == pending {
		var zero T
		return zero, ErrNotDone
	}
	return f.value, f.err
}

// SetResult completes the future with v.
func (f *Future[T]) SetResult(v T) { f.complete(finished, v, nil) }

// SetError completes the future with err.
func (f *Future[T]) SetError(err error) {
	var zero T
	f.complete(finished, zero, err)
}

// Cancel completes a pending future with ErrCancelled and reports whether
// it did; a future already done is left alone.
func (f *Future[T]) Cancel() bool {
	if f.state != pending {
		return false
	}
	var zero T
	f.complete(cancelled, zero, ErrCancelled)
	return true
}

// complete is the one place a future is completed. A second completion
// is a bug (two parties both think they own the outcome), and keeping
// either answer silently would hide it.
func (f *Future[T]) complete(s state, v T, err error) {
	if f.state != pending {
		panic(fmt.Sprintf("minifuture: completed twice (it was already done, state %d)", f.state))
	}
	f.state, f.value, f.err = s, v, err
	for _, fn := range f.callbacks {
		f.schedule(fn)
	}
	f.callbacks = nil // each runs once; let their closures go
}

// AddDoneCallback arranges for fn(f) to run on the loop once f is done.
// On a future already done it is scheduled now: still not inline.
func (f *Future[T]) AddDoneCallback(fn func(*Future[T])) {
	if f.state != pending {
		f.schedule(fn)
		return
	}
	f.callbacks = append(f.callbacks, fn)
}

func (f *Future[T]) schedule(fn func(*Future[T])) {
	f.sched.CallSoon(func() { fn(f) })
}
