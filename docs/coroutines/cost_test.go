// Package coroutines holds the measurements and the checks behind
// docs/coroutines.md: what a switch costs, what a suspended task weighs,
// and that tasks share the loop's state without a lock.
//
//	go test -run XXX -bench . -benchmem ./docs/coroutines
package coroutines

import (
	"iter"
	"testing"

	"loopkit/loop"
	"loopkit/task"
)

func newLoop(tb testing.TB) *loop.Loop {
	tb.Helper()
	l, err := loop.New(nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	return l
}

// BenchmarkSwitch is one round trip into something and back, five ways:
// a plain function call; iter.Pull's next (two coroutine switches); two
// goroutines handing a value back and forth on channels (two switches
// through the scheduler); a task's Pause (a loop turn and two coroutine
// switches); and a callback that schedules itself (a loop turn, no
// coroutine: the callback style's equivalent of a Pause).
func BenchmarkSwitch(b *testing.B) {
	b.Run("func-call", func(b *testing.B) {
		n := 0
		f := func() int { n++; return n }
		for range b.N {
			callOpaque(f)
		}
	})
	b.Run("iter.Pull", func(b *testing.B) {
		next, stop := iter.Pull(func(yield func(int) bool) {
			for i := 0; yield(i); i++ {
			}
		})
		defer stop()
		for range b.N {
			next()
		}
	})
	b.Run("goroutine+channels", func(b *testing.B) {
		ping, pong := make(chan int), make(chan int)
		go func() {
			for v := range ping {
				pong <- v
			}
		}()
		defer close(ping)
		for i := range b.N {
			ping <- i
			<-pong
		}
	})
	b.Run("task.Pause", func(b *testing.B) {
		l := newLoop(b)
		n := b.N
		task.Run(l, func(y task.Yield) (int, error) {
			for range n {
				task.Pause(y)
			}
			return 0, nil
		})
	})
	b.Run("callback-turn", func(b *testing.B) {
		l := newLoop(b)
		n := 0
		var again func()
		again = func() {
			if n++; n == b.N {
				l.Stop()
				return
			}
			l.CallSoon(again)
		}
		l.CallSoon(again)
		l.Run()
	})
}

// callOpaque calls f without letting the compiler inline either: the
// floor is a real call through a function value.
//
//go:noinline
func callOpaque(f func() int) int { return f() }
