package future_test

import (
	"strings"
	"testing"

	"loopkit/future"
	"loopkit/loop"
)

// newLoop gives a test a loop (opts nil: the defaults), closed when the
// test ends, on which a panicking callback fails the test: the loop
// survives a panic and the default handler only prints it, so a callback
// of a future that panics where it should not would pass unseen. A test
// that expects a panic sets a handler of its own.
func newLoop(t *testing.T, opts ...loop.Options) *loop.Loop {
	t.Helper()
	var o *loop.Options
	if len(opts) > 0 {
		o = &opts[0]
	}
	l, err := loop.New(o)
	if err != nil {
		t.Fatal(err)
	}
	l.SetPanicHandler(func(p loop.PanicInfo) { t.Errorf("a callback panicked: %v", p) })
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

// calls records which of its callbacks ran, each a method of its own so
// that a loop's trace names each by its own function.
type calls struct{ ran []string }

func (c *calls) a(*future.Future[int]) { c.ran = append(c.ran, "a") }
func (c *calls) b()                    { c.ran = append(c.ran, "b") }
func (c *calls) c(*future.Future[int]) { c.ran = append(c.ran, "c") }
func (c *calls) d()                    { c.ran = append(c.ran, "d") }
func (c *calls) e(*future.Future[int]) { c.ran = append(c.ran, "e") }

// An observed loop (Stats, or a trace) asks each callback what function
// it is about to run, to time it under that name. A future answers for
// its next done callback, the first two kept in fields and the rest in a
// slice: every one of them must still run once, in order, and be named
// as itself, whether the future has one callback or five.
func TestObservedLoopRunsAndNamesEveryDoneCallback(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for _, traced := range []bool{false, true} {
			var named []string
			opts := loop.Options{Stats: true}
			if traced {
				opts.Trace = func(it *loop.Iteration) {
					for _, c := range it.Calls {
						if _, m, ok := strings.Cut(c.Func, "(*calls)."); ok {
							named = append(named, strings.TrimSuffix(m, "-fm"))
						}
					}
				}
			}
			l := newLoop(t, opts)
			var c calls
			f := future.New[int](l)
			adds := []func(){
				func() { f.AddDoneCallback(c.a) }, func() { f.OnDone(c.b) }, func() { f.AddDoneCallback(c.c) },
				func() { f.OnDone(c.d) }, func() { f.AddDoneCallback(c.e) },
			}
			for _, add := range adds[:n] {
				add()
			}
			f.SetResult(1)
			l.CallSoon(l.Stop)
			if err := l.Run(); err != nil {
				t.Fatal(err)
			}
			want := strings.Join([]string{"a", "b", "c", "d", "e"}[:n], ",")
			if got := strings.Join(c.ran, ","); got != want {
				t.Errorf("%d callbacks, traced %v: ran %s, want %s", n, traced, got, want)
			}
			if got := strings.Join(named, ","); traced && got != want {
				t.Errorf("%d callbacks: the trace named %s, want %s", n, got, want)
			}
		}
	}
}
