package loop_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// The ready queue runs under one recover per batch: after a panic the
// batch goes on from the next callback, each panic is reported once with
// its own stack, and the order is kept. Checked by hand: resuming at the
// panicking index (not after it) reports "first" forever (CatchPanics
// ends the test after 100); resuming at the end of the batch loses "b"
// and "d".
func TestPanicsInOneBatchEachSkipOnlyThemselves(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		caught := loop.CatchPanics(t, l)
		var ran []string
		l.CallSoon(func() { ran = append(ran, "a") })
		l.CallSoon(func() { panic("first") })
		l.CallSoon(func() { ran = append(ran, "b") })
		l.CallSoon(explodeAgain)
		l.CallSoon(func() { ran = append(ran, "d") })
		l.CallSoon(l.Stop)
		run(t, l)
		if got := strings.Join(ran, ","); got != "a,b,d" {
			t.Fatalf("ran %s, want a,b,d", got)
		}
		if c := *caught; len(c) != 2 || fmt.Sprint(c[0].Value) != "first" || fmt.Sprint(c[1].Value) != "again" {
			t.Fatalf("handler got %v", c)
		}
		if stack := (*caught)[1].Stack; !strings.Contains(string(stack), "explodeAgain") {
			t.Errorf("the second panic's stack does not name its function:\n%s", stack)
		}
	})
}

func explodeAgain() { panic("again") }

// Readers and writers of ready fds run under one recover too: a reader
// that panics does not keep the writer of the same fd, or the callbacks
// of other fds, from running in the same turn (level-triggered readiness
// would bring them back a turn later, which is not the same). Checked by
// hand: resuming after the panicking event, not the panicking callback,
// runs the writer a turn late.
func TestAPanickingReaderSkipsOnlyItself(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		caught := loop.CatchPanics(t, l)
		a, b := socketPair(t, l)
		c, d := socketPair(t, l)
		for _, fd := range []int{b, d} {
			if _, err := netpoll.Write(fd, []byte("x")); err != nil {
				t.Fatal(err)
			}
		}
		// The ready queue runs after every reader and writer of the turn:
		// a callback the panicking reader schedules marks the turn's end.
		turnOver := false
		var ran []string
		note := func(what string) {
			if turnOver {
				what += " (a turn late)"
			}
			ran = append(ran, what)
		}
		l.AddReader(a, func() {
			l.RemoveReader(a)
			l.CallSoon(func() { turnOver = true })
			panic("reader")
		})
		l.AddWriter(a, func() { l.RemoveWriter(a); note("a writer") })
		l.AddReader(c, func() { l.RemoveReader(c); note("c reader") })
		l.CallLater(20*time.Millisecond, l.Stop) // the events come at once
		run(t, l)
		l.RemoveWriter(a)
		l.RemoveReader(c)
		if c := *caught; len(c) != 1 || c[0].Value != "reader" {
			t.Fatalf("handler got %v", c)
		}
		slices.Sort(ran)
		if got := strings.Join(ran, ", "); !strings.HasPrefix(got, "a writer") || strings.Contains(got, "late") {
			t.Fatalf("ran %s; want the writer of the panicking reader's fd in the same turn", got)
		}
	})
}
