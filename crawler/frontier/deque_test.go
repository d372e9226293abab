package frontier

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The deque against a plain slice, through a random mix of pushes at
// either end and pops, so that it grows while its first item sits
// anywhere in its ring, and filters: they always hold the same items in
// the same order.
func TestDequeKeepsItsOrderThroughGrowthAndWrapping(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var d deque[int]
	var model []int
	for i := range 5000 {
		switch op := rng.IntN(10); {
		case op < 5:
			d.pushBack(i)
			model = append(model, i)
		case op < 7:
			d.pushFront(i)
			model = append([]int{i}, model...)
		case op < 9 && len(model) > 0:
			if got := d.popFront(); got != model[0] {
				t.Fatalf("step %d: popFront %d, want %d", i, got, model[0])
			}
			model = model[1:]
		case op == 9:
			odd := func(v int) bool { return v%2 == 1 }
			d.filter(odd)
			model = slices.DeleteFunc(model, func(v int) bool { return !odd(v) })
		}
		if d.len() != len(model) {
			t.Fatalf("step %d: %d items, want %d", i, d.len(), len(model))
		}
	}
	var rest []int
	d.drain(func(v int) { rest = append(rest, v) })
	if !slices.Equal(rest, model) {
		t.Fatalf("drained %v, want %v", rest, model)
	}
}

// A host's queue that held more than 64 URLs gives its buffer back when it
// runs dry, so that a million hosts crawled once do not each keep a big
// ring; one that never grew past 64 keeps its ring, and the next URLs cost
// no allocation.
func TestADrainedQueueGivesBackOnlyABigBuffer(t *testing.T) {
	for _, tc := range []struct {
		n        int
		keepsBuf bool
	}{{8, true}, {64, true}, {65, false}, {200, false}} {
		var d deque[int]
		for i := range tc.n {
			d.pushBack(i)
		}
		grown := len(d.buf)
		for d.len() > 0 {
			d.popFront()
		}
		if kept := len(d.buf) == grown; kept != tc.keepsBuf || !kept && d.buf != nil {
			t.Errorf("%d items: ring of %d left with one of %d; want it kept: %v", tc.n, grown, len(d.buf), tc.keepsBuf)
		}
	}
}
