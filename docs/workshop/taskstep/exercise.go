package taskstep

import "errors"

// step runs the body until its next Await, or its end: the chapter's
// Task.step. The loop calls it, as a callback — first from Spawn, then
// each time a future the body awaits is done.
func (t *Task[T]) step() {
	// TODO: start the coroutine on the first step (iter.Pull(t.run)),
	// resume it with t.next, and either finish, or arrange for the future
	// it yielded to call step again when it is done. Then cancellation.
	t.err = errors.New("taskstep: step is not written yet")
	t.finish()
}

// Cancel asks the task to stop and reports whether it could (false once
// the task is done). See README.md for what it must do in each state.
func (t *Task[T]) Cancel() bool {
	return false // TODO
}
