package loop_test

import (
	"testing"

	"loopkit/loop"
)

// BenchmarkGroupPingPong measures the thread-safe hand-off between two
// loops of a group: one op is a round trip, loop 0 posting to loop 1 and
// loop 1 posting back, each post waking a loop asleep in its poller. It
// runs with the loops' goroutines free to change OS threads and locked to
// their own, because which is faster is a measurement, not an assumption
// (docs/tutorial.md, "Waiting and computing", has the numbers).
//
//	go test ./loop -run XXX -bench GroupPingPong -count 5
func BenchmarkGroupPingPong(b *testing.B) {
	for _, lock := range []bool{false, true} {
		b.Run(map[bool]string{false: "unlocked", true: "locked"}[lock], func(b *testing.B) {
			g, err := loop.NewGroup(2, &loop.GroupOptions{LockOSThread: lock})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			a, z := g.Loop(0), g.Loop(1)
			left := b.N
			var ping, pong func()
			ping = func() { // on loop 0
				if left == 0 {
					a.Stop()
					z.CallSoonThreadsafe(z.Stop)
					return
				}
				left--
				z.CallSoonThreadsafe(pong)
			}
			pong = func() { a.CallSoonThreadsafe(ping) } // on loop 1
			a.CallSoon(ping)
			b.ResetTimer()
			if err := g.Run(func(i int, l *loop.Loop) error { return l.Run() }); err != nil {
				b.Fatal(err)
			}
		})
	}
}
