//go:build solution

package offload

import (
	"context"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// ProcessAll parses every page, at most limit at a time, and returns the
// results in the order of pages. parse blocks: it must not run on the loop.
func ProcessAll(y task.Yield, pages []string, limit int, parse func(page string) int) ([]int, error) {
	l := y.Loop()
	sem := task.NewSemaphore(limit)
	jobs := make([]future.Awaitable[int], len(pages))
	for i, p := range pages {
		jobs[i] = task.Spawn(l, func(y task.Yield) (int, error) {
			if err := sem.Acquire(y); err != nil {
				return 0, err // cancelled while waiting its turn: parse never starts
			}
			defer sem.Release()
			return task.Await(y, loop.RunInExecutor(l, func(context.Context) (int, error) {
				return parse(p), nil // on the executor's goroutine, not the loop's
			}))
		})
	}
	outcomes, err := task.Gather(y, jobs...) // if we are cancelled, so is every job
	if err != nil {
		return nil, err
	}
	results := make([]int, len(pages))
	for i, o := range outcomes {
		if o.Err != nil {
			return nil, o.Err
		}
		results[i] = o.Value
	}
	return results, nil
}
