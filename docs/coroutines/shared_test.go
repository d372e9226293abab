package coroutines

import (
	"testing"
	"time"

	"loopkit/future"
	"loopkit/task"
)

// A hundred tasks update one map and one counter, with no lock, a
// thousand times each, pausing in between: the count is exact, and under
// go test -race (as CI runs it) the race detector finds nothing, because
// only one of the loop's goroutine and its coroutines ever runs at a time,
// and each switch between them is a synchronization the detector sees.
//
// The second half is the catch: between two Awaits a task runs alone, but
// across an Await it does not. A read before a Pause and a write after it
// lose the other tasks' updates — no data race, a logic race, the same as
// in asyncio. task.Lock is for a section that must span an Await.
func TestTasksShareStateWithoutALockButNotAcrossAnAwait(t *testing.T) {
	defer time.AfterFunc(time.Minute, func() { panic("hung: the tasks never finished") }).Stop()
	l := newLoop(t)
	seen := map[int]int{}
	total := 0
	var tasks []future.Awaitable[int]
	for id := range 100 {
		tasks = append(tasks, task.Spawn(l, func(y task.Yield) (int, error) {
			for range 1000 {
				seen[id]++ // no lock: nothing else runs while this does
				total++
				if err := task.Pause(y); err != nil {
					return 0, err
				}
			}
			return 0, nil
		}))
	}
	if _, err := task.Run(l, func(y task.Yield) ([]task.Outcome[int], error) { return task.Gather(y, tasks...) }); err != nil {
		t.Fatal(err)
	}
	if total != 100_000 || len(seen) != 100 || seen[42] != 1000 {
		t.Fatalf("total %d, %d keys, seen[42] = %d; want 100000, 100, 1000", total, len(seen), seen[42])
	}

	counter := 0
	tasks = tasks[:0]
	for range 100 {
		tasks = append(tasks, task.Spawn(l, func(y task.Yield) (int, error) {
			v := counter // read...
			if err := task.Pause(y); err != nil {
				return 0, err
			}
			counter = v + 1 // ...write after an Await: every task read 0
			return 0, nil
		}))
	}
	if _, err := task.Run(l, func(y task.Yield) ([]task.Outcome[int], error) { return task.Gather(y, tasks...) }); err != nil {
		t.Fatal(err)
	}
	if counter != 1 {
		t.Fatalf("counter %d after 100 increments across an Await; the lost updates should leave 1", counter)
	}
}
