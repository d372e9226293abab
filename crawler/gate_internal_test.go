package crawler

import (
	"testing"
	"time"
)

// A host that keeps answering 429 gets a growing extra spacing, capped,
// and loses it with its first other answer.
func TestRepeated429SlowsTheHostDown(t *testing.T) {
	g := newGate(4, 0, false)
	var got []time.Duration
	for range 7 {
		g.answered(429)
		got = append(got, g.penalty)
	}
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for i := range want {
		if got[i] != want[i]*time.Second {
			t.Fatalf("penalties %v, want %v seconds", got, want)
		}
	}
	g.answered(200)
	if g.penalty != 0 {
		t.Fatalf("penalty %v after a 200", g.penalty)
	}
}
