package loop_test

import (
	"testing"
	"time"

	"loopkit/loop"
)

// BenchmarkCallSoon: schedule and run b.N callbacks, 1000 per iteration.
func BenchmarkCallSoon(b *testing.B) {
	l, _ := loop.New(nil)
	defer l.Close()
	count := 0
	fn := func() { count++ }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 1000 {
		for j := 0; j < 1000 && i+j < b.N; j++ {
			l.CallSoon(fn)
		}
		l.CallSoon(l.Stop)
		l.Run()
	}
	if count != b.N {
		b.Fatalf("ran %d of %d", count, b.N)
	}
}

// BenchmarkTimerScheduleCancel: the fate of most timeouts — set, then
// cancelled before they fire (lazy cancellation and the rebuild rule).
func BenchmarkTimerScheduleCancel(b *testing.B) {
	l, _ := loop.New(nil)
	defer l.Close()
	b.ReportAllocs()
	for range b.N {
		l.CallLater(time.Minute, func() {}).Cancel()
	}
}

// BenchmarkCallSoonThreadsafe: another goroutine posts, the loop runs.
func BenchmarkCallSoonThreadsafe(b *testing.B) {
	l, _ := loop.New(nil)
	defer l.Close()
	count := 0
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		for range n {
			l.CallSoonThreadsafe(func() {
				if count++; count == n {
					l.Stop()
				}
			})
		}
	}()
	l.Run()
}
