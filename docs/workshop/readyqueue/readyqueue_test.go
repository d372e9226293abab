//go:build workshop

package readyqueue_test

import (
	"slices"
	"testing"

	"loopkit/docs/workshop/readyqueue"
)

func TestRunsWhatIsReadyInOrder(t *testing.T) {
	var q readyqueue.Queue
	var ran []string
	for _, name := range []string{"a", "b", "c"} {
		q.CallSoon(func() { ran = append(ran, name) })
	}
	if n := q.RunOnce(); n != 3 || !slices.Equal(ran, []string{"a", "b", "c"}) {
		t.Fatalf("RunOnce ran %v and returned %d; want [a b c] and 3", ran, n)
	}
	if q.Len() != 0 {
		t.Fatalf("%d callbacks left after the turn; want 0", q.Len())
	}
}

// A callback that queues itself again runs once per turn: between two of
// its runs, the loop gets to wait for I/O. (It stops after 1000 runs, so
// that a RunOnce that runs it for ever still ends.)
func TestACallbackThatQueuesItselfRunsOncePerTurn(t *testing.T) {
	var q readyqueue.Queue
	runs := 0
	var again func()
	again = func() {
		runs++
		if runs < 1000 {
			q.CallSoon(again)
		}
	}
	q.CallSoon(again)
	for turn := 1; turn <= 3; turn++ {
		if n := q.RunOnce(); n != 1 || runs != turn {
			t.Fatalf("turn %d: RunOnce returned %d, and the callback has run %d times; want 1 and %d", turn, n, runs, turn)
		}
	}
}

// What a callback queues goes after what was already queued, and waits
// for the next turn; nothing is lost.
func TestWhatACallbackQueuesWaitsForTheNextTurn(t *testing.T) {
	var q readyqueue.Queue
	var ran []string
	add := func(name string) func() { return func() { ran = append(ran, name) } }
	q.CallSoon(func() {
		ran = append(ran, "a")
		q.CallSoon(add("c"))
	})
	q.CallSoon(add("b"))
	if n := q.RunOnce(); n != 2 || !slices.Equal(ran, []string{"a", "b"}) {
		t.Fatalf("the first turn ran %v and returned %d; want [a b] and 2", ran, n)
	}
	if n := q.RunOnce(); n != 1 || !slices.Equal(ran, []string{"a", "b", "c"}) {
		t.Fatalf("the second turn: ran %v in all, returned %d; want [a b c] and 1", ran, n)
	}
}

// Callbacks queued during a turn must not disturb the rest of that turn's
// batch: here the first queues two, while two more of the batch are still
// to run. A queue that reuses the batch's own array for the next turn
// (q.ready[:0]) writes them over the batch: b is lost, and y runs a turn
// early.
func TestWhatACallbackQueuesLeavesTheBatchAlone(t *testing.T) {
	var q readyqueue.Queue
	var ran []string
	add := func(name string) func() { return func() { ran = append(ran, name) } }
	q.CallSoon(func() {
		ran = append(ran, "a")
		q.CallSoon(add("x"))
		q.CallSoon(add("y"))
	})
	q.CallSoon(add("b"))
	q.CallSoon(add("c"))
	if n := q.RunOnce(); n != 3 || !slices.Equal(ran, []string{"a", "b", "c"}) {
		t.Fatalf("the first turn ran %v and returned %d; want [a b c] and 3", ran, n)
	}
	if n := q.RunOnce(); n != 2 || !slices.Equal(ran, []string{"a", "b", "c", "x", "y"}) {
		t.Fatalf("the second turn: ran %v in all, returned %d; want [a b c x y] and 2", ran, n)
	}
}
