package ratelimit

import (
	"errors"
	"time"

	"loopkit/task"
)

// Bucket is a token bucket for tasks on one loop.
type Bucket struct {
	// TODO: the clock, the size and interval, the tokens, a FIFO of
	// waiters (one future each), and the refill timer.
}

// NewBucket returns a full bucket of burst tokens that gains one token
// every interval.
func NewBucket(c Clock, burst int, every time.Duration) *Bucket {
	return &Bucket{}
}

// Take takes a token, waiting for one if the bucket is empty.
func (b *Bucket) Take(y task.Yield) error {
	// TODO: take a token if there is one and nobody is waiting; else park
	// a future in the FIFO, await it, and handle cancellation.
	return errors.New("ratelimit: Take is not written yet")
}

// Add adds n tokens: to the waiters first, the rest into the bucket.
func (b *Bucket) Add(n int) {
	// TODO
}

// Tokens is the number of tokens in the bucket now.
func (b *Bucket) Tokens() int {
	return 0 // TODO
}
