// Package stagetest holds what the stages' tests share.
package stagetest

import (
	"fmt"
	"testing"
	"time"
)

// Guard ends the test binary with a message if the test is still running
// after d. A stage's run makes its own loop, out of the test's reach, so
// the guard cannot stop it the way the loop's tests stop theirs; it
// panics instead — sooner than go test's ten-minute timeout, and naming
// the test that hung. It is a timer of the Go runtime, not of a loop.
// Call the result when the test is over.
func Guard(t testing.TB, d time.Duration) (disarm func()) {
	name := t.Name()
	timer := time.AfterFunc(d, func() {
		panic(fmt.Sprintf("%s hung: still running after %v", name, d))
	})
	return func() { timer.Stop() }
}
