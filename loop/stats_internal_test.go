package loop

import (
	"math"
	"testing"
	"time"

	"loopkit/netpoll"
)

// Every duration falls in a bucket whose top is at least the duration and
// at most an eighth above it (the histogram's promise), and buckets are in
// order: a longer duration never lands in an earlier bucket.
func TestHistogramBucketsAreTightAndOrdered(t *testing.T) {
	prev := 0
	check := func(v uint64) {
		i := bucket(v)
		if i < prev || i >= numBuckets {
			t.Fatalf("bucket(%d) = %d, after %d (of %d)", v, i, prev, numBuckets)
		}
		prev = i
		top := bucketTop(i)
		if top < v || (v >= exact && float64(top-v) > float64(v)/8) {
			t.Fatalf("%d is in bucket %d, whose top is %d", v, i, top)
		}
		if i > 0 && bucketTop(i-1) >= v {
			t.Fatalf("%d is in bucket %d, but bucket %d reaches %d", v, i, i-1, bucketTop(i-1))
		}
	}
	for v := uint64(0); v < 5000; v++ {
		check(v)
	}
	for v := uint64(5000); v < math.MaxUint64/3; v = v*3/2 + 7 {
		check(v)
	}
	check(math.MaxInt64)
	check(math.MaxUint64)
}

// loopWithTestClock is a loop with Stats whose observer reads a clock
// that only the test moves; the loop is closed when the test ends.
func loopWithTestClock(t *testing.T) (*Loop, *time.Duration) {
	l, err := New(&Options{Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	clock := new(time.Duration)
	l.obs.now = func() time.Duration { return *clock }
	return l, clock
}

// With a clock the test moves, the numbers are exact: 98 callbacks of
// 10 µs, one of 2 ms and one of 50 ms give p50 10 µs, p99 2 ms (within a
// bucket), p100 and Longest 50 ms, Busy the sum.
func TestStatsWithAClockTheTestMoves(t *testing.T) {
	l, clock := loopWithTestClock(t)
	takes := func(d time.Duration) func() { return func() { *clock += d } }
	for range 49 {
		l.CallSoon(takes(10 * time.Microsecond))
	}
	l.CallSoon(takes(50 * time.Millisecond))
	l.CallSoon(takes(2 * time.Millisecond))
	for range 49 {
		l.CallSoon(takes(10 * time.Microsecond))
	}
	l.Stop()
	defer guard(t, l, "the loop was never stopped")()
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	s := l.Stats()
	h := s.Durations
	if s.Callbacks != 100 || h.Count() != 100 || s.Iterations != 1 {
		t.Fatalf("%d callbacks, %d counted, %d iterations; want 100, 100, 1", s.Callbacks, h.Count(), s.Iterations)
	}
	if s.Longest != 50*time.Millisecond || h.Percentile(1) != s.Longest {
		t.Fatalf("longest %v, p100 %v; want 50ms", s.Longest, h.Percentile(1))
	}
	if p50 := h.Percentile(0.5); p50 < 10*time.Microsecond || p50 > 10*time.Microsecond*9/8 {
		t.Fatalf("p50 %v, want 10µs (+12.5%%)", p50)
	}
	if p99 := h.Percentile(0.99); p99 < 2*time.Millisecond || p99 > 2*time.Millisecond*9/8 {
		t.Fatalf("p99 %v, want 2ms (+12.5%%)", p99)
	}
	if want := 98*10*time.Microsecond + 52*time.Millisecond; s.Busy != want {
		t.Fatalf("busy %v, want %v", s.Busy, want)
	}
	var empty Histogram
	if empty.Percentile(0.99) != 0 {
		t.Fatal("an empty histogram has a p99")
	}
}

// idlePoller stands in for a poller whose Wait sleeps d by the test's
// clock and returns nothing: the loop's time asleep is then exact.
type idlePoller struct {
	netpoll.Poller
	clock *time.Duration
	d     time.Duration
}

func (p *idlePoller) Wait(time.Duration) ([]netpoll.Event, error) {
	*p.clock += p.d
	return p.Poller.Wait(0)
}

// Asleep is the time spent inside the poller's Wait, summed over the
// waits: three waits of 7 ms by the test's clock are 21 ms asleep.
func TestStatsCountTheTimeAsleep(t *testing.T) {
	l, clock := loopWithTestClock(t)
	observed := l.poller.(*observedPoller)
	observed.Poller = &idlePoller{Poller: observed.Poller, clock: clock, d: 7 * time.Millisecond}
	l.CallLater(time.Hour, func() {}) // so each turn waits, for a timer far away
	for range 3 {
		if err := l.runOnce(); err != nil {
			t.Fatal(err)
		}
	}
	if s := l.Stats(); s.Waits != 3 || s.Asleep != 21*time.Millisecond {
		t.Fatalf("%d waits, %v asleep; want 3 and 21ms", s.Waits, s.Asleep)
	}
}

// A hook that Close runs is timed from its own start, not from the end of
// the loop's last turn: the loop sat idle for an hour before Close, and
// that hour is nobody's callback. Longest and Busy count the hook's 3 ms.
func TestACloseHookIsTimedFromItsOwnStartNotTheLastTurn(t *testing.T) {
	l, clock := loopWithTestClock(t)
	l.CallSoon(func() { *clock += time.Microsecond })
	l.Stop()
	defer guard(t, l, "the loop was never stopped")()
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	*clock += time.Hour // idle between the last turn and Close
	l.OnClose(func() { *clock += 3 * time.Millisecond })
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	s := l.Stats()
	if s.Callbacks != 2 || s.Longest != 3*time.Millisecond || s.Busy != 3*time.Millisecond+time.Microsecond {
		t.Fatalf("%d callbacks, longest %v, busy %v; want 2, 3ms, 3.001ms", s.Callbacks, s.Longest, s.Busy)
	}
}
