package task_test

import (
	"testing"

	"loopkit/future"
	"loopkit/task"
)

// BenchmarkTaskSwitch: one Await of a future that another callback
// completes — suspend into the loop, run the producer, resume. Two
// coroutine switches and two loop callbacks per operation.
func BenchmarkTaskSwitch(b *testing.B) {
	l := newLoop(b)
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	task.Run(l, func(y task.Yield) (int, error) {
		for range n {
			f := future.New[int](l)
			l.CallSoon(func() { f.SetResult(1) })
			if _, err := task.Await[int](y, f); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
}

// BenchmarkPause: the cheapest real suspension, asyncio's sleep(0).
func BenchmarkPause(b *testing.B) {
	l := newLoop(b)
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	task.Run(l, func(y task.Yield) (int, error) {
		for range n {
			task.Pause(y)
		}
		return 0, nil
	})
}

// BenchmarkSpawnToCompletion: create a task whose body returns at once,
// and wait for it. This is where the goroutine behind iter.Pull is made.
func BenchmarkSpawnToCompletion(b *testing.B) {
	l := newLoop(b)
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	task.Run(l, func(y task.Yield) (int, error) {
		for range n {
			t := task.Spawn(l, func(task.Yield) (int, error) { return 1, nil })
			if _, err := task.Await[int](y, t); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
}
