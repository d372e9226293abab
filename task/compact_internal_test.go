package task

import (
	"testing"

	"loopkit/loop"
)

// A semaphore, lock or queue that always has a waiter (a busy one never
// drains its queue of waiters) lets go of the waiters it has woken, and
// reuses its slice: its memory stays bounded, not one entry per waiter
// ever parked.
func TestSpentWaitersAreLetGoAndTheirSliceStaysBounded(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	y := Yield{c: &coro{loop: l}}
	var w waiters
	w.park(y) // there is always one waiting from here on
	for i := range 1000 {
		w.park(y)
		if !w.wakeFirst() {
			t.Fatalf("round %d: no waiter woken", i)
		}
		for j, f := range w.q[:w.head] {
			if f != nil {
				t.Fatalf("round %d: woken waiter %d of %d is still held", i, j, w.head)
			}
		}
	}
	if len(w.q) > 2*32+2 {
		t.Fatalf("after 1000 waiters woken, one always waiting: %d kept, want at most %d", len(w.q), 2*32+2)
	}
	if w.head >= len(w.q) || w.q[w.head].Done() || !w.waiting() {
		t.Fatal("the waiter still waiting was lost")
	}
}

// A queue that is never empty (producers always a step ahead) reuses its
// slice once the front half is spent, and keeps its order doing so.
func TestANeverEmptyQueueStaysBoundedAndInOrder(t *testing.T) {
	q := NewQueue[int](0)
	q.PutNowait(0)
	for i := 1; i <= 5000; i++ {
		q.PutNowait(i)
		if v, err := q.GetNowait(); err != nil || v != i-1 {
			t.Fatalf("get %d: %d %v, want %d", i, v, err, i-1)
		}
	}
	if len(q.items) > 2*1024+2 {
		t.Fatalf("after 5000 items through a queue of one or two: %d slots kept, want at most %d", len(q.items), 2*1024+2)
	}
	if q.Len() != 1 {
		t.Fatalf("Len %d, want 1", q.Len())
	}
}

// A queue that is emptied starts its slice again from the front, and one
// that is not moves its items down only once the spent front is more than
// half of the slice: not before, where each move would copy most of a long
// queue for little room.
func TestAQueueReusesItsSliceFromTheFront(t *testing.T) {
	q := NewQueue[int](0)
	for i := range 3000 {
		q.PutNowait(i)
		if v, err := q.GetNowait(); err != nil || v != i {
			t.Fatalf("get %d: %d, %v", i, v, err)
		}
		if len(q.items) != 0 || q.head != 0 {
			t.Fatalf("round %d: an empty queue keeps %d slots, head %d; want 0, 0", i, len(q.items), q.head)
		}
	}
	for i := range 3000 {
		q.PutNowait(i)
	}
	for i := range 1100 {
		if v, err := q.GetNowait(); err != nil || v != i {
			t.Fatalf("get %d: %d, %v", i, v, err)
		}
	}
	if q.head != 1100 || len(q.items) != 3000 {
		t.Fatalf("1100 of 3000 items taken: head %d of %d slots; want 1100 of 3000 (no move yet)", q.head, len(q.items))
	}
	for i := 1100; i < 1600; i++ {
		if v, err := q.GetNowait(); err != nil || v != i {
			t.Fatalf("get %d: %d, %v", i, v, err)
		}
	}
	if q.Len() != 1400 || len(q.items) >= 3000 {
		t.Fatalf("1600 of 3000 items taken: %d left in %d slots; want 1400, moved down", q.Len(), len(q.items))
	}
}

// A waiter that was cancelled is not waiting, and a wake-up that finds
// only cancelled waiters spends them all: the queue starts again from the
// front of its slice. One that keeps live waiters moves them down only
// once the spent front is more than half of the slice.
func TestCancelledWaitersAreSpentAndTheSliceReused(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	y := Yield{c: &coro{loop: l}}
	var w waiters
	a, b := w.park(y), w.park(y)
	a.Cancel()
	if !w.waiting() {
		t.Fatal("the second waiter is not seen waiting")
	}
	b.Cancel()
	if w.waiting() {
		t.Fatal("only cancelled waiters left, and waiting reports one")
	}
	if w.wakeFirst() {
		t.Fatal("a cancelled waiter was woken")
	}
	if len(w.q) != 0 || w.head != 0 {
		t.Fatalf("after a wake-up past cancelled waiters: %d slots, head %d; want 0, 0", len(w.q), w.head)
	}
	for range 100 {
		w.park(y)
	}
	for range 40 {
		if !w.wakeFirst() {
			t.Fatal("no waiter woken")
		}
	}
	if w.head != 40 || len(w.q) != 100 {
		t.Fatalf("40 of 100 woken: head %d of %d slots; want 40 of 100 (no move yet)", w.head, len(w.q))
	}
	for range 11 {
		w.wakeFirst()
	}
	if len(w.q)-w.head != 49 || len(w.q) >= 100 {
		t.Fatalf("51 of 100 woken: %d left in %d slots; want 49, moved down", len(w.q)-w.head, len(w.q))
	}
}
