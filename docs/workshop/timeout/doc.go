// Package timeout is workshop exercise 2: a deadline for any future, made
// of a loop timer and cancellation.
//
// Write WithTimeout(l, f, d): a future that completes like f if f completes
// within d, and otherwise fails with ErrTimeout and cancels f (so that
// whatever f stood for — a connection attempt, a request — is abandoned,
// not left running with nobody waiting for it). It is the callback-level
// core of task.WaitFor; the total deadline of a request in crawler/http1
// (exchange.go) is built from the same two pieces.
//
// Two callbacks race to complete one future: f's done callback and the
// timer's. Whichever comes second must do nothing — and better, must not
// come at all: when f wins, cancel the timer (a timer left armed keeps its
// closure, and f, alive until it fires); when the timer wins, it cancels
// f, whose done callback then runs and finds the output already done.
//
// The rules:
//
//   - f completes first (success, error or cancellation): the output gets
//     f's outcome, and the timer is cancelled;
//   - d passes first: the output fails with ErrTimeout, and f is cancelled;
//   - the output is cancelled by its owner: f is cancelled too, and the
//     timer with it.
//
// Edit exercise.go; run the tests with
//
//	go test -tags workshop ./docs/workshop/timeout
package timeout

import "errors"

// ErrTimeout is the output's error when d passed before f completed.
var ErrTimeout = errors.New("timeout: deadline passed")
