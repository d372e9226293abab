package loop_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
)

func TestCallSoonRunsInFIFOOrder(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var got []int
		for i := range 100 {
			l.CallSoon(func() { got = append(got, i) })
		}
		l.CallSoon(l.Stop)
		run(t, l)
		for i, v := range got {
			if v != i {
				t.Fatalf("callback %d ran in position %d: %v", v, i, got)
			}
		}
		if len(got) != 100 {
			t.Fatalf("ran %d callbacks, want 100", len(got))
		}
	})
}

// Callbacks scheduled during a turn wait for the next, behind the rest of
// this turn's, and each runs once.
func TestCallbacksScheduledInATurnRunAfterIt(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var got []string
		note := func(s string) func() { return func() { got = append(got, s) } }
		l.CallSoon(func() {
			got = append(got, "a")
			l.CallSoon(note("d"))
			l.CallSoon(note("e"))
			l.CallSoon(l.Stop)
		})
		l.CallSoon(note("b"))
		l.CallSoon(note("c"))
		run(t, l)
		if s := strings.Join(got, " "); s != "a b c d e" {
			t.Fatalf("ran %q, want %q", s, "a b c d e")
		}
	})
}

// A callback that schedules itself again runs once per iteration, never
// twice in one: I/O and timers get their turn in between.
func TestSelfReschedulingCallbackCannotStarveIOOrTimers(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		a, b := socketPair(t, l)
		spins := 0
		var spin func()
		spin = func() { spins++; l.CallSoon(spin) }
		l.CallSoon(spin)

		var timerAt, readAt int = -1, -1
		l.CallLater(20*time.Millisecond, func() { timerAt = spins })
		buf := make([]byte, 16)
		recv := l.SockRecv(a, buf)
		recv.AddDoneCallback(func(f *future.Future[int]) { readAt = spins })
		if _, err := l.SockSendAll(b, []byte("ping")).Result(); err != nil {
			t.Fatal(err)
		}
		l.CallLater(50*time.Millisecond, l.Stop)
		run(t, l)
		if timerAt < 0 || readAt < 0 {
			t.Fatalf("starved: timer ran at spin %d, read at spin %d (spins: %d)", timerAt, readAt, spins)
		}
		if n, _ := recv.Result(); string(buf[:n]) != "ping" {
			t.Fatalf("read %q", buf[:n])
		}
	})
}

func TestThreadsafeCallsFromManyGoroutinesEachRunOnce(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		const goroutines, calls = 100, 1000
		var ran [goroutines * calls]uint8
		total := 0
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range calls {
					id := g*calls + c
					if err := l.CallSoonThreadsafe(func() {
						ran[id]++
						if total++; total == goroutines*calls {
							l.Stop()
						}
					}); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		run(t, l)
		wg.Wait()
		for id, n := range ran {
			if n != 1 {
				t.Fatalf("callback %d ran %d times (total %d)", id, n, total)
			}
		}
	})
}

func TestPanickingCallbackReachesHandlerAndLoopGoesOn(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		caught := loop.CatchPanics(t, l)
		after := false
		l.CallSoon(explode)
		l.CallSoon(func() { after = true })
		l.CallSoon(l.Stop)
		run(t, l)
		if c := *caught; len(c) != 1 || fmt.Sprint(c[0].Value) != "boom" {
			t.Fatalf("handler got %v", c)
		}
		if stack := (*caught)[0].Stack; !strings.Contains(string(stack), "explode") {
			t.Errorf("stack does not name the panicking function:\n%s", stack)
		}
		if !after {
			t.Fatal("the callback after the panic did not run")
		}
	})
}

func explode() { panic("boom") }

// Stop before Run still lets one iteration run, so what was scheduled
// before it is not lost.
func TestStopBeforeRunRunsOneIteration(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		ran := false
		l.CallSoon(func() { ran = true })
		l.Stop()
		run(t, l)
		if !ran {
			t.Fatal("the callback scheduled before Stop and Run did not run")
		}
	})
}

// A RunUntilComplete stopped from outside must not leave its Stop behind
// on the future: when that future completes during a later run, the later
// run must go on until its own future is done.
func TestRunUntilCompleteLeavesNoStopBehind(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		first := future.New[int](l)
		l.CallLater(time.Millisecond, l.Stop)
		disarm := guard(t, l, "the run was never stopped")
		if err := l.RunUntilComplete(first); err == nil {
			t.Fatal("a run stopped before its future was done reported no error")
		}
		disarm()
		second := future.New[int](l)
		l.CallLater(5*time.Millisecond, func() { first.SetResult(1) })
		l.CallLater(30*time.Millisecond, func() { second.SetResult(2) })
		if _, err := runFor(t, l, second); err != nil {
			t.Fatalf("the second run: %v", err)
		}
	})
}
