package loop_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/loop"
)

// The callbacks a traced turn ran are in its record, one by one, in the
// order they ran, each named by its function and timed: back to back
// (each starts where the one before ended), inside the turn, and the one
// that slept is the one that took its time. The next turn's record has
// its own callbacks only.
func TestTraceNamesEveryCallbackOfATurn(t *testing.T) {
	var calls [][]loop.Call
	l, err := loop.New(&loop.Options{Trace: func(it *loop.Iteration) {
		if it.Outside || len(it.Calls) == 0 {
			return
		}
		for _, c := range it.Calls {
			if c.Start < it.Start || c.End > it.End || c.End < c.Start {
				t.Errorf("turn %d [%v, %v] has a call [%v, %v] outside it", it.N, it.Start, it.End, c.Start, c.End)
			}
		}
		for i := 1; i < len(it.Calls); i++ {
			if it.Calls[i].Start != it.Calls[i-1].End {
				t.Errorf("call %d starts at %v, the one before ended at %v", i, it.Calls[i].Start, it.Calls[i-1].End)
			}
		}
		if len(it.Calls) != it.Callbacks {
			t.Errorf("turn %d: %d calls recorded, %d callbacks counted", it.N, len(it.Calls), it.Callbacks)
		}
		calls = append(calls, slices.Clone(it.Calls))
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.CallSoon(firstCallback)
	l.CallSoon(sleepyCallback)
	l.CallSoon(func() { l.CallSoon(firstCallback); l.CallSoon(l.Stop) })
	run(t, l)
	if len(calls) != 2 {
		t.Fatalf("%d turns ran callbacks, want 2", len(calls))
	}
	var turns []string
	for _, turn := range calls {
		var names []string
		for _, c := range turn {
			// A closure's number (".func2") is the compiler's to choose.
			names = append(names, strings.TrimRight(c.Func[strings.LastIndex(c.Func, "/")+1:], "0123456789"))
		}
		turns = append(turns, strings.Join(names, " "))
	}
	want := []string{
		"loop_test.firstCallback loop_test.sleepyCallback loop_test.TestTraceNamesEveryCallbackOfATurn.func",
		"loop_test.firstCallback loop.(*Loop).Stop-fm",
	}
	if !slices.Equal(turns, want) {
		t.Fatalf("calls named\n%q, want\n%q", turns, want)
	}
	if d := calls[0][1].End - calls[0][1].Start; d < 2*time.Millisecond {
		t.Fatalf("the sleepy callback took %v in the record, it slept 2ms", d)
	}
}

func firstCallback()  {}
func sleepyCallback() { time.Sleep(2 * time.Millisecond) }

// With GroupOptions.TraceLoop each loop has a trace function of its own:
// loop i runs i+1 callbacks, and the function made for i hears of exactly
// those — never of another loop's.
func TestTraceLoopGivesEachLoopItsOwnTrace(t *testing.T) {
	const n = 3
	seen := make([]int, n) // seen[i] is touched only by loop i's trace
	g, err := loop.NewGroup(n, &loop.GroupOptions{TraceLoop: func(i int) func(*loop.Iteration) {
		return func(it *loop.Iteration) { seen[i] += it.Callbacks }
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for i := range n {
		l := g.Loop(i)
		for range i {
			l.CallSoon(firstCallback)
		}
		l.CallSoon(l.Stop)
	}
	defer groupGuard(t, g)()
	if err := g.Run(func(i int, l *loop.Loop) error { return l.Run() }); err != nil {
		t.Fatal(err)
	}
	for i, c := range seen {
		if c != i+1 {
			t.Errorf("loop %d's trace heard of %d callbacks, want %d", i, c, i+1)
		}
	}
}
