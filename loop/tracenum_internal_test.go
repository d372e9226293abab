package loop

import (
	"fmt"
	"testing"
	"time"
)

// The trace numbers the turns from 1, and each turn's Longest and
// LongestFunc are that turn's own: a turn that ran nothing has neither.
func TestTraceNumbersTurnsAndKeepsEachTurnsLongest(t *testing.T) {
	var got []string
	l, err := New(&Options{Trace: func(it *Iteration) {
		longestIsItsCall := false
		for _, c := range it.Calls {
			if c.End-c.Start == it.Longest && c.Func == it.LongestFunc {
				longestIsItsCall = true
			}
		}
		got = append(got, fmt.Sprintf("n=%d longest=%v named=%v func=%v",
			it.N, it.Longest, longestIsItsCall, it.LongestFunc != ""))
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	clock := new(time.Duration)
	l.obs.now = func() time.Duration { return *clock }
	for _, d := range []time.Duration{5, 30, 10} {
		l.CallSoon(func() { *clock += d * time.Microsecond })
	}
	l.stopping = true // every turn polls for nothing and runs what is ready
	for range 3 {
		if err := l.runOnce(); err != nil {
			t.Fatal(err)
		}
	}
	want := "[n=1 longest=30µs named=true func=true n=2 longest=0s named=false func=false n=3 longest=0s named=false func=false]"
	if s := fmt.Sprint(got); s != want {
		t.Fatalf("turns %s,\nwant  %s", s, want)
	}
}

// Percentile(0) is the smallest value, not an empty bucket below it.
func TestPercentileZeroIsTheSmallestValue(t *testing.T) {
	var h Histogram
	h.Add(7)
	h.Add(1000)
	if p := h.Percentile(0); p != 7 {
		t.Fatalf("p0 %v, want 7ns", p)
	}
}

// A negative duration (a clock that stepped back) counts as zero, below
// every real one.
func TestANegativeDurationCountsAsZero(t *testing.T) {
	var h Histogram
	h.Add(-1)
	h.Add(100)
	if p := h.Percentile(0.5); p != 0 {
		t.Fatalf("p50 of {-1, 100} is %v, want 0", p)
	}
}

// Each turn's record says how long its own wait slept.
func TestTraceSaysHowLongEachWaitSlept(t *testing.T) {
	var asleep []time.Duration
	l, err := New(&Options{Trace: func(it *Iteration) { asleep = append(asleep, it.Asleep) }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	clock := new(time.Duration)
	l.obs.now = func() time.Duration { return *clock }
	observed := l.poller.(*observedPoller)
	observed.Poller = &idlePoller{Poller: observed.Poller, clock: clock, d: 7 * time.Millisecond}
	l.CallLater(time.Hour, func() {}) // so each turn waits, for a timer far away
	for range 2 {
		if err := l.runOnce(); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(asleep) != "[7ms 7ms]" {
		t.Fatalf("turns slept %v, want [7ms 7ms]", asleep)
	}
}

// A timer's deadline is the one it was given, to the nanosecond.
func TestATimersDeadlineIsExact(t *testing.T) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if w := l.CallAt(time.Hour+12345, func() {}).When(); w != time.Hour+12345 {
		t.Fatalf("When() = %v", w)
	}
}
