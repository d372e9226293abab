package loop_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/loop"
)

// waitFreed runs the collector until freed reaches want, failing the test
// if two seconds of rounds are not enough: what is unreachable goes at the first,
// and its finalizer runs soon after on the runtime's goroutine.
func waitFreed(t *testing.T, freed *atomic.Int64, want int64, what string) {
	t.Helper()
	for range 400 { // up to 2 s: a busy machine may run the finalizers late
		runtime.GC()
		if freed.Load() >= want {
			return
		}
		time.Sleep(5 * time.Millisecond) // the finalizers' goroutine runs; the loop re-checks the count
	}
	t.Fatalf("%d of %d %s were freed", freed.Load(), want, what)
}

// held is something a callback's closure holds: big enough to be an
// allocation of its own, so that its finalizer says when it is freed.
type held struct{ buf [64]byte }

func newHeld(freed *atomic.Int64) *held {
	h := &held{}
	runtime.SetFinalizer(h, func(*held) { freed.Add(1) })
	return h
}

// A timer that was cancelled, or that has fired, lets go of its callback
// while the caller still holds the timer: a long-lived handle must not
// keep what a closure captured alive.
func TestATimerLetsGoOfItsCallbackOnceCancelledOrFired(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var freed atomic.Int64
	var timers []*loop.Timer
	func() {
		h := newHeld(&freed)
		tm := l.CallLater(time.Hour, func() { h.buf[0]++ })
		tm.Cancel()
		timers = append(timers, tm)
		h2 := newHeld(&freed)
		timers = append(timers, l.CallLater(0, func() { h2.buf[0]++; l.Stop() }))
	}()
	run(t, l)
	waitFreed(t, &freed, 2, "callbacks' captures of a cancelled and a fired timer")
	runtime.KeepAlive(timers)
}

// When cancelled timers are swept out of the heap, nothing keeps the
// swept ones: once the caller drops them they can be collected.
func TestSweptTimersCanBeCollected(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var freed atomic.Int64
	const total, cancelled = 300, 151 // the 151st cancel sweeps (over half of the heap)
	func() {
		timers := make([]*loop.Timer, total)
		for i := range timers {
			timers[i] = l.CallLater(time.Hour, func() {})
		}
		for _, tm := range timers[total-cancelled:] {
			runtime.SetFinalizer(tm, func(*loop.Timer) { freed.Add(1) })
			tm.Cancel()
		}
	}()
	waitFreed(t, &freed, cancelled, "swept timers")
}
