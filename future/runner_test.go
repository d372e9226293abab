package future_test

import (
	"strings"
	"testing"

	"loopkit/future"
	"loopkit/loop"
)

func newLoop(t *testing.T) *loop.Loop {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// On the loop, a future schedules itself once per callback instead of a
// closure per callback, and the order is still the order of scheduling:
// its callbacks in the order they were added, a callback added after the
// future was done after a CallSoon made before it, whatever the form of
// each callback.
func TestOnTheLoopCallbacksKeepTheSchedulingOrder(t *testing.T) {
	l := newLoop(t)
	f := future.New[string](l)
	var got []string
	f.AddDoneCallback(func(f *future.Future[string]) {
		v, _ := f.Result()
		got = append(got, "a:"+v)
	})
	f.OnDone(func() { got = append(got, "b") })
	f.AddDoneCallback(func(*future.Future[string]) { got = append(got, "c") })
	f.SetResult("v")
	l.CallSoon(func() { got = append(got, "x") })
	f.OnDone(func() { got = append(got, "late") })
	l.CallSoon(l.Stop)
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, ","); s != "a:v,b,c,x,late" {
		t.Fatalf("ran %s, want a:v,b,c,x,late", s)
	}
	// Once all have run, the future keeps none of them, and a new one
	// still runs.
	f.OnDone(func() { got = append(got, "again") })
	l.CallSoon(l.Stop)
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, ","); s != "a:v,b,c,x,late,again" {
		t.Fatalf("ran %s", s)
	}
}

// Each callback of a future is a callback of its own for the loop: one
// that panics is reported, and the next still runs.
func TestAPanickingDoneCallbackDoesNotSkipTheNext(t *testing.T) {
	l := newLoop(t)
	var panics []any
	l.SetPanicHandler(func(p loop.PanicInfo) { panics = append(panics, p.Value) })
	f := future.New[int](l)
	ran := false
	f.OnDone(func() { panic("first") })
	f.OnDone(func() { ran = true })
	f.SetResult(1)
	l.CallSoon(l.Stop)
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	if !ran || len(panics) != 1 || panics[0] != "first" {
		t.Fatalf("second ran %v, panics %v", ran, panics)
	}
}

// The cost that the loop's Schedule saves: a future with two callbacks,
// completed and run on the loop, allocates the future and nothing else
// (the callbacks are made once, outside). On a CallSoon-only scheduler
// it would cost a closure per callback. Checked by hand: scheduling with
// CallSoon even on the loop makes this 3.
func TestAFutureOnTheLoopAllocatesOnlyItself(t *testing.T) {
	l := newLoop(t)
	count := 0
	withFuture := func(*future.Future[int]) { count++ }
	plain := func() { count++ }
	stop := l.Stop // a method value is a closure: made once, here
	allocs := testing.AllocsPerRun(100, func() {
		f := future.New[int](l)
		f.AddDoneCallback(withFuture)
		f.OnDone(plain)
		f.SetResult(1)
		l.CallSoon(stop)
		l.Run()
	})
	if count != 2*101 {
		t.Fatalf("%d callbacks ran, want %d", count, 2*101)
	}
	if allocs != 1 {
		t.Fatalf("%v allocations per future, want 1", allocs)
	}
}
