package loop

import (
	"testing"
	"time"
)

// Cancelled timers are removed lazily; the rebuild rule keeps a heap under
// constant set-and-cancel churn (a read timeout per request) bounded, not
// growing by one entry per cancelled timer.
func TestHeapStaysBoundedUnderCancelChurn(t *testing.T) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.CallLater(time.Hour, func() {})
	for range 100_000 {
		l.CallLater(time.Minute, func() {}).Cancel()
	}
	if n := len(l.timers); n > 1000 {
		t.Fatalf("the heap holds %d timers after 100000 set-and-cancel, for 1 live one", n)
	}
}

// A cancelled timer at the top of the heap must not cut the wait short:
// fifty cancelled timeouts due within 50 ms, one live timer at 80 ms, and
// the loop wakes once, for the live one — not once per cancelled deadline.
func TestCancelledTimersDoNotWakeTheLoop(t *testing.T) {
	eachCountingPoller(t, func(t *testing.T, l *Loop, p *countingPoller) {
		for i := range 50 {
			l.CallLater(time.Duration(i+1)*time.Millisecond, func() { t.Error("a cancelled timer fired") }).Cancel()
		}
		fired := false
		l.CallLater(80*time.Millisecond, func() { fired = true; l.Stop() })
		defer guard(t, l, "the live timer never fired")()
		if err := l.Run(); err != nil {
			t.Fatal(err)
		}
		// One wait for the live timer; a few spare in case the kernel
		// wakes a little early.
		if !fired || p.waits > 5 {
			t.Fatalf("live timer fired: %v; the loop waited %d times, want about 1", fired, p.waits)
		}
	})
}
