//go:build workshop

package timerheap_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"loopkit/docs/workshop/timerheap"
)

// fire runs what Due(now) returns, as the loop would, and returns the
// names the callbacks appended to *ran.
func fire(h *timerheap.Heap, now time.Duration, ran *[]string) []string {
	*ran = (*ran)[:0]
	for _, t := range h.Due(now) {
		t.Run()
	}
	return slices.Clone(*ran)
}

func add(h *timerheap.Heap, ran *[]string, when time.Duration, name string) *timerheap.Timer {
	return h.Add(when, func() { *ran = append(*ran, name) })
}

func TestDueInDeadlineOrder(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	for _, w := range []int{30, 10, 40, 20} {
		add(&h, &ran, time.Duration(w), fmt.Sprint(w))
	}
	if got := fire(&h, 25, &ran); !slices.Equal(got, []string{"10", "20"}) {
		t.Fatalf("Due(25) ran %v; want [10 20]", got)
	}
	if got := fire(&h, 25, &ran); len(got) != 0 {
		t.Fatalf("a second Due(25) ran %v; want nothing: Due removes what it returns", got)
	}
	if got := fire(&h, 40, &ran); !slices.Equal(got, []string{"30", "40"}) {
		t.Fatalf("Due(40) ran %v; want [30 40]: a deadline equal to now is due", got)
	}
	if h.Len() != 0 {
		t.Fatalf("Len = %d after every timer ran; want 0", h.Len())
	}
}

// container/heap is not stable: without a tie-break, timers set for the
// same instant come out in whatever order the heap's swaps leave them.
func TestEqualDeadlinesRunInTheOrderAdded(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	var want []string
	for i := range 64 {
		add(&h, &ran, time.Duration(i%4), fmt.Sprint(i))
	}
	for w := range 4 {
		for i := w; i < 64; i += 4 {
			want = append(want, fmt.Sprint(i))
		}
	}
	if got := fire(&h, 10, &ran); !slices.Equal(got, want) {
		t.Fatalf("Due ran\n%v\nwant\n%v\n(by deadline, then in the order added)", got, want)
	}
}

func TestCancelIsLazy(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	add(&h, &ran, 10, "a")
	b := add(&h, &ran, 20, "b")
	add(&h, &ran, 30, "c")
	if !b.Cancel() {
		t.Fatal("Cancel of an armed timer returned false")
	}
	if b.Cancel() {
		t.Error("a second Cancel returned true")
	}
	if h.Len() != 3 {
		t.Errorf("Len = %d after one Cancel; want 3: a cancelled timer stays in the heap until it reaches the top", h.Len())
	}
	due := h.Due(100)
	for _, tm := range due {
		tm.Run()
	}
	if len(due) != 2 || !slices.Equal(ran, []string{"a", "c"}) {
		t.Errorf("Due returned %d timers, which ran %v; want 2, [a c]: a cancelled timer is dropped, not returned", len(due), ran)
	}
	if h.Len() != 0 {
		t.Errorf("Len = %d after Due passed every timer; want 0", h.Len())
	}
}

// Next is how long the loop may sleep: a cancelled timer at the top of the
// heap must not wake it for nothing.
func TestNextDropsCancelledTimersAtTheTop(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	if _, ok := h.Next(); ok {
		t.Fatal("Next of an empty heap reported a deadline")
	}
	a := add(&h, &ran, 10, "a")
	b := add(&h, &ran, 20, "b")
	if w, ok := h.Next(); w != 10 || !ok {
		t.Fatalf("Next = %v, %v; want 10, true", w, ok)
	}
	a.Cancel()
	if w, ok := h.Next(); w != 20 || !ok {
		t.Fatalf("Next after cancelling the earliest = %v, %v; want 20, true", w, ok)
	}
	if h.Len() != 1 {
		t.Fatalf("Len = %d; want 1: Next drops the cancelled timers it finds at the top", h.Len())
	}
	b.Cancel()
	if _, ok := h.Next(); ok || h.Len() != 0 {
		t.Fatalf("Next after cancelling every timer: ok %v, Len %d; want false, 0", ok, h.Len())
	}
}

func TestCancelAfterItRanReturnsFalse(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	a := add(&h, &ran, 10, "a")
	if got := fire(&h, 10, &ran); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("Due ran %v; want [a]", got)
	}
	if a.Cancel() {
		t.Error("Cancel of a timer that has run returned true")
	}
}

// Due has taken both out of the heap; the first, running, cancels the
// second, which must then not run.
func TestCancelledByAnEarlierTimerOfTheSameTurn(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	var b *timerheap.Timer
	var cancelled bool
	h.Add(10, func() { ran = append(ran, "a"); cancelled = b.Cancel() })
	b = add(&h, &ran, 10, "b")
	due := h.Due(10)
	if len(due) != 2 {
		t.Fatalf("Due returned %d timers; want 2", len(due))
	}
	for _, tm := range due {
		tm.Run()
	}
	if !cancelled || !slices.Equal(ran, []string{"a"}) {
		t.Fatalf("b.Cancel() = %v and ran %v; want true and [a]", cancelled, ran)
	}
}

// Lazy, but bounded. The rule: when a Cancel leaves more than 100
// cancelled timers in the heap, and they are more than half of it, that
// Cancel sweeps them all out. This test checks Len after every Cancel
// against that rule, then that the heap is still in order.
func TestCancelledTimersAreSweptOutWhenTheyAreMost(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	rng := rand.New(rand.NewPCG(1, 2))
	var timers []*timerheap.Timer
	for i := range 1000 {
		timers = append(timers, add(&h, &ran, time.Duration(rng.IntN(500)), fmt.Sprint(i)))
	}
	order := rng.Perm(len(timers))
	held, cancelledHeld := 1000, 0
	for k, i := range order[:900] {
		if !timers[i].Cancel() {
			t.Fatalf("Cancel #%d returned false", k+1)
		}
		if cancelledHeld++; cancelledHeld > 100 && 2*cancelledHeld > held {
			held, cancelledHeld = held-cancelledHeld, 0
		}
		if h.Len() != held {
			t.Fatalf("after %d cancels Len = %d; want %d (sweep when more than 100 and more than half are cancelled, not before)",
				k+1, h.Len(), held)
		}
	}
	var want []string
	live := slices.Clone(order[900:])
	slices.SortFunc(live, func(a, b int) int {
		if wa, wb := timers[a].When(), timers[b].When(); wa != wb {
			return int(wa - wb)
		}
		return a - b
	})
	for _, i := range live {
		want = append(want, fmt.Sprint(i))
	}
	if got := fire(&h, 1000, &ran); !slices.Equal(got, want) {
		t.Fatalf("after the sweeps Due ran %d timers, %v...; want %d in deadline order, %v...",
			len(got), got[:min(5, len(got))], len(want), want[:5])
	}
}

// The sweep rule counts the cancelled timers *still in the heap*: those
// that Due or Next have dropped since are no longer there, and a timer
// that Due has already returned never was. This test runs a long random
// mix of Add, Cancel, Due and Next against a model of the heap, and checks
// Len and every Due against it: a count that only ever grows sweeps too
// early, and the heap comes out a different size.
func TestTheSweepCountsOnlyCancelledTimersInTheHeap(t *testing.T) {
	var h timerheap.Heap
	var ran []string
	rng := rand.New(rand.NewPCG(3, 4))
	type entry struct {
		t         *timerheap.Timer
		when      time.Duration
		seq       int
		cancelled bool
	}
	var in []*entry  // the model: what the heap holds, cancelled ones included
	var out []*entry // returned by Due and not run yet
	var now time.Duration
	seq, sweeps := 0, 0
	top := func() int { // the index in `in` of the heap's top
		best := -1
		for i, e := range in {
			if best < 0 || e.when < in[best].when || e.when == in[best].when && e.seq < in[best].seq {
				best = i
			}
		}
		return best
	}
	for op := range 4000 {
		// Phases of mostly adding, then mostly cancelling, so that the
		// cancelled timers become most of the heap now and then.
		r := rng.IntN(100)
		if op/400%2 == 1 {
			r = 40 + r*45/100 // no adds: cancels, Dues and Nexts
		}
		switch {
		case r < 45: // Add, mostly in the future
			seq++
			e := &entry{when: now + time.Duration(rng.IntN(300)), seq: seq}
			e.t = add(&h, &ran, e.when, fmt.Sprint(seq))
			in = append(in, e)
		case r < 85: // Cancel a timer in the heap, or one Due returned
			pool := in
			if len(out) > 0 && rng.IntN(4) == 0 {
				pool = out
			}
			if len(pool) == 0 {
				continue
			}
			e := pool[rng.IntN(len(pool))]
			if got := e.t.Cancel(); got == e.cancelled {
				t.Fatalf("op %d: Cancel of timer %d returned %v; want %v", op, e.seq, got, !e.cancelled)
			}
			e.cancelled = true
			if slices.Contains(in, e) {
				n := 0
				for _, x := range in {
					if x.cancelled {
						n++
					}
				}
				if n > 100 && 2*n > len(in) {
					in = slices.DeleteFunc(in, func(x *entry) bool { return x.cancelled })
					sweeps++
				}
			}
		case r < 95: // Due, then run what it returned
			now += time.Duration(rng.IntN(20))
			for _, e := range out {
				e.t.Run()
			}
			out = out[:0]
			for i := top(); i >= 0 && in[i].when <= now; i = top() {
				if !in[i].cancelled {
					out = append(out, in[i])
				}
				in = slices.Delete(in, i, i+1)
			}
			due := h.Due(now)
			same := len(due) == len(out)
			for i := 0; same && i < len(due); i++ {
				same = due[i] == out[i].t
			}
			if !same {
				t.Fatalf("op %d: Due(%d) returned %d timers; want %d, by deadline then in the order added", op, now, len(due), len(out))
			}
		default: // Next
			for i := top(); i >= 0 && in[i].cancelled; i = top() {
				in = slices.Delete(in, i, i+1)
			}
			w, ok := h.Next()
			if i := top(); ok != (i >= 0) || ok && w != in[i].when {
				t.Fatalf("op %d: Next = %d, %v; want the earliest deadline still armed", op, w, ok)
			}
		}
		switch {
		case h.Len() < len(in):
			t.Fatalf("op %d: Len = %d; want %d: a sweep came too early. Is the count of cancelled timers "+
				"lowered when Due or Next drop one, and left alone for a timer Due has already taken out?",
				op, h.Len(), len(in))
		case h.Len() > len(in):
			t.Fatalf("op %d: Len = %d; want %d: a sweep is missing, or came too late (sweep when more than "+
				"100 of the timers in the heap are cancelled, and more than half)", op, h.Len(), len(in))
		}
	}
	if sweeps == 0 {
		t.Fatal("the mix never reached a sweep: the test checks less than it says")
	}
	t.Logf("%d sweeps", sweeps)
}
