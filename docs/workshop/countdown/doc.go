// Package countdown is workshop exercise 1: wait for many futures with
// nothing but callbacks.
//
// Write All: a future that completes once every one of its inputs has,
// with their values in the order of the inputs. It is task.Gather without
// tasks — the way the 500-lines chapter's crawler would have had to do it
// before it had coroutines — and it teaches the three rules of callback
// code:
//
//  1. State that a blocking program keeps in local variables (how many are
//     left, the values so far) lives in the closures' shared variables.
//  2. A future is completed exactly once: a second SetResult or SetError
//     panics, so every callback that might complete the output checks
//     Done first.
//  3. A callback added to a future that is already done still runs
//     (loopkit's futures schedule it), so inputs that completed before All
//     was called need no special case — but zero inputs do.
//
// The rules for All:
//
//   - with no inputs, the output completes at once with an empty slice;
//   - when every input has succeeded, the output's value is their values,
//     in the order of the inputs (not the order they completed in);
//   - as soon as an input fails (or is cancelled), the output fails with
//     that input's error, without waiting for the others;
//   - if the output is cancelled, every input still pending is cancelled.
//
// Edit exercise.go; run the tests with
//
//	go test -tags workshop ./docs/workshop/countdown
package countdown
