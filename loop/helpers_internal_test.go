package loop

import (
	"sync/atomic"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/netpoll"
)

// countingPoller counts the Waits of the poller it wraps, and the events
// they return for each fd: what the loop's own tests need to see that an
// idle loop really sleeps.
type countingPoller struct {
	netpoll.Poller
	waits  int
	events map[int]int // by fd
}

func (p *countingPoller) Wait(timeout time.Duration) ([]netpoll.Event, error) {
	evs, err := p.Poller.Wait(timeout)
	p.waits++
	for _, ev := range evs {
		p.events[int(uint32(ev.Token))]++
	}
	return evs, err
}

func (p *countingPoller) reset() { p.waits, p.events = 0, make(map[int]int) }

// eachCountingPoller runs test once per poller this OS has, on a fresh
// loop whose poller is counted.
func eachCountingPoller(t *testing.T, test func(t *testing.T, l *Loop, p *countingPoller)) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := New(&Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			FailOnPanic(t, l)
			p := &countingPoller{Poller: l.poller}
			p.reset()
			l.poller = p
			test(t, l, p)
		})
	}
}

// FailOnPanic makes every panic of a callback on l, and every misuse the
// loop reports, fail the test. The default handler only prints: a test
// whose callback panics where it should not — a timer that runs after it
// was cancelled, calling the nil it was left with — would pass. A test
// that expects a panic sets a handler of its own after this one (see
// CatchPanics). (Exported for the package's external tests, which share
// the binary; so are the two below.)
func FailOnPanic(t testing.TB, l *Loop) {
	panics := 0
	l.SetPanicHandler(func(p PanicInfo) {
		t.Errorf("a callback panicked: %v", p)
		if panics++; panics == 10 {
			t.FailNow() // the same one again and again, it may be: see CatchPanics
		}
	})
}

// CatchPanics collects what l's panic handler hears, for a test that
// expects panics. Past 100 it ends the test: a loop that ran the callback
// that panicked again, instead of the next, would otherwise report it for
// ever inside one turn, where no guard can stop it, until go test's
// timeout. It must be called on the goroutine that runs the test and the
// loop.
func CatchPanics(t testing.TB, l *Loop) *[]PanicInfo {
	var caught []PanicInfo
	l.SetPanicHandler(func(p PanicInfo) {
		if caught = append(caught, p); len(caught) > 100 {
			t.Fatalf("%d panics reported, the last %v: the loop runs a panicking callback again and again", len(caught), p.Value)
		}
	})
	return &caught
}

// AGuardFired is set when a guard of this package's tests fired: the
// loop's clock or its wake-up is broken, and every later test would wait
// out a guard of its own, one after another, until go test's timeout
// killed them all without a name. Later guards skip their test instead,
// so the one that hung is what the run reports.
var AGuardFired atomic.Bool

// SkipAfterAHang skips t if an earlier test of the package hung.
func SkipAfterAHang(t testing.TB) {
	if AGuardFired.Load() {
		t.Skip("not run: an earlier test hung (see its failure), and this one would wait out a guard of its own")
	}
}

// runIdle runs the loop for d, with nothing else to do.
func runIdle(t *testing.T, l *Loop, d time.Duration) {
	t.Helper()
	defer guard(t, l, "the loop was never stopped")()
	l.CallLater(d, l.Stop)
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
}

// guard stops the loop and fails the test if the run is not over in 5 s,
// so that a test of broken code fails instead of hanging. It is a timer
// of the Go runtime, which works when the loop's timers are what broke,
// and a timer of the loop's, which works when what broke is the wake-up
// that the first needs. Call it on the loop's goroutine before the run,
// and the result when the run is over.
func guard(t *testing.T, l *Loop, what string) (disarm func()) {
	SkipAfterAHang(t)
	g := time.AfterFunc(5*time.Second, func() {
		AGuardFired.Store(true)
		t.Error("hung after 5 s: " + what)
		l.CallSoonThreadsafe(l.Stop)
	})
	lt := l.CallLater(6*time.Second, func() {
		AGuardFired.Store(true)
		t.Error("hung after 6 s, and not woken by CallSoonThreadsafe: " + what)
		l.Stop()
	})
	return func() { g.Stop(); lt.Cancel() }
}

// await runs the loop until f is done, failing the test rather than
// hanging it.
func await[T any](t *testing.T, l *Loop, f *future.Future[T]) T {
	t.Helper()
	defer guard(t, l, "the future was never done")()
	if err := l.RunUntilComplete(f); err != nil {
		t.Fatal(err)
	}
	v, err := f.Result()
	if err != nil {
		t.Fatal(err)
	}
	return v
}
