package crawler

import (
	"math/rand/v2"
	"time"

	"loopkit/task"
)

// gate is the politeness of one host: how many requests may be in flight
// (a semaphore), how far apart their starts must be (spacing, from
// --delay or the host's Crawl-delay), and a not-before time set by
// Retry-After, which holds back every request to the host, not only the
// one that was told. A host that keeps answering 429 gets a growing extra
// spacing, and loses it with its first other answer.
type gate struct {
	slots     *task.Semaphore
	spacing   time.Duration
	jitter    bool
	nextStart time.Duration // loop time before which no request may start
	penalty   time.Duration // extra spacing after repeated 429s
}

// maxPenalty caps the 429 slow-down.
const maxPenalty = 30 * time.Second

func newGate(perHost int, spacing time.Duration, jitter bool) *gate {
	return &gate{slots: task.NewSemaphore(perHost), spacing: spacing, jitter: jitter}
}

// enter waits for a slot and for this request's start time. Start times
// are handed out in order (each one reserves the next), so concurrent
// requests to one host are spaced even when they all arrive at once.
func (g *gate) enter(y task.Yield) error {
	if err := g.slots.Acquire(y); err != nil {
		return err
	}
	now := y.Loop().Time()
	start := max(now, g.nextStart)
	gap := g.spacing + g.penalty
	if g.jitter && gap > 0 {
		gap += time.Duration(rand.Int64N(int64(gap)/2 + 1)) // up to +50%
	}
	g.nextStart = start + gap
	if wait := start - now; wait > 0 {
		if err := task.Sleep(y, wait); err != nil {
			g.slots.Release()
			return err
		}
	}
	return nil
}

func (g *gate) leave() { g.slots.Release() }

// holdUntil delays every later start to the host until at least t.
func (g *gate) holdUntil(t time.Duration) {
	g.nextStart = max(g.nextStart, t)
}

// answered adjusts the 429 penalty after a response.
func (g *gate) answered(status int) {
	if status == 429 {
		g.penalty = min(max(2*g.penalty, time.Second), maxPenalty)
	} else {
		g.penalty = 0
	}
}
