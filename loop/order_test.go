package loop_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"loopkit/loop"
)

// Callbacks posted from another goroutine run in the order it posted them,
// also when many wait in the inbox at once.
func TestPostsRunInTheOrderPosted(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var got []int
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range 50 {
				l.CallSoonThreadsafe(func() { got = append(got, i) })
			}
			l.CallSoonThreadsafe(l.Stop)
		}()
		<-done // all posted before the loop takes any
		run(t, l)
		if len(got) != 50 || !slices.IsSorted(got) {
			t.Fatalf("posts ran in the order %v", got)
		}
	})
}

// Timers with one deadline fire in the order they were set, however many
// there are (the heap breaks ties by sequence).
func TestTimersWithOneDeadlineFireInTheOrderSet(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var got []int
		when := l.Time()
		for i := range 64 {
			l.CallAt(when, func() { got = append(got, i) })
		}
		l.CallAt(when+time.Nanosecond, l.Stop)
		run(t, l)
		if len(got) != 64 || !slices.IsSorted(got) {
			t.Fatalf("timers ran in the order %v", got)
		}
	})
}

// After a run, TurnTime outside any turn reads the clock again, not the
// time the last turn cached.
func TestTurnTimeAfterRunReadsTheClock(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var cached time.Duration
		l.CallSoon(func() { cached = l.TurnTime(); l.Stop() })
		run(t, l)
		for l.Time() <= cached { // the clock moves on, however coarse it is
		}
		before := l.Time()
		if got := l.TurnTime(); got < before {
			t.Fatalf("after Run, TurnTime %v is behind the clock %v (the last turn's %v)", got, before, cached)
		}
	})
}

// The loop's values: one per key, nil for a key never set, and each loop
// has its own.
func TestValuesBelongToTheirLoop(t *testing.T) {
	type key struct{}
	a, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.Value(key{}) != nil {
		t.Fatal("a new loop has a value")
	}
	a.SetValue(key{}, 1)
	a.SetValue(key{}, 2)
	if got := fmt.Sprint(a.Value(key{}), b.Value(key{})); got != "2 <nil>" {
		t.Fatalf("values %s, want 2 <nil>", got)
	}
}
