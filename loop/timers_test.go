package loop_test

import (
	"math"
	"slices"
	"syscall"
	"testing"
	"time"

	"loopkit/loop"
)

func TestTimersFireInDeadlineOrderThenSchedulingOrder(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var got []string
		at := func(ms int, name string) *loop.Timer {
			return l.CallAt(l.Time()+time.Duration(ms)*time.Millisecond, func() { got = append(got, name) })
		}
		at(30, "c1")
		at(10, "a")
		at(30, "c2")
		at(20, "b")
		at(30, "c3")
		at(15, "cancelled").Cancel()
		at(40, "last")
		l.CallLater(60*time.Millisecond, l.Stop)
		run(t, l)
		want := []string{"a", "b", "c1", "c2", "c3", "last"}
		if !slices.Equal(got, want) {
			t.Fatalf("fired %v, want %v", got, want)
		}
	})
}

// Cancelling most of many timers triggers the rebuild; the survivors must
// still fire, in order, and the cancelled ones never.
func TestManyCancelledTimersAreDroppedAndSurvivorsFire(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var fired []int
		var timers []*loop.Timer
		for i := range 1000 {
			timers = append(timers, l.CallLater(time.Duration(i)*time.Microsecond, func() { fired = append(fired, i) }))
		}
		for i, tm := range timers {
			if i%10 != 0 && !tm.Cancel() {
				t.Fatalf("timer %d could not be cancelled", i)
			}
		}
		l.CallLater(20*time.Millisecond, l.Stop)
		run(t, l)
		if len(fired) != 100 {
			t.Fatalf("%d timers fired, want 100", len(fired))
		}
		for k, i := range fired {
			if i != 10*k {
				t.Fatalf("fired[%d] = %d, want %d", k, i, 10*k)
			}
		}
	})
}

// An idle loop sleeps in the kernel. Process CPU time over a half-second
// wait must stay near zero; a busy-wait would burn the whole of it. The
// bound is deliberately loose (a quarter of the wait): it catches spinning,
// not slowness.
func TestIdleLoopDoesNotBusyWait(t *testing.T) {
	if testing.Short() {
		t.Skip("waits half a second per poller")
	}
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		before := cpuTime(t)
		fired := false
		l.CallLater(500*time.Millisecond, func() { fired = true; l.Stop() })
		run(t, l)
		used := cpuTime(t) - before
		if !fired {
			t.Fatal("timer did not fire")
		}
		if used > 125*time.Millisecond {
			t.Fatalf("idle loop used %v of CPU in half a second", used)
		}
	})
}

// cpuTime is this process's user+system CPU time. (Getrusage is the one
// portable way to read it; the test reads it, the library never does.)
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Two timers due in the same turn: the first cancels the second, which
// must then not run, although it was already taken from the heap. (Its
// func is dropped at Cancel: a timer that ran all the same would call nil,
// and the panic, which the loop survives, fails the test through
// eachPoller's panic handler.)
func TestCancellingADueTimerInTheSameTurn(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		when := l.Time() + 5*time.Millisecond
		secondRan := false
		var second *loop.Timer
		l.CallAt(when, func() {
			if !second.Cancel() {
				t.Error("Cancel of a due, not yet run timer returned false")
			}
		})
		second = l.CallAt(when, func() { secondRan = true })
		l.CallLater(20*time.Millisecond, l.Stop)
		run(t, l)
		if secondRan {
			t.Fatal("a timer cancelled before its callback ran still ran")
		}
		if second.Cancel() {
			t.Fatal("cancelling twice returned true")
		}
	})
}

// Deadlines at the ends of the clock's range: a timer 292 years away must
// not wrap round into the past and fire at once, and one due long ago must
// not make the wait's timeout wrap into "sleep for weeks" (the 20 ms timer
// behind it would then fire only when something else woke the loop).
func TestTimersAtTheEndsOfTheClockDoNotOverflow(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		far := l.CallLater(math.MaxInt64, func() { t.Error("a timer 292 years away fired") })
		pastRan, nearRan := false, false
		l.CallAt(math.MinInt64, func() { pastRan = true })
		l.CallLater(20*time.Millisecond, func() { nearRan = true; l.Stop() })
		run(t, l)
		if !pastRan || !nearRan {
			t.Fatalf("timer due long ago ran: %v; 20 ms timer ran: %v", pastRan, nearRan)
		}
		if far.When() < l.Time() {
			t.Fatalf("CallLater(MaxInt64) wrapped to a deadline in the past: %v", far.When())
		}
	})
}

// Timers with the very same deadline fire in the order they were set
// (the heap alone is not stable: the sequence number breaks the tie).
func TestEqualDeadlinesFireInSchedulingOrder(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		when := l.Time() + 5*time.Millisecond
		var got []int
		for i := range 50 {
			l.CallAt(when, func() { got = append(got, i) })
			l.CallAt(when+time.Duration(50-i)*time.Microsecond, func() {}) // stir the heap
		}
		l.CallAt(when+time.Millisecond, l.Stop)
		run(t, l)
		if len(got) != 50 || !slices.IsSorted(got) {
			t.Fatalf("timers with one deadline fired in the order %v", got)
		}
	})
}
