package sleep

import (
	"errors"
	"time"

	"loopkit/task"
)

// Sleep suspends the task for d, with a timer of c: see README.md for the
// rule.
func Sleep(y task.Yield, c Clock, d time.Duration) error {
	// TODO: a future (future.New[struct{}](c)), a timer that completes
	// it, task.Await on it; and if the await fails, cancel the timer.
	return errors.New("sleep: Sleep is not written yet")
}
