package loop

import (
	"fmt"
	"math/rand/v2"
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

// checkTimers fails the test unless the heap's bookkeeping is true: every
// timer knows its place, the heap is ordered, and the count of cancelled
// timers still in it is exact (it decides when the heap is swept: counted
// too high, the heap is rebuilt on every Cancel; too low, never).
func checkTimers(t *testing.T, l *Loop, after string) {
	t.Helper()
	cancelled := 0
	for i, tm := range l.timers {
		if tm.index != i {
			t.Fatalf("after %s: the timer at %d thinks it is at %d", after, i, tm.index)
		}
		if i > 0 && l.timers.Less(i, (i-1)/2) {
			t.Fatalf("after %s: the timer at %d is due before its parent", after, i)
		}
		if tm.cancelled {
			cancelled++
		}
	}
	if cancelled != l.cancelledTimers {
		t.Fatalf("after %s: %d cancelled timers in the heap, counted %d", after, cancelled, l.cancelledTimers)
	}
}

// Thousands of timers set, cancelled (pending, fired, twice, and due but
// not yet run: by another timer's callback in the same turn), swept and
// fired, in a random mix: after every step the bookkeeping is true.
func TestTimerBookkeepingStaysTrue(t *testing.T) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	var timers []*Timer
	sweeps := 0
	for step := range 5000 {
		before := len(l.timers)
		switch op := rng.IntN(10); {
		case op < 4:
			timers = append(timers, l.CallLater(time.Duration(rng.IntN(20000))*time.Microsecond, func() {
				timers[rng.IntN(len(timers))].Cancel() // perhaps one due in this same turn
			}))
			checkTimers(t, l, "CallLater")
		case op < 9 && len(timers) > 0:
			timers[rng.IntN(len(timers))].Cancel()
			checkTimers(t, l, "Cancel")
			if len(l.timers) < before {
				sweeps++
			}
		default:
			l.CallSoon(func() {}) // a turn that does not sleep
			if err := l.runOnce(); err != nil {
				t.Fatal(err)
			}
			checkTimers(t, l, fmt.Sprintf("turn at step %d", step))
		}
	}
	// Whether the mix sweeps depends on how many of its timers fired,
	// which depends on the clock (under -race, most of them): so a second
	// loop sweeps for certain, 200 of 300 far timers cancelled in a random
	// order, leaving survivors whose order the sweep must keep.
	far, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer far.Close()
	var later []*Timer
	for range 300 {
		later = append(later, far.CallLater(time.Hour+time.Duration(rng.IntN(1e6)), func() {}))
	}
	for _, i := range rng.Perm(len(later))[:200] {
		before := len(far.timers)
		later[i].Cancel()
		checkTimers(t, far, "Cancel of a far timer")
		if len(far.timers) < before {
			sweeps++
		}
	}
	if sweeps == 0 {
		t.Fatal("no Cancel swept the heap: the test did not test the sweep")
	}
}

// A due timer waits in the ready queue, out of the heap: cancelled there
// (by a timer of the same turn), it is not counted among the cancelled
// timers still in the heap, which it is not. Counted, the heap would be
// swept for timers it does not hold, and swept again, and again.
func TestADueTimerCancelledInItsTurnIsNotCountedInTheHeap(t *testing.T) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	FailOnPanic(t, l)
	now := l.Time()
	var second *Timer
	l.CallAt(now, func() {
		if !second.Cancel() {
			t.Error("Cancel of a due timer not yet run returned false")
		}
	})
	second = l.CallAt(now, func() { t.Error("a cancelled timer ran") })
	l.CallLater(time.Hour, func() {}) // one timer stays in the heap
	if err := l.runOnce(); err != nil {
		t.Fatal(err)
	}
	checkTimers(t, l, "a due timer cancelled in its turn")
}
