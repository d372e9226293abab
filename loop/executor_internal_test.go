package loop

import (
	"context"
	"errors"
	"testing"

	"loopkit/future"
)

// A job whose future its caller cancelled runs to its end all the same (a
// goroutine cannot be stopped from outside), and its result, posted back
// to the loop, is dropped: the future stays cancelled. Completing it
// again would panic on the loop, which FailOnPanic turns into a failure.
func TestACancelledExecutorJobsResultIsDropped(t *testing.T) {
	eachCountingPoller(t, func(t *testing.T, l *Loop, _ *countingPoller) {
		release := make(chan struct{})
		f := RunInExecutor(l, func(context.Context) (int, error) { <-release; return 1, nil })
		f.Cancel()
		close(release)
		// The job's goroutine posts its result before it counts itself
		// done: once the executor's wait group is done, that post is in
		// the inbox, and one posted after it runs after it.
		after := future.New[struct{}](l)
		go func() {
			l.executor.wg.Wait()
			l.CallSoonThreadsafe(func() { after.SetResult(struct{}{}) })
		}()
		await(t, l, after)
		if !f.Cancelled() || !errors.Is(f.Err(), future.ErrCancelled) {
			t.Fatalf("the cancelled job's future: cancelled %v, %v", f.Cancelled(), f.Err())
		}
	})
}
