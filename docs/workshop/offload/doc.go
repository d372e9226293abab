// Package offload is workshop exercise 5: keep blocking work off the loop.
//
// A crawler parses every page it fetches, and parsing computes: a slow
// parser on the loop's goroutine stalls every connection and every timer
// while it runs (the tutorial's stage 7, and the "parsing must not block
// the loop" lesson of a million-page crawl). The stub in exercise.go does
// exactly that: it gives the right answers, and the loop stands still
// while it does.
//
// Rewrite ProcessAll so that each parse runs through loop.RunInExecutor,
// on a goroutine of its own, while the calling task awaits the results:
//
//   - the results come back in the order of the pages;
//   - at most limit parses run at once: loopkit's executor starts a
//     goroutine per job and has no bound of its own (asyncio's default
//     executor is a bounded thread pool), and a CPU-bound job gains
//     nothing from more goroutines than there are cores;
//   - the loop stays free meanwhile: its timers fire, its other tasks run;
//   - if the calling task is cancelled, ProcessAll returns an error
//     matching future.ErrCancelled, and no parse starts after that.
//     (One already running cannot be stopped — parse takes no context —
//     so its result is simply dropped.)
//
// Hint: a task per page, a task.Semaphore, task.Gather.
//
// Edit exercise.go; run the tests with
//
//	go test -tags workshop ./docs/workshop/offload
package offload
