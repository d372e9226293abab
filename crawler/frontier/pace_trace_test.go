package frontier

import (
	"testing"
	"time"
)

// gaps runs n successes and returns the gap after each.
func gaps(p *pace, n int) []time.Duration {
	var out []time.Duration
	for range n {
		p.succeeded()
		out = append(out, p.gap())
	}
	return out
}

func sameGaps(t *testing.T, what string, got, want []time.Duration) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d gaps, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: gaps after each success %v, want %v", what, got, want)
		}
	}
}

// After a first pushback from no spacing at all, every gap is far from
// the one that hurt (none): every second success probes, the step starts
// at a tenth and doubles up to half, and the gap stops at 5ms.
func TestHurriedProbingTakesATenthThenDoublesToHalfDownToFiveMilliseconds(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	want := []time.Duration{
		ms(500), ms(450), ms(450), ms(360), ms(216), ms(108), ms(108), ms(54), ms(54),
		ms(27), ms(27), ms(13.5), ms(13.5), ms(6.75), ms(5), ms(5), ms(5), ms(5), ms(5), // the fifteenth probes too
	}
	sameGaps(t, "hurried probing", gaps(&p, len(want)), want)
}

// A gap exactly twice the one that hurt is not far from it: probing there
// is careful, a tenth off every fifth success.
func TestAGapTwiceWhereItHurtIsProbedCarefully(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.pushedBack(p.epoch, 0) // it hurt at 500ms; the gap is 1s
	s := time.Second
	ms := time.Millisecond
	want := []time.Duration{s, s, s, s, 900 * ms, 900 * ms, 900 * ms, 900 * ms, 900 * ms, 810 * ms}
	sameGaps(t, "careful probing", gaps(&p, len(want)), want)
}

// Two and a half times the gap that hurt is far: probing hurries, its
// step doubling; once near again, the step is back to a tenth.
func TestProbingHurriesAboveTwiceWhereItHurtAndStepsBackToATenth(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.pushedBack(p.epoch, 0)           // it hurt at 500ms; the gap is 1s
	p.setDelay(250 * time.Millisecond) // 1.25s
	ms := time.Millisecond
	want := []time.Duration{
		1250 * ms, 1125 * ms, 1125 * ms, // a tenth off at the second success
		900 * ms,                                         // a fifth off at the fourth
		540 * ms,                                         // near now: the fifth takes 40 %, then the step is a tenth again
		540 * ms, 540 * ms, 540 * ms, 540 * ms, 486 * ms, // a tenth off at the tenth
	}
	sameGaps(t, "hurry then care", gaps(&p, len(want)), want)
}

// A retry refused again sets the probe's step back to a tenth.
func TestARefusalAgainSetsTheProbeStepBackToATenth(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	gaps(&p, 4) // the step has grown to 40 %; the gap is 360ms
	p.refusedAgain()
	ms := time.Millisecond
	sameGaps(t, "after a refusal again", gaps(&p, 2), []time.Duration{360 * ms, 324 * ms})
}

// A pushback sets the probe's step back to a tenth too, and sets the gap
// a tenth above the rate the host served since the first pushback.
func TestAPushbackSetsTheProbeStepBackToATenth(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	gaps(&p, 4)                          // four served in 2s, the step grown to 40 %
	p.pushedBack(p.epoch, 2*time.Second) // served every 500ms: the gap is 550ms
	ms := time.Millisecond
	want := []time.Duration{550 * ms, 550 * ms, 550 * ms, 550 * ms, 495 * ms}
	sameGaps(t, "after a second pushback", gaps(&p, len(want)), want)
}

// A host that served faster than the gap that failed gets that gap and a
// tenth: the crawler does not go faster than where it was refused.
func TestAPushbackNeverGoesFasterThanATenthAboveTheGapThatFailed(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	p.pushedBack(p.epoch, time.Millisecond) // served in 1ms, refused at 500ms
	if want := 550 * time.Millisecond; p.gap() != want {
		t.Fatalf("gap %v, want %v", p.gap(), want)
	}
}

// A host that served slower than twice the gap that failed gets twice
// that gap, no more: one slow answer does not stall it.
func TestAPushbackNeverGoesSlowerThanTwiceTheGapThatFailed(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	p.pushedBack(p.epoch, 10*time.Second)
	if want := time.Second; p.gap() != want {
		t.Fatalf("gap %v, want %v", p.gap(), want)
	}
}

// A pushback at the very time of the first says nothing of a served rate
// (none elapsed): the gap doubles.
func TestAPushbackAtTheTimeOfTheFirstDoublesTheGap(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	p.pushedBack(p.epoch, 0)
	if want := time.Second; p.gap() != want {
		t.Fatalf("gap %v, want %v", p.gap(), want)
	}
}

// The pace that hurt is at most twice the gap that failed, however slowly
// the host served: above that a gap is far from it, and probing hurries.
func TestThePaceThatHurtIsCappedAtTwiceTheGapThatFailed(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	p.pushedBack(p.epoch, 10*time.Second) // served every 10s; the gap is 1s
	p.setDelay(1500 * time.Millisecond)   // 2.5s: over twice the 1s that is the cap
	ms := time.Millisecond
	sameGaps(t, "far from the capped pace", gaps(&p, 2), []time.Duration{2500 * ms, 2250 * ms})
}

// The pace that hurt is at least the gap that failed, however fast the
// host served: a gap a tenth above it is near, and probing is careful.
func TestThePaceThatHurtIsAtLeastTheGapThatFailed(t *testing.T) {
	p := newPace(4, 0)
	p.pushedBack(p.epoch, 0)
	p.succeeded()
	p.pushedBack(p.epoch, time.Millisecond) // served in 1ms, refused at 500ms: 550ms
	ms := time.Millisecond
	want := []time.Duration{550 * ms, 550 * ms, 550 * ms, 550 * ms, 495 * ms}
	sameGaps(t, "near the gap that failed", gaps(&p, len(want)), want)
}
