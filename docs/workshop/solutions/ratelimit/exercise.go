//go:build solution

package ratelimit

import (
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// Bucket is a token bucket for tasks on one loop.
type Bucket struct {
	clock   Clock
	burst   int
	every   time.Duration
	tokens  int
	waiters []*future.Future[struct{}] // FIFO; cancelled ones are skipped
	refill  *loop.Timer                // nil while the bucket is full
}

// NewBucket returns a full bucket of burst tokens that gains one token
// every interval.
func NewBucket(c Clock, burst int, every time.Duration) *Bucket {
	return &Bucket{clock: c, burst: burst, every: every, tokens: burst}
}

// Take takes a token, waiting for one if the bucket is empty.
func (b *Bucket) Take(y task.Yield) error {
	if b.tokens > 0 && !b.waiting() {
		b.tokens--
		b.arm()
		return nil
	}
	f := future.New[struct{}](b.clock)
	b.waiters = append(b.waiters, f)
	b.arm()
	if _, err := task.Await(y, f); err != nil {
		if f.Done() && !f.Cancelled() {
			// Add handed us a token, and then our task was cancelled
			// before it could resume: the token belongs to the next one.
			b.Add(1)
		}
		return err
	}
	return nil // the token was handed over by Add
}

// Add adds n tokens: to the waiters first, the rest into the bucket.
func (b *Bucket) Add(n int) {
	for ; n > 0; n-- {
		if f := b.nextWaiter(); f != nil {
			f.SetResult(struct{}{})
		} else if b.tokens < b.burst {
			b.tokens++
		}
	}
	b.arm()
}

// Tokens is the number of tokens in the bucket now.
func (b *Bucket) Tokens() int { return b.tokens }

// nextWaiter removes and returns the first waiter still waiting.
func (b *Bucket) nextWaiter() *future.Future[struct{}] {
	for len(b.waiters) > 0 {
		f := b.waiters[0]
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		if !f.Done() { // a cancelled waiter's place is simply skipped
			return f
		}
	}
	return nil
}

func (b *Bucket) waiting() bool {
	for _, f := range b.waiters {
		if !f.Done() {
			return true
		}
	}
	return false
}

// arm starts the refill timer unless it runs already or the bucket is
// full with nobody waiting.
func (b *Bucket) arm() {
	if b.refill != nil || (b.tokens >= b.burst && !b.waiting()) {
		return
	}
	b.refill = b.clock.CallLater(b.every, func() {
		b.refill = nil
		b.Add(1) // re-arms if there is still room
	})
}
