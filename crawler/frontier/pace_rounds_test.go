package frontier

import (
	"testing"
	"time"
)

// After a pushback, growth starts a new round: the successes counted
// toward the old limit do not count toward the halved one.
func TestAPushbackStartsANewRound(t *testing.T) {
	p := newPace(8, 0)
	for range 12 { // limit 5, and two successes into the next round
		p.succeeded()
	}
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	if p.limit != 2 {
		t.Fatalf("limit %d one success after a pushback to 2, want 2: a round of 2 has not passed", p.limit)
	}
	p.succeeded()
	if p.limit != 3 {
		t.Fatalf("limit %d after a round of 2, want 3", p.limit)
	}
}

// The failure rate is judged on a full window only: two failures as the
// first outcomes are bad luck, not yet pushback.
func TestFailuresBeforeAFullWindowAreNoPushback(t *testing.T) {
	p := newPace(8, 0)
	for i := range errorWindow - 1 {
		if p.failed(time.Duration(i)) {
			t.Fatalf("outcome %d of %d, all failures, slowed the host down", i+1, errorWindow-1)
		}
	}
	if !p.failed(time.Second) {
		t.Fatal("a window of failures did not slow the host down")
	}
}

// A probe never takes off more than half of the gap at once: far from
// where it hurt it hurries, doubling its step, but never past half.
func TestAProbeTakesAtMostHalfTheGap(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	for range 100 {
		before := p.gap()
		p.succeeded()
		if after := p.gap(); after < before/2 {
			t.Fatalf("one success took the gap from %v to %v: more than half", before, after)
		}
	}
}

// A retry refused again starts the probing over: the next probe waits
// for a new run of successes, not for the rest of the old one.
func TestARefusalAgainStartsTheProbingOver(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	for range 4 {
		p.succeeded()
	}
	p.refusedAgain()
	gap := p.gap()
	p.succeeded()
	if p.gap() != gap {
		t.Fatalf("the first success after a refusal again probed: gap %v, was %v", p.gap(), gap)
	}
}

// Far above the gap at which the host last pushed back (here, because a
// Crawl-delay raised the floor past it), probing hurries: every second
// success probes, not every fifth.
func TestProbingHurriesFarFromWhereItHurt(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	p.pushedBack(p.epoch, 10*time.Millisecond) // at 500ms: tooFast is 500ms
	p.setDelay(2 * time.Second)                // the gap is now over four times that
	gap := p.gap()
	p.succeeded()
	p.succeeded()
	if p.gap() >= gap {
		t.Fatalf("gap %v after two successes far from where it hurt, was %v: no probe yet", p.gap(), gap)
	}
}
