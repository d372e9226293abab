package future_test

import (
	"testing"

	"loopkit/future"
	"loopkit/loop"
)

// batch is a Scheduler that keeps callbacks until drain runs them, and
// reuses its slice, so that a benchmark measures the future, not the
// scheduler's allocations.
type batch struct{ fns []func() }

func (b *batch) CallSoon(fn func()) { b.fns = append(b.fns, fn) }

func (b *batch) drain() {
	for i, fn := range b.fns {
		fn()
		b.fns[i] = nil
	}
	b.fns = b.fns[:0]
}

// BenchmarkFutureResolve: the whole life of a future — New, a done
// callback, SetResult, the callback run — on the smallest scheduler.
func BenchmarkFutureResolve(b *testing.B) {
	s := &batch{}
	sum := 0
	b.ReportAllocs()
	for i := range b.N {
		f := future.New[int](s)
		f.AddDoneCallback(func(f *future.Future[int]) {
			v, _ := f.Result()
			sum += v
		})
		f.SetResult(i)
		s.drain()
	}
	if b.N > 1 && sum == 0 {
		b.Fatal("no callback ran")
	}
}

// BenchmarkFutureOnLoop: the same on the real loop, 1000 futures per
// turn of Run, as a reactor resolves them when many sockets are ready.
func BenchmarkFutureOnLoop(b *testing.B) {
	l, err := loop.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	done := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 1000 {
		for j := 0; j < 1000 && i+j < b.N; j++ {
			f := future.New[int](l)
			f.AddDoneCallback(func(*future.Future[int]) { done++ })
			f.SetResult(j)
		}
		l.CallSoon(l.Stop)
		if err := l.Run(); err != nil {
			b.Fatal(err)
		}
	}
	if done != b.N {
		b.Fatalf("%d of %d callbacks ran", done, b.N)
	}
}
