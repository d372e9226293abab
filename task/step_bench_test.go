package task_test

import (
	"iter"
	"testing"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// What a task step costs against a callback, and how much of it is
// iter.Pull's. Each operation is the same wait on the same loop: a future
// is made, a callback scheduled to complete it, and the waiter resumes
// when it is done. Only the waiter differs: a done callback, which starts
// the next wait itself; or a task, suspended in Await and resumed by
// step. The difference is the coroutine: two switches per wait, one into
// the body and one out.
//
//	go test ./task -run '^$' -bench Step -benchmem
func BenchmarkStep(b *testing.B) {
	b.Run("callback", func(b *testing.B) {
		l := newBenchLoop(b)
		var cur *future.Future[int]
		complete := func() { cur.SetResult(1) }
		left := b.N
		var wait func(*future.Future[int])
		start := func() {
			cur = future.New[int](l)
			l.CallSoon(complete)
			cur.AddDoneCallback(wait)
		}
		wait = func(*future.Future[int]) {
			if left--; left > 0 {
				start()
			} else {
				l.Stop()
			}
		}
		b.ReportAllocs()
		b.ResetTimer()
		start()
		if err := l.Run(); err != nil {
			b.Fatal(err)
		}
	})
	b.Run("task", func(b *testing.B) {
		l := newBenchLoop(b)
		var cur *future.Future[int]
		complete := func() { cur.SetResult(1) }
		n := b.N
		b.ReportAllocs()
		b.ResetTimer()
		_, err := task.Run(l, func(y task.Yield) (int, error) {
			for range n {
				cur = future.New[int](l)
				l.CallSoon(complete)
				if _, err := task.Await[int](y, cur); err != nil {
					return 0, err
				}
			}
			return 0, nil
		})
		if err != nil {
			b.Fatal(err)
		}
	})
	// iter.Pull alone: one next() is a switch into the coroutine and one
	// back, the two a task step adds to a callback.
	b.Run("iter.Pull-switch-pair", func(b *testing.B) {
		next, stop := iter.Pull(func(yield func(int) bool) {
			for yield(1) {
			}
		})
		defer stop()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			next()
		}
	})
}

func newBenchLoop(b *testing.B) *loop.Loop {
	l, err := loop.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	return l
}
