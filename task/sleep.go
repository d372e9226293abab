package task

import (
	"time"

	"loopkit/future"
)

// Sleep suspends the task for d. It is a future completed by a loop timer;
// if the task is cancelled first, the timer is cancelled too and Sleep
// returns the cancellation error.
func Sleep(y Yield, d time.Duration) error {
	l := y.Loop()
	f := future.New[struct{}](l)
	timer := l.CallLater(d, func() {
		if !f.Done() {
			f.SetResult(struct{}{})
		}
	})
	_, err := Await(y, f)
	if err != nil {
		timer.Cancel()
	}
	return err
}
