//go:build solution

package sleep

import (
	"time"

	"loopkit/future"
	"loopkit/task"
)

// Sleep suspends the task for d. It awaits a future that a timer of c
// completes; if the task is cancelled first, Await returns the
// cancellation error, and the timer is cancelled with it.
func Sleep(y task.Yield, c Clock, d time.Duration) error {
	f := future.New[struct{}](c)
	timer := c.CallLater(d, func() {
		if !f.Done() { // cancelled, with the task, in this very turn
			f.SetResult(struct{}{})
		}
	})
	_, err := task.Await(y, f)
	if err != nil {
		timer.Cancel()
	}
	return err
}
