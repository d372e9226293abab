package offload

import (
	"loopkit/task"
)

// ProcessAll parses every page, at most limit at a time, and returns the
// results in the order of pages. parse blocks: it must not run on the loop.
func ProcessAll(y task.Yield, pages []string, limit int, parse func(page string) int) ([]int, error) {
	// TODO: this gives the right answers, but every parse runs on the
	// loop's own goroutine, and nothing else on the loop runs meanwhile.
	// Hand each parse to loop.RunInExecutor instead, at most limit at once.
	results := make([]int, len(pages))
	for i, p := range pages {
		results[i] = parse(p)
	}
	return results, nil
}
