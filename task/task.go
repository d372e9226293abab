// Package task is the fourth layer of loopkit, above loop and future: tasks
// are coroutines driven by the loop, and the asyncio primitives built on
// them (Sleep, Gather, WaitFor, Semaphore, Lock, Event, Queue).
//
// A task body is an ordinary Go function, func(y Yield) (T, error), that
// suspends itself with Await. It runs as an iter.Pull coroutine: a real
// goroutine that only ever runs while the loop's goroutine is switched into
// it, so exactly one of them runs at a time and the body may touch loop
// state freely. This is the 500-lines chapter's generator-based Task, with
// iter.Pull in place of Python's generators:
//
//   - Await(y, f) yields f out of the coroutine to the task's step method;
//   - step registers itself as f's done callback;
//   - when f completes, the loop runs step, which resumes the coroutine, and
//     Await returns f's result.
//
// A coroutine is not thrown away when its body returns: it parks, and the
// loop's next Spawn runs its body on it (worker.go). A task spawned per
// request so costs two allocations, not nine.
//
// The single-owner rule: only the loop's goroutine resumes coroutines. Spawn
// and Cancel must be called on the loop (from a callback or another task);
// from elsewhere, post them with CallSoonThreadsafe. The loop does not lock
// its OS thread, so nothing depends on which thread the coroutines run on.
//
// The honest cost: an iter.Pull coroutine has a goroutine stack (a few KiB,
// growing as needed), so a task per connection costs about what a goroutine
// per connection costs in memory. Only the callback style (futures and
// AddReader, as crawler/http1's connections use) avoids a stack per
// connection. What tasks save is the scheduler: switches are direct hand-offs
// between two goroutines, with no run queue and no OS thread involved.
package task

import (
	"errors"
	"fmt"
	"runtime/debug"

	"loopkit/future"
	"loopkit/loop"
)

// Task is a running coroutine, and a Future of its result: it can be
// awaited, gathered, given done callbacks and cancelled.
type Task[T any] struct {
	coro
	// The task's own future: a field, so that a task and its future are
	// one allocation.
	result future.Future[T]
	body   func(Yield) (T, error)
	value  T
	err    error
	// wakeupFn is the method value t.wakeup, made once: step hands it to
	// every future the body awaits, and a method value made there would
	// be a closure, an allocation, on every Await.
	wakeupFn func()
}

// coro is the part of a task that does not depend on its result type, so
// that Yield can point at it.
type coro struct {
	loop *loop.Loop
	// w is the coroutine the body runs on, from the loop's pool of
	// parked ones (worker.go), from its first step to its end.
	w       *worker
	pool    *pool
	waiting future.Waitable // what the body awaits now (asyncio's _fut_waiter)
	// cancelPending: Cancel was called and the body has not been told
	// yet (asyncio's _must_cancel). step tells it at the next resume.
	cancelPending bool
	resumeErr     error // what the pending Await returns instead of its result
}

// PanicError is the error of a task whose body panicked. Stack is the
// body's own stack at the panic: iter.Pull would re-panic in the loop's
// goroutine and lose it.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("task: body panicked: %v\n%s", e.Value, e.Stack)
}

// errStopped unwinds a body whose loop closed; see Yield.suspend.
var errStopped = errors.New("task: stopped because its loop closed")

// ErrAwaitCycle is what Await returns at once, without waiting, when a task
// would await itself, or a task that is (through others) awaiting it: it
// would wait for ever. asyncio raises "Task cannot await on itself".
var ErrAwaitCycle = errors.New("task: a task cannot await itself, or a task that awaits it")

// Spawn starts body as a task on l. The body starts on the loop's next
// turn, not inside Spawn.
func Spawn[T any](l *loop.Loop, body func(y Yield) (T, error)) *Task[T] {
	t := &Task[T]{coro: coro{loop: l}, body: body}
	t.result.Init(l)
	t.wakeupFn = t.wakeup
	l.AddCloser((*closer[T])(t))
	l.CallSoon(t.wakeupFn)
	return t
}

// closer is a task as the loop's Close sees it: Run stops it. Registered
// as itself, a pointer, it costs no closure (see loop.AddCloser).
type closer[T any] Task[T]

func (c *closer[T]) Run() { (*Task[T])(c).stopOnClose() }

// Run spawns body on l, runs the loop until it finishes, and returns its
// result: the chapter's loop.run_until_complete(crawler.crawl()).
func Run[T any](l *loop.Loop, body func(y Yield) (T, error)) (T, error) {
	t := Spawn(l, body)
	if err := l.RunUntilComplete(t); err != nil {
		var zero T
		return zero, err
	}
	return t.Result()
}

// step runs the body until its next Await or its end: the chapter's
// Task.step. It is always called by the loop, as a callback.
func (t *Task[T]) step() {
	if t.result.Done() {
		return
	}
	if t.w == nil {
		if t.cancelPending { // cancelled before it ever ran
			t.finish(*new(T), future.ErrCancelled)
			return
		}
		t.pool = poolOf(t.loop)
		t.w = t.pool.take()
		t.w.job = t
	}
	if t.cancelPending {
		t.cancelPending = false
		t.resumeErr = future.ErrCancelled
	}
	w, running := t.w.next()
	if !running || w == nil { // nil: the body returned, and its worker is parked
		t.finish(t.value, t.err)
		return
	}
	if t.wouldCycle(w) {
		// Refuse rather than wait for ever, and resume on the next turn,
		// as asyncio does, not inside this one.
		t.resumeErr = ErrAwaitCycle
		t.loop.CallSoon(t.wakeupFn)
		return
	}
	if t.cancelPending && w.Cancel() {
		// Cancel came while the body ran: it reaches this Await now, by
		// cancelling what it awaits (asyncio's __step does the same), not
		// when that completes on its own. A future that cannot be
		// cancelled leaves it pending for the next resume.
		t.cancelPending = false
	}
	t.waiting = w
	w.OnDone(t.wakeupFn)
}

// wouldCycle reports whether waiting for w would close a cycle of tasks
// waiting for each other: w is t, or a task whose chain of awaited tasks
// leads back to t. Refusing here, where each cycle would be closed, means
// no cycle ever forms, so Cancel, which follows the chain, always ends.
func (t *Task[T]) wouldCycle(w future.Waitable) bool {
	for w != nil {
		if w == future.Waitable(t) {
			return true
		}
		other, ok := w.(interface{ awaiting() future.Waitable })
		if !ok {
			return false // a plain future: the chain ends here
		}
		w = other.awaiting()
	}
	return false
}

// awaiting is what the task's body awaits now, nil while it runs.
func (c *coro) awaiting() future.Waitable { return c.waiting }

func (t *Task[T]) wakeup() {
	t.waiting = nil
	t.step()
}

// runBody calls the body on its worker's coroutine and keeps its outcome.
// A panic is caught here, inside the coroutine, where its stack is still
// intact; the worker goes on to its next body.
func (t *Task[T]) runBody(yield func(future.Waitable) bool) {
	defer func() {
		if p := recover(); p != nil {
			if p == errStopped {
				t.err = loop.ErrClosed
				return
			}
			t.err = &PanicError{Value: p, Stack: debug.Stack()}
		}
	}()
	t.value, t.err = t.body(Yield{c: &t.coro, yield: yield})
}

// finish completes the task's future. A body that returns a cancellation
// error leaves its task cancelled, as a CancelledError escaping an asyncio
// coroutine does. So does a body that returns normally with a cancellation
// still pending (asyncio's rule too): Cancel said yes, and a body that was
// never told cannot have chosen to carry on. Its value is dropped. A body
// that returns another error keeps it: that says more than "cancelled".
func (t *Task[T]) finish(v T, err error) {
	t.loop.RemoveCloser((*closer[T])(t))
	if t.w != nil {
		t.pool.put(t.w) // the body is over: its coroutine serves the next task
		t.w = nil
	}
	switch {
	case errors.Is(err, future.ErrCancelled):
		t.result.Cancel()
	case err != nil:
		t.result.SetError(err)
	case t.cancelPending:
		t.result.Cancel()
	default:
		t.result.SetResult(v)
	}
}

// stopOnClose ends a task whose loop is closing: the suspended body is
// unwound (its defers run) and the task fails with loop.ErrClosed.
func (t *Task[T]) stopOnClose() {
	if t.result.Done() {
		return
	}
	if t.w != nil {
		t.w.stop() // the body unwinds (Yield.suspend), and the coroutine ends
		t.w = nil
	}
	t.result.SetError(loop.ErrClosed)
}

// Cancel asks the task to stop. The Await it is suspended in returns an
// error matching future.ErrCancelled; the body may clean up and return it,
// or handle it and go on. If it awaits another task, the cancellation is
// handed down to that task, and the Await returns what that task returns:
// ErrCancelled, unless it handled the cancellation and carried on. Called while the body runs (a task cancelling itself, or being
// cancelled by a task it awaits), Cancel reaches the body's next Await at
// once: the future awaited there is cancelled. A task cancelled before its
// first step never runs its body, and one whose body returns before it
// was told ends cancelled all the same (asyncio's rule; see finish).
// Cancel reports false if the task is already done.
func (t *Task[T]) Cancel() bool {
	if t.result.Done() {
		return false
	}
	if t.waiting != nil && t.waiting.Cancel() {
		return true
	}
	t.cancelPending = true
	return true
}

// Done reports whether the task has finished.
func (t *Task[T]) Done() bool { return t.result.Done() }

// Cancelled reports whether the task ended cancelled.
func (t *Task[T]) Cancelled() bool { return t.result.Cancelled() }

// Result returns the body's result, future.ErrNotDone while it runs.
func (t *Task[T]) Result() (T, error) { return t.result.Result() }

// Err returns the body's error alone.
func (t *Task[T]) Err() error { return t.result.Err() }

// OnDone schedules fn when the task finishes.
func (t *Task[T]) OnDone(fn func()) { t.result.OnDone(fn) }

// AddDoneCallback schedules fn(t) when the task finishes.
func (t *Task[T]) AddDoneCallback(fn func(*Task[T])) { t.result.OnDone(func() { fn(t) }) }

var _ future.Awaitable[int] = (*Task[int])(nil)
