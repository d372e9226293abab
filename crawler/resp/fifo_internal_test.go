package resp

import "testing"

// The ring hands elements back in the order they went in, across
// wrap-arounds and across growths that happen while its oldest element is
// not at the start of the buffer.
func TestFifoKeepsOrderAcrossWrapsAndGrowth(t *testing.T) {
	var q fifo[int]
	var model []int
	next := 0
	// Push a few more than are popped each round, so the ring wraps and
	// grows with its head anywhere.
	for round := range 40 {
		for range round%5 + 3 {
			q.push(next)
			model = append(model, next)
			next++
		}
		for range round%4 + 2 {
			if len(model) == 0 {
				break
			}
			if got := q.pop(); got != model[0] {
				t.Fatalf("round %d: popped %d, want %d", round, got, model[0])
			}
			model = model[1:]
		}
		if q.len() != len(model) {
			t.Fatalf("round %d: len %d, want %d", round, q.len(), len(model))
		}
	}
	var rest []int
	q.drain(func(v int) { rest = append(rest, v) })
	if len(rest) != len(model) || q.len() != 0 {
		t.Fatalf("drained %d, want %d; len after %d", len(rest), len(model), q.len())
	}
	for i := range rest {
		if rest[i] != model[i] {
			t.Fatalf("drained %v, want %v", rest, model)
		}
	}
	if n := len(q.buf); n&(n-1) != 0 || n < 8 {
		t.Fatalf("buffer of %d slots: want a power of two, at least 8", n)
	}
}

// The first growth makes room for eight, and each later one doubles.
func TestFifoGrowsToEightThenDoubles(t *testing.T) {
	var q fifo[int]
	for i, want := range map[int]int{1: 8, 8: 8, 9: 16, 17: 32} {
		q = fifo[int]{}
		for j := range i {
			q.push(j)
		}
		if len(q.buf) != want {
			t.Errorf("after %d pushes: %d slots, want %d", i, len(q.buf), want)
		}
	}
}

// What pop returns is let go by the ring: a call's future, and the reply
// it holds, are not kept alive by a slot that is free.
func TestFifoPopClearsItsSlot(t *testing.T) {
	var q fifo[*int]
	for range 5 {
		q.push(new(int))
	}
	q.pop()
	q.drain(func(*int) {})
	for i, p := range q.buf {
		if p != nil {
			t.Fatalf("slot %d still holds a popped element", i)
		}
	}
}
