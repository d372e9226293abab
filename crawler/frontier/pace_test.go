package frontier

import (
	"testing"
	"time"
)

// Concurrency grows by one per round of successes up to --per_host, and
// halves on pushback, down to one: AIMD.
func TestPaceIsAIMD(t *testing.T) {
	p := newPace(8, 0)
	var limits []int
	for range 12 {
		p.succeeded()
		limits = append(limits, p.limit)
	}
	// One success to reach 2, two more to reach 3, three more to reach 4...
	want := []int{2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5}
	for i := range want {
		if limits[i] != want[i] {
			t.Fatalf("limits after each success %v, want %v", limits, want)
		}
	}
	p.pushedBack(p.epoch, 0)
	if p.limit != 2 {
		t.Fatalf("limit %d after pushback from 5, want 2", p.limit)
	}
	p.pushedBack(p.epoch, 0)
	p.pushedBack(p.epoch, 0)
	if p.limit != 1 {
		t.Fatalf("limit %d after three pushbacks, want 1", p.limit)
	}
}

// One burst of 429s is one congestion event: answers to requests sent
// before the slow-down do not slow the host down again.
func TestPaceReactsOncePerEpoch(t *testing.T) {
	p := newPace(8, 0)
	sent := p.epoch
	if !p.pushedBack(sent, 0) {
		t.Fatal("the first pushback was not a slow-down")
	}
	gap, limit := p.gap(), p.limit
	for range 5 {
		if p.pushedBack(sent, time.Millisecond) {
			t.Fatal("a second answer from the same burst slowed the host down again")
		}
	}
	if p.gap() != gap || p.limit != limit {
		t.Fatalf("gap %v limit %d, want %v %d", p.gap(), p.limit, gap, limit)
	}
	if gap != firstPushbackGap {
		t.Fatalf("the first pushback set the gap to %v, want %v", gap, firstPushbackGap)
	}
}

// After the first pushback the gap follows the rate the host served: two
// hundred milliseconds apart, a tenth more for margin.
func TestPaceLearnsTheServedRate(t *testing.T) {
	p := newPace(1, 0)
	p.pushedBack(p.epoch, 0)
	for range 20 {
		p.succeeded()
	}
	p.extra = 100 * time.Millisecond // as if probing had gone too far
	p.pushedBack(p.epoch, 4*time.Second)
	if want := 220 * time.Millisecond; p.gap() != want {
		t.Fatalf("gap %v after 20 successes in 4 s, want %v", p.gap(), want)
	}
}

// More than 5 % failures among the last outcomes is pushback too.
func TestPaceErrorRate(t *testing.T) {
	p := newPace(8, 0)
	for range errorWindow - 2 {
		p.succeeded()
	}
	if p.failed(0) {
		t.Fatal("one failure in thirty slowed the host down")
	}
	before := p.limit
	if !p.failed(0) {
		t.Fatal("two failures in thirty did not slow the host down")
	}
	if p.limit != before/2 || p.gap() != firstPushbackGap {
		t.Fatalf("limit %d gap %v after the error rate passed 5 %%", p.limit, p.gap())
	}
}

// The spacing --delay and Crawl-delay set is a floor pushback only adds to.
func TestPaceKeepsTheDelayFloor(t *testing.T) {
	p := newPace(4, 2*time.Second)
	p.setDelay(time.Second) // a shorter Crawl-delay does not lower it
	if p.gap() != 2*time.Second {
		t.Fatalf("gap %v", p.gap())
	}
	p.pushedBack(p.epoch, 0)
	for range 200 {
		p.succeeded()
	}
	if p.gap() < 2*time.Second {
		t.Fatalf("probing took the gap to %v, under the delay", p.gap())
	}
}

// Pushback after pushback doubles the spacing, up to maxPushbackGap and
// no further: a server that keeps refusing is asked every thirty seconds,
// not once a fortnight.
func TestPushbackSpacingIsCapped(t *testing.T) {
	p := newPace(1, 0)
	for i := range 20 {
		p.pushedBack(p.epoch, time.Duration(i)*time.Second)
	}
	if p.gap() != maxPushbackGap {
		t.Fatalf("gap %v after 20 pushbacks, want the cap, %v", p.gap(), maxPushbackGap)
	}
}

// Successes after a pushback probe the spacing down, but never below
// minPushbackGap: a server that pushed back once is never sent requests
// in a burst again.
func TestProbingStopsAtTheLeastSpacing(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	for range 1000 {
		p.succeeded()
	}
	if p.gap() != minPushbackGap {
		t.Fatalf("gap %v after a pushback and 1000 successes, want %v", p.gap(), minPushbackGap)
	}
}

// Once the failure rate has slowed a server down, the next window is
// judged afresh: the failures that already counted do not count again,
// and one more failure alone is bad luck.
func TestFailuresAreJudgedOncePerWindow(t *testing.T) {
	p := newPace(8, 0)
	for range errorWindow - 2 {
		p.succeeded()
	}
	p.failed(0)
	if !p.failed(0) {
		t.Fatal("two failures in thirty did not slow the host down")
	}
	gap := p.gap()
	if p.failed(time.Second) || p.gap() != gap {
		t.Fatalf("a third failure, the first of a new window, slowed the host again (gap %v, was %v)", p.gap(), gap)
	}
}

// The failure rate is judged over exactly the last thirty outcomes, with
// numbers written out so that a changed window is seen: a failure thirty
// outcomes back still counts, one thirty-one back no longer does. And
// the first pushback's spacing is half a second.
func TestTheErrorWindowIsThirtyOutcomes(t *testing.T) {
	for _, tc := range []struct {
		between int
		slows   bool
	}{{28, true}, {29, false}} {
		p := newPace(8, 0)
		p.failed(0)
		for range tc.between {
			p.succeeded()
		}
		if got := p.failed(0); got != tc.slows {
			t.Errorf("a failure, %d successes, a failure: slowed %v, want %v", tc.between, got, tc.slows)
		}
		if tc.slows && p.gap() != 500*time.Millisecond {
			t.Errorf("gap %v after the first pushback, want 500ms", p.gap())
		}
	}
}

// One failure in a full window of thirty is bad luck, not pushback.
func TestOneFailureInAFullWindowIsNoPushback(t *testing.T) {
	p := newPace(8, 0)
	for range 29 {
		p.succeeded()
	}
	if p.failed(0) {
		t.Fatal("one failure after 29 successes slowed the host down")
	}
}

// A refusal of a request with a negative try count (never made by the
// crawler, but an Item is plain data) holds its server the least, one
// second, as one never tried before.
func TestARefusalWithNegativeTriesHoldsASecond(t *testing.T) {
	if got := refusalHold(-1); got != time.Second {
		t.Fatalf("refusalHold(-1) = %v, want 1s", got)
	}
	if got := refusalHold(4); got != 16*time.Second {
		t.Fatalf("refusalHold(4) = %v, want 16s", got)
	}
}
