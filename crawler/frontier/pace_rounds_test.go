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

// After a second pushback the pace that hurt is the rate the host served,
// not the gap the crawler asked for: a gap under twice that rate is near
// where it hurt, and probing there stays careful (every fifth success)
// rather than hurrying (every second).
func TestThePaceThatHurtIsTheServedRate(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0) // the gap becomes 500ms
	p.succeeded()
	p.pushedBack(p.epoch, 800*time.Millisecond) // one answer in 800ms: the gap becomes 880ms
	p.setDelay(400 * time.Millisecond)          // 1.28s: over twice 500ms, under twice 800ms
	gap := p.gap()
	for i := range probeAfter - 1 {
		p.succeeded()
		if p.gap() != gap {
			t.Fatalf("success %d after the pushback probed (gap %v, was %v), though the gap is near the rate the host served", i+1, p.gap(), gap)
		}
	}
	p.succeeded()
	if want := gap - gap*probeStep/100; p.gap() != want {
		t.Fatalf("gap %v after %d successes, want one careful probe: %v", p.gap(), probeAfter, want)
	}
}

// Once probing comes near the pace that hurt, it is careful again: after
// the first careful probe, each takes off probeStep percent of the gap,
// not the large step probing had grown to while it hurried.
func TestProbingNearWhereItHurtTakesSmallSteps(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.pushedBack(p.epoch, 0)           // it hurt at 500ms; the gap is 1s
	p.setDelay(100 * time.Millisecond) // 1.1s: over twice 500ms, so probing hurries
	p.succeeded()
	p.succeeded() // a hurried probe: the gap is under twice 500ms now, and the step has grown
	for range probeAfter - 2 {
		p.succeeded() // then a careful probe, at the fifth success
	}
	for range probeAfter - 1 {
		p.succeeded()
	}
	gap := p.gap()
	p.succeeded() // the next careful probe
	if want := gap - gap*probeStep/100; p.gap() != want {
		t.Fatalf("a careful probe took the gap from %v to %v, want %v: a step of %d%%", gap, p.gap(), want, probeStep)
	}
}

// A pushback starts the run of successes toward the next probe over: the
// successes before it do not count, or the gap would shrink right after
// the host said it was too fast.
func TestAPushbackStartsTheProbingOver(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	for range 4 {
		p.succeeded()
	}
	p.pushedBack(p.epoch, 2*time.Second)
	gap := p.gap()
	for i := range probeAfter - 1 {
		p.succeeded()
		if p.gap() != gap {
			t.Fatalf("success %d after a pushback probed: gap %v, was %v", i+1, p.gap(), gap)
		}
	}
}
