//go:build workshop

package backoff_test

import (
	"testing"
	"time"

	"loopkit/docs/workshop/backoff"
)

func always(x float64) func() float64 { return func() float64 { return x } }

// With no jitter at all (rnd at its top, just under 1), the wait doubles.
func TestTheWaitDoublesWithEachRetry(t *testing.T) {
	top := always(0.999999)
	for attempt, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 6: 32 * time.Second} {
		got := backoff.Backoff(time.Second, attempt, top)
		if got > want || got < want*999/1000 {
			t.Errorf("Backoff(1s, %d) with rnd just under 1 = %v; want just under %v", attempt, got, want)
		}
	}
}

// The jitter takes off half at most: rnd 0 gives half the wait, rnd 0.5
// three quarters of it.
func TestTheJitterShortensItByHalfAtMost(t *testing.T) {
	for _, c := range []struct {
		attempt int
		rnd     float64
		want    time.Duration
	}{
		{1, 0, 500 * time.Millisecond},
		{3, 0, 2 * time.Second},
		{1, 0.5, 750 * time.Millisecond},
		{2, 0.5, 1500 * time.Millisecond},
	} {
		if got := backoff.Backoff(time.Second, c.attempt, always(c.rnd)); got != c.want {
			t.Errorf("Backoff(1s, %d) with rnd %v = %v; want %v", c.attempt, c.rnd, got, c.want)
		}
	}
}

// rnd is called once per wait: its value is the jitter.
func TestRndIsTheJitter(t *testing.T) {
	calls := 0
	rnd := func() float64 { calls++; return 0.25 }
	if got := backoff.Backoff(100*time.Millisecond, 2, rnd); got != 125*time.Millisecond || calls != 1 {
		t.Errorf("Backoff(100ms, 2) with rnd 0.25 = %v, rnd called %d times; want 125ms, once", got, calls)
	}
}
