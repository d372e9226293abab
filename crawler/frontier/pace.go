package frontier

import "time"

// pace is how hard the crawler may press one server (server.go), and how
// it adapts when the server pushes back: AIMD, the rule TCP uses for its
// congestion window, and what the million-pages article calls the "pain
// reflex".
//
//   - Concurrency starts at one request in flight and grows by one per
//     success until the first pushback (TCP's slow start: it doubles each
//     round trip), then by one per round of successes (additive
//     increase), up to --per_host. A pushback halves it, down to one
//     (multiplicative decrease).
//   - Spacing between request starts is --delay, or the host's
//     Crawl-delay if that is longer, plus an extra that pushback adds.
//     A server that rate-limits answers fast, so concurrency alone does not
//     slow a crawler down against it; spacing does. The first pushback
//     sets the extra to firstPushbackGap (or doubles what there was);
//     later ones set the gap from the rate the host actually served since
//     the first pushback, which is its real limit because the crawler was
//     above it.
//   - The extra decays as the host answers normally: every run of
//     successes shrinks it, by a step that grows while the host keeps
//     answering well (quick far from the gap where it pushed back,
//     careful near it), to find out whether the host would take more.
//     The floor, --delay or Crawl-delay, never decays.
//   - Pushback is a 429 or a 503, or more than 5 % failures among the
//     host's last outcomes. One burst of 429s is one congestion event: a
//     request sent before the last slow-down carries an older epoch and
//     does not slow the host down again (TCP reacts once per window). A
//     retry refused again is no congestion event either (server.go).
//
// Production crawlers do more (Scrapy's AutoThrottle targets a latency,
// Heritrix scales its delay by the last fetch time); this is the smallest
// rule that keeps a rate-limited host's 429s rare and its pages flowing.
type pace struct {
	limit    int           // requests in flight allowed now: 1..maxLimit
	maxLimit int           // --per_host
	delay    time.Duration // the floor: --delay, or Crawl-delay if longer
	extra    time.Duration // spacing added by pushback, on top of delay
	okRun    int           // successes since the last pushback
	round    int           // successes since limit last grew
	probe    time.Duration // how much the next probe takes off the gap, in percent
	tooFast  time.Duration // the gap in force at the last pushback
	epoch    int           // bumped by every slow-down

	firstPush time.Duration // loop time of the first pushback; -1 before
	servedOK  int           // successes since the first pushback

	outcomes [errorWindow]bool // true: a failure; a ring over the last outcomes
	next     int               // where the next outcome goes
	seen     int               // outcomes recorded, up to errorWindow
}

const (
	// firstPushbackGap is the spacing a host with none gets when it
	// first pushes back: ten requests a second, a rate most rate limits
	// allow, and a tenth of what an unspaced crawler sends.
	firstPushbackGap = 500 * time.Millisecond
	// minPushbackGap is as close as a host that once pushed back gets
	// to unspaced again: 200 requests a second, and no bursts.
	minPushbackGap = 5 * time.Millisecond
	// maxPushbackGap caps the spacing pushback can build up, and the hold
	// after a refusal.
	maxPushbackGap = 30 * time.Second
	// refusalHoldBase is the least a server that answered 429 or 503 is
	// left alone: "too much, too fast" with no Retry-After says nothing of
	// how long, and a second is the least a polite crawler waits.
	refusalHoldBase = time.Second
	// probeAfter successes in a row shrink the gap by a step that starts
	// at probeStep percent and doubles with each probe that draws no
	// pushback, up to half: careful near a limit just found (a probe that
	// finds it costs a 429), quick to recover when the host has room.
	probeAfter = 5
	probeStep  = 10
	// errorWindow outcomes are kept; more than 5 % failures among them is
	// pushback (two of thirty: one failure alone is bad luck).
	errorWindow = 30
)

// refusalHold is how long a server is left alone after a 429 or a 503 to
// a request that had been tried tries times before: a second, doubled for
// each earlier try, at most maxPushbackGap — as long as the request's own
// retry waits (the crawler's rule). A Retry-After, if the server sent
// one, holds it too (the crawler's), and the longer wins.
func refusalHold(tries int32) time.Duration {
	return min(refusalHoldBase<<min(max(tries, 0), 5), maxPushbackGap)
}

func newPace(perHost int, delay time.Duration) pace {
	return pace{limit: 1, maxLimit: perHost, delay: delay, firstPush: -1}
}

// gap is the spacing between two request starts now.
func (p *pace) gap() time.Duration { return p.delay + p.extra }

// setDelay raises the floor (a Crawl-delay longer than --delay).
func (p *pace) setDelay(d time.Duration) { p.delay = max(p.delay, d) }

// succeeded notes an answer that was not pushback.
func (p *pace) succeeded() {
	p.note(false)
	if p.firstPush >= 0 {
		p.servedOK++
	}
	p.okRun++
	if p.round++; p.round >= p.limit {
		p.limit = min(p.limit+1, p.maxLimit) // one more per round of successes
		p.round = 0
	}
	hurry := p.gap() > 2*p.tooFast // far from where it hurt
	if p.extra > minPushbackGap && (p.okRun%probeAfter == 0 || hurry && p.okRun%2 == 0) {
		p.extra = max(p.extra-p.gap()*p.probe/100, minPushbackGap)
		if hurry {
			p.probe = min(2*p.probe, 50)
		} else {
			p.probe = probeStep
		}
	}
}

// refusedAgain notes a retry pushed back again: it changes no pace, but
// the probing for a faster one starts over.
func (p *pace) refusedAgain() { p.okRun, p.probe = 0, probeStep }

// failed notes a failure (a network error, a timeout, a 5xx other than
// 503) and reports whether the host's failure rate makes it pushback.
func (p *pace) failed(now time.Duration) bool {
	p.note(true)
	if p.seen < errorWindow || p.failures()*100 <= 5*errorWindow {
		return false
	}
	p.outcomes, p.seen = [errorWindow]bool{}, 0 // judge the next window afresh
	return p.pushedBack(p.epoch, now)
}

// pushedBack slows the host down, once per congestion event: sentEpoch
// is the epoch of the request that drew the pushback. It reports whether
// this was a new event.
func (p *pace) pushedBack(sentEpoch int, now time.Duration) bool {
	if sentEpoch != p.epoch {
		return false // sent before the last slow-down: already answered
	}
	p.epoch++
	p.okRun, p.probe = 0, probeStep
	p.limit, p.round = max(1, p.limit/2), 0
	old := p.gap()
	slowest := max(2*old, firstPushbackGap)
	next := slowest
	p.tooFast = old
	if p.firstPush < 0 {
		p.firstPush = now
	} else if elapsed := now - p.firstPush; p.servedOK > 0 && elapsed > 0 {
		// Since the first pushback the crawler has asked faster than the
		// host serves, so what it served is its rate. Go a tenth below
		// it, but no slower than twice the gap that failed (or the first
		// pushback's gap) and no faster than a tenth above it.
		served := elapsed / time.Duration(p.servedOK)
		next = min(max(served*11/10, old*11/10), slowest)
		p.tooFast = max(old, min(served, slowest)) // the host's own pace is where it hurts
	}
	p.extra = min(max(next-p.delay, 0), maxPushbackGap)
	return true
}

func (p *pace) note(failure bool) {
	p.outcomes[p.next] = failure
	p.next = (p.next + 1) % errorWindow
	p.seen = min(p.seen+1, errorWindow)
}

func (p *pace) failures() int {
	n := 0
	for _, f := range p.outcomes {
		if f {
			n++
		}
	}
	return n
}
