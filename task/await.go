package task

import (
	"loopkit/future"
	"loopkit/loop"
)

// Yield is a task body's handle on its coroutine: pass it to Await and to
// the primitives that may suspend. It is valid only inside the body that
// received it.
type Yield struct {
	c     *coro
	yield func(future.Waitable) bool
}

// Loop is the loop the task runs on.
func (y Yield) Loop() *loop.Loop { return y.c.loop }

// Await suspends the task until f is done and returns f's result. If f is
// already done it returns at once without suspending, as asyncio's await
// does. If the task is cancelled meanwhile, Await returns an error matching
// future.ErrCancelled. If f is the task itself, or a task waiting (through
// others) for this one, Await returns ErrAwaitCycle on the next turn
// instead of waiting for ever.
func Await[T any](y Yield, f future.Awaitable[T]) (T, error) {
	if !f.Done() {
		if err := y.suspend(f); err != nil {
			var zero T
			return zero, err
		}
	}
	return f.Result()
}

// suspend hands w to step and waits to be resumed. The result comes from w
// itself; suspend returns only a cancellation that step delivered instead.
//
// If the loop closes while the body is suspended, iter.Pull's yield returns
// false. The body must then unwind, whatever it would like to do next, so
// suspend panics with a private value that the coroutine's top frame
// recovers: the body's defers run, and no goroutine is left behind. (A body
// that recovers every panic and awaits again defeats this; don't.)
func (y Yield) suspend(w future.Waitable) error {
	if !y.yield(w) {
		panic(errStopped)
	}
	err := y.c.resumeErr
	y.c.resumeErr = nil
	return err
}

// Pause gives the other callbacks and tasks one turn of the loop and then
// resumes (asyncio's sleep(0)). A long computation that calls it now and
// then stops starving the rest of the loop.
func Pause(y Yield) error {
	f := future.New[struct{}](y.Loop())
	f.SetResult(struct{}{})
	return y.suspend(f)
}
