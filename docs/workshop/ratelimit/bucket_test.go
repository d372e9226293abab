//go:build workshop

package ratelimit_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/ratelimit"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// taker spawns a task that takes a token and then appends name to *order.
func taker(l *loop.Loop, b *ratelimit.Bucket, name string, order *[]string) *task.Task[struct{}] {
	return task.Spawn(l, func(y task.Yield) (struct{}, error) {
		if err := b.Take(y); err != nil {
			return struct{}{}, err
		}
		*order = append(*order, name)
		return struct{}{}, nil
	})
}

func TestFullBucketGivesBurstTokensAtOnce(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 3, time.Hour)
		for i := range 3 {
			if err := b.Take(y); err != nil {
				return fmt.Errorf("take %d of a full bucket of 3: %w", i+1, err)
			}
		}
		if b.Tokens() != 0 {
			t.Errorf("after 3 takes, %d tokens left; want 0", b.Tokens())
		}
		var order []string
		fourth := taker(l, b, "fourth", &order)
		wstest.Turns(y, 3)
		if fourth.Done() {
			t.Errorf("a fourth take succeeded with no token left (err %v)", fourth.Err())
		}
		b.Add(1)
		if _, err := task.Await(y, fourth); err != nil {
			t.Errorf("the fourth take, after Add(1): %v", err)
		}
		return nil
	})
}

func TestWaitersAreServedInOrderAndNobodyJumpsTheQueue(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 1, time.Hour)
		if err := b.Take(y); err != nil {
			return err
		}
		var order []string
		var waiters []future.Awaitable[struct{}]
		for i := range 4 {
			waiters = append(waiters, taker(l, b, fmt.Sprint("w", i), &order))
		}
		wstest.Turns(y, 3) // all four are waiting now
		// The token added now is w0's. This task asks for one right after,
		// before w0 has even woken up: it must queue behind w1..w3, not
		// take w0's token from under it.
		b.Add(1)
		feeder := task.Spawn(l, func(y task.Yield) (struct{}, error) {
			wstest.Turns(y, 3)
			b.Add(4)
			return struct{}{}, nil
		})
		if err := b.Take(y); err != nil {
			return err
		}
		order = append(order, "late")
		if _, err := task.Gather(y, append(waiters, feeder)...); err != nil {
			return err
		}
		if want := []string{"w0", "w1", "w2", "w3", "late"}; !slices.Equal(order, want) {
			t.Errorf("tokens went to %v, want %v", order, want)
		}
		return nil
	})
}

func TestCancelledWaiterConsumesNoToken(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 1, time.Hour)
		if err := b.Take(y); err != nil {
			return err
		}
		var order []string
		w0, w1, w2 := taker(l, b, "w0", &order), taker(l, b, "w1", &order), taker(l, b, "w2", &order)
		wstest.Turns(y, 3)
		w1.Cancel()
		wstest.Turns(y, 2)
		b.Add(2) // one for w0, one for w2: none for the cancelled w1
		task.Gather[struct{}](y, w0, w1, w2)
		if !errors.Is(w1.Err(), future.ErrCancelled) {
			t.Errorf("the cancelled waiter's Take returned %v, want a cancellation", w1.Err())
		}
		if want := []string{"w0", "w2"}; !slices.Equal(order, want) {
			t.Errorf("tokens went to %v, want %v", order, want)
		}
		if b.Tokens() != 0 {
			t.Errorf("%d tokens left over; want 0", b.Tokens())
		}
		return nil
	})
}

func TestTokenHandedToACancelledWaiterIsPassedOn(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 1, time.Hour)
		if err := b.Take(y); err != nil {
			return err
		}
		var order []string
		w0, w1 := taker(l, b, "w0", &order), taker(l, b, "w1", &order)
		wstest.Turns(y, 3)
		// In one callback: the token goes to w0, then w0 is cancelled
		// before it can resume. Its Take fails, and the token must reach w1.
		b.Add(1)
		w0.Cancel()
		task.Gather[struct{}](y, w0, w1)
		if !errors.Is(w0.Err(), future.ErrCancelled) {
			t.Errorf("w0's Take returned %v, want a cancellation", w0.Err())
		}
		if w1.Err() != nil || !slices.Equal(order, []string{"w1"}) {
			t.Errorf("tokens went to %v (w1: %v); want [w1]: the token w0 could not use is lost", order, w1.Err())
		}
		return nil
	})
}

// The same, with nobody behind the cancelled waiter: its token goes back
// into the bucket.
func TestTokenOfACancelledLastWaiterGoesBackIntoTheBucket(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 1, time.Hour)
		if err := b.Take(y); err != nil {
			return err
		}
		var order []string
		w0 := taker(l, b, "w0", &order)
		wstest.Turns(y, 3)
		b.Add(1)
		w0.Cancel()
		task.Await[struct{}](y, w0)
		if !errors.Is(w0.Err(), future.ErrCancelled) || len(order) != 0 {
			t.Errorf("w0's Take returned %v, and tokens went to %v; want a cancellation, and nobody", w0.Err(), order)
		}
		wstest.Turns(y, 2)
		if b.Tokens() != 1 {
			t.Errorf("the bucket holds %d tokens; want 1: the token w0 could not use is lost", b.Tokens())
		}
		return nil
	})
}

func TestBucketNeverHoldsMoreThanBurst(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 2, time.Hour)
		b.Add(10)
		if b.Tokens() != 2 {
			t.Errorf("a bucket of 2 holds %d tokens after Add(10)", b.Tokens())
		}
		return nil
	})
}

// clock is the loop, counting the timers the bucket sets.
type clock struct {
	*loop.Loop
	timers int
}

func (c *clock) CallLater(d time.Duration, fn func()) *loop.Timer {
	c.timers++
	return c.Loop.CallLater(d, fn)
}

// A full bucket with nobody waiting has nothing to refill: it must not
// wake the loop every interval for nothing.
func TestOnlyABucketWithRoomSetsATimer(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		c := &clock{Loop: l}
		b := ratelimit.NewBucket(c, 2, time.Millisecond)
		task.Sleep(y, 5*time.Millisecond)
		if c.timers != 0 {
			t.Errorf("a full, idle bucket set %d timer(s); want none", c.timers)
		}
		if err := b.Take(y); err != nil {
			return err
		}
		// One token short: one refill, due in 1 ms, fills the bucket; a
		// full bucket re-arms nothing. The sleep's own timer is due later,
		// so the refill has certainly run by the time it ends.
		task.Sleep(y, 20*time.Millisecond)
		if b.Tokens() != 2 || c.timers != 1 {
			t.Errorf("after one take and a quiet spell: %d tokens, %d timer(s) set; want 2 tokens, 1 timer",
				b.Tokens(), c.timers)
		}
		return nil
	})
}

func TestTimerRefillsTheBucket(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		b := ratelimit.NewBucket(l, 1, time.Millisecond)
		for i := range 5 { // the first from the full bucket, four from the timer
			if err := b.Take(y); err != nil {
				return fmt.Errorf("take %d: %w", i+1, err)
			}
		}
		task.Sleep(y, 10*time.Millisecond)
		if b.Tokens() != 1 {
			t.Errorf("after a quiet spell the bucket holds %d tokens, want 1 (full)", b.Tokens())
		}
		return nil
	})
}
