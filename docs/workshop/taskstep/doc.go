// Package taskstep is workshop exercise 9: Task.step, the heart of the
// 500-lines chapter, on iter.Pull. README.md says what to build;
// exercise.go is yours to edit. This file holds the rest of the Task,
// which you need and need not change.
package taskstep

import (
	"errors"

	"loopkit/future"
	"loopkit/loop"
)

// Task is a coroutine driven by the loop, and a future of its result.
type Task[T any] struct {
	loop   *loop.Loop
	body   func(Yield) (T, error)
	result *future.Future[T]

	// next resumes the body until its next Await, and returns the future
	// the body waits for — or false once the body has returned. stop ends
	// the coroutine. iter.Pull(t.run) makes both.
	//lint:ignore U1000 step, which you write, uses it
	next func() (future.Waitable, bool)
	stop func()

	//lint:ignore U1000 step and Cancel, which you write, use it
	waiting       future.Waitable // what the body awaits now; nil while it runs
	cancelPending bool            // Cancel could not reach an Await yet
	//lint:ignore U1000 step, which you write, sets it
	resumeErr error // what the pending Await returns instead of its future's result

	value T // the body's outcome, once it has returned
	err   error
}

// Yield is the body's handle on its coroutine: pass it to Await.
type Yield struct {
	yield     func(future.Waitable) bool
	resumeErr *error
}

// Spawn starts body as a task on l. The body starts on the loop's next
// turn: Spawn only schedules step.
func Spawn[T any](l *loop.Loop, body func(y Yield) (T, error)) *Task[T] {
	t := &Task[T]{loop: l, body: body, result: future.New[T](l)}
	l.CallSoon(t.step)
	return t
}

// Await suspends the body until f is done and returns f's result. If f is
// done already it returns at once. If step resumes the body with a
// resumeErr (a cancellation), Await returns that instead.
func Await[T any](y Yield, f future.Awaitable[T]) (T, error) {
	if !f.Done() {
		if !y.yield(f) { // the coroutine is being stopped
			panic(errStopped)
		}
		if err := *y.resumeErr; err != nil {
			*y.resumeErr = nil
			var zero T
			return zero, err
		}
	}
	return f.Result()
}

var errStopped = errors.New("taskstep: coroutine stopped")

// run is the coroutine's function, for iter.Pull: it runs the body and
// keeps its outcome. Each yield hands a future to step.
//
//lint:ignore U1000 step, which you write, gives it to iter.Pull
func (t *Task[T]) run(yield func(future.Waitable) bool) {
	defer func() {
		if p := recover(); p != nil && p != errStopped {
			panic(p)
		}
	}()
	t.value, t.err = t.body(Yield{yield: yield, resumeErr: &t.resumeErr})
}

// finish completes the task's future with the body's outcome. A body
// that returns a cancellation, or returns while a Cancel is still pending,
// leaves its task cancelled (asyncio's rule).
func (t *Task[T]) finish() {
	if t.stop != nil {
		t.stop()
	}
	switch {
	case errors.Is(t.err, future.ErrCancelled), t.err == nil && t.cancelPending:
		t.result.Cancel()
	case t.err != nil:
		t.result.SetError(t.err)
	default:
		t.result.SetResult(t.value)
	}
}

// Done, Result, OnDone: a Task is a future, so tasks can await tasks.
func (t *Task[T]) Done() bool         { return t.result.Done() }
func (t *Task[T]) Cancelled() bool    { return t.result.Cancelled() }
func (t *Task[T]) Result() (T, error) { return t.result.Result() }
func (t *Task[T]) OnDone(fn func())   { t.result.OnDone(fn) }

var _ future.Awaitable[int] = (*Task[int])(nil)
