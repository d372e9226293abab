package task

import "runtime/debug"

// Catch runs fn and returns a panic inside it as a *PanicError, so that a
// long-lived task (a crawler's worker) survives one bad item instead of
// dying and leaving its share of the work undone. The unwinding of a task
// whose loop is closing is not a panic to catch: Catch lets it through.
func Catch(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == errStopped {
				panic(p)
			}
			err = &PanicError{Value: p, Stack: debug.Stack()}
		}
	}()
	fn()
	return nil
}
