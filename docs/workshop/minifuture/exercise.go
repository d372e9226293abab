package minifuture

// Future is a result that arrives later. As it stands it is the 500-lines
// chapter's Future, translated: SetResult runs the callbacks inline, and
// AddDoneCallback on a future that is already done forgets the callback
// for ever (the chapter's own footnote admits it). Fix it.
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
func (f *Future[T]) SetResult(v T) {
	// TODO: schedule the callbacks instead of running them here, and
	// panic if the future is already done.
	f.state, f.value = finished, v
	for _, fn := range f.callbacks {
		fn(f)
	}
}

// SetError completes the future with err.
func (f *Future[T]) SetError(err error) {
	// TODO: as SetResult.
	f.state, f.err = finished, err
	for _, fn := range f.callbacks {
		fn(f)
	}
}

// Cancel completes a pending future with ErrCancelled and reports whether
// it did; a future already done is left alone.
func (f *Future[T]) Cancel() bool {
	return false // TODO
}

// AddDoneCallback arranges for fn(f) to run on the loop once f is done.
func (f *Future[T]) AddDoneCallback(fn func(*Future[T])) {
	// TODO: what if f is done already?
	f.callbacks = append(f.callbacks, fn)
}
