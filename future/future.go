// Package future is the second layer of loopkit, above netpoll and below
// loop: a Future is a result that arrives later. It is the 500-lines
// chapter's Future (result, callbacks, set_result) with errors and
// cancellation added.
//
// A Future belongs to one event loop and, like everything on that loop, is
// used only from the loop's goroutine: it has no locks. The loop reaches it
// through the small Scheduler interface, which is all a Future needs from
// the loop (this package cannot import loop, which sits above it).
//
// Callbacks are never run inline. SetResult schedules them with CallSoon,
// and so does AddDoneCallback on a future that is already done. The original
// chapter's footnote admits its Future forgets the second case: a coroutine
// that waits on an already resolved future is never resumed. Scheduling in
// both cases fixes that and gives one rule a reader can rely on: a callback
// never runs inside the call that triggered it.
package future

import (
	"errors"
	"fmt"
)

// Scheduler runs a function later, on the loop's goroutine. *loop.Loop
// implements it.
type Scheduler interface {
	CallSoon(fn func())
}

// Runner is a callback that carries its own state: the scheduler calls
// Run. Scheduling a pointer allocates nothing, where a closure made to
// carry the same state would be an allocation each time.
type Runner interface {
	Run()
}

// RunnerScheduler is a Scheduler that can also schedule a Runner, as
// *loop.Loop can. A future on one schedules itself to run its callbacks:
// no closure per callback. On any other Scheduler it wraps each callback
// in a closure for CallSoon, and behaves the same.
type RunnerScheduler interface {
	Scheduler
	Schedule(r Runner)
}

// ErrCancelled is the error of a cancelled future, and what a task sees from
// an Await that was cancelled. Test for it with errors.Is.
var ErrCancelled = errors.New("cancelled")

// ErrNotDone is returned by Result while the future is still pending.
var ErrNotDone = errors.New("future: result is not ready yet")

type state uint8

const (
	pending state = iota
	finished
	cancelled
)

func (s state) String() string {
	return [...]string{"pending", "finished", "cancelled"}[s]
}

// Future holds a value of type T, or an error, that will be set later.
type Future[T any] struct {
	sched Scheduler
	value T
	err   error
	// The callbacks, in the order they were added. Most futures have one
	// or two (the caller waiting for a reply, the connection watching for
	// a cancel), and those are kept in fields: only a third needs the
	// slice, and its allocation. Callbacks are run in order, one each
	// time the future's runner is called, so ran counts those that have.
	first, second callback[T]
	more          []callback[T]
	added, ran    int32
	state         state // last, beside the counts: the struct packs into 112 bytes, not 128
}

// callback is one done callback: AddDoneCallback's, which wants the
// future, or OnDone's, which does not. Keeping both forms as they came
// means neither is wrapped in a closure to look like the other.
type callback[T any] struct {
	withFuture func(*Future[T])
	plain      func()
}

// New returns a pending future whose callbacks run on s.
func New[T any](s Scheduler) *Future[T] {
	return &Future[T]{sched: s}
}

// Init makes f, a Future that is a field of a larger struct, a pending
// future whose callbacks run on s; call it before anything else. New is
// Init for a future of its own. A future kept inside the record of the
// work it stands for (a request, a task) costs no allocation of its own:
// the record's is enough.
func (f *Future[T]) Init(s Scheduler) {
	*f = Future[T]{sched: s}
}

// Done reports whether the future has a result, an error, or was cancelled.
func (f *Future[T]) Done() bool { return f.state != pending }

// Settled reports whether f is done and every callback added to it has
// run: nothing in the loop's ready queue points at f any more, and no
// callback of f's will be called again. Only then may the record f lives
// in be handed to new work (a free list, as crawler/http1's Reply.Release
// does); before, a callback still to run would see the new work.
func (f *Future[T]) Settled() bool { return f.state != pending && f.added == 0 }

// Cancelled reports whether the future was cancelled.
func (f *Future[T]) Cancelled() bool { return f.state == cancelled }

// Result returns the value and error. While pending it returns ErrNotDone;
// after Cancel, an error that matches ErrCancelled.
func (f *Future[T]) Result() (T, error) {
	if f.state == pending {
		var zero T
		return zero, ErrNotDone
	}
	return f.value, f.err
}

// Err returns the error alone (nil on success, ErrNotDone while pending).
func (f *Future[T]) Err() error {
	_, err := f.Result()
	return err
}

// SetResult completes the future with v and schedules its callbacks.
// Completing a future twice is a programming error and panics, as asyncio
// raises InvalidStateError: two parties both believe they own the outcome,
// and silently keeping either answer would hide the bug. A producer whose
// future may have been cancelled by its consumer checks Done first.
func (f *Future[T]) SetResult(v T) {
	f.complete(finished, v, nil)
}

// SetError completes the future with err (which must not be nil).
func (f *Future[T]) SetError(err error) {
	if err == nil {
		panic("future: SetError(nil); use SetResult for success")
	}
	var zero T
	f.complete(finished, zero, err)
}

// Cancel completes a pending future with ErrCancelled and reports whether
// it did; a future that is already done is left alone.
func (f *Future[T]) Cancel() bool {
	if f.state != pending {
		return false
	}
	var zero T
	f.complete(cancelled, zero, ErrCancelled)
	return true
}

func (f *Future[T]) complete(s state, v T, err error) {
	if f.state != pending {
		panic(fmt.Sprintf("future: completed twice (it was already %v)", f.state))
	}
	f.state, f.value, f.err = s, v, err
	for range f.added {
		f.schedule()
	}
}

// AddDoneCallback arranges for fn(f) to run on the loop once f is done. If
// f is already done, fn is scheduled at once; it still never runs inline.
func (f *Future[T]) AddDoneCallback(fn func(*Future[T])) {
	f.add(callback[T]{withFuture: fn})
}

// OnDone is AddDoneCallback without the argument: the form Waitable needs,
// so that tasks and Gather can wait on futures of any result type.
func (f *Future[T]) OnDone(fn func()) {
	f.add(callback[T]{plain: fn})
}

func (f *Future[T]) add(cb callback[T]) {
	switch f.added {
	case 0:
		f.first = cb
	case 1:
		f.second = cb
	default:
		f.more = append(f.more, cb)
	}
	f.added++
	if f.state != pending {
		f.schedule()
	}
}

// schedule asks the loop to run the next callback. What goes in the
// ready queue is the future itself, seen as a Runner (runner below):
// a pointer, where a closure binding the callback to the future would
// be one allocation per callback. The k-th time the runner is called,
// it runs the k-th callback, so callbacks keep the order they were
// added in, each is a callback of its own for the loop (timed, and its
// panic caught, on its own), and one added to a done future after
// others still runs after them.
func (f *Future[T]) schedule() {
	if rs, ok := f.sched.(RunnerScheduler); ok {
		rs.Schedule((*runner[T])(f))
		return
	}
	f.sched.CallSoon(f.runNext)
}

// runner is Future seen from the loop: the same struct, under a type
// whose Run method runs the next callback. A conversion between the two
// pointer types costs nothing, and keeps Run out of Future's own API.
type runner[T any] Future[T]

func (r *runner[T]) Run() { (*Future[T])(r).runNext() }

// CallbackFunc is the callback the next Run will run: an observed loop
// names its longest callback by it, rather than by the runner.
func (r *runner[T]) CallbackFunc() any {
	f := (*Future[T])(r)
	c := f.first
	switch {
	case f.ran == 1:
		c = f.second
	case f.ran > 1:
		c = f.more[f.ran-2]
	}
	if c.withFuture != nil {
		return c.withFuture
	}
	return c.plain
}

// runNext runs the next callback, forgetting it first: a callback that
// panics is not run again, and the closures that have run can be
// collected. Once every callback has run, the future lets go of them all.
func (f *Future[T]) runNext() {
	var cb *callback[T]
	switch f.ran {
	case 0:
		cb = &f.first
	case 1:
		cb = &f.second
	default:
		cb = &f.more[f.ran-2]
	}
	c := *cb
	*cb = callback[T]{}
	f.ran++
	if f.ran == f.added {
		f.more, f.added, f.ran = nil, 0, 0
	}
	if c.withFuture != nil {
		c.withFuture(f)
	} else {
		c.plain()
	}
}

// Waitable is anything a task can wait for, whatever its result type: a
// Future, or a Task (which is a Future too).
type Waitable interface {
	Done() bool
	OnDone(fn func())
	Cancel() bool
}

// Awaitable is a Waitable with a typed result.
type Awaitable[T any] interface {
	Waitable
	Result() (T, error)
}

var _ Awaitable[int] = (*Future[int])(nil)
