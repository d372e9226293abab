//go:build workshop

package handback_test

import (
	"sync/atomic"
	"testing"
	"time"

	"loopkit/docs/workshop/handback"
	"loopkit/docs/workshop/internal/wstest"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// watched is the loop, seeing from where the future's callbacks are
// scheduled: a future completed on the loop schedules them inside a
// callback posted with CallSoonThreadsafe; completed from fn's goroutine,
// outside any.
type watched struct {
	*loop.Loop
	inPost   atomic.Bool
	offLoop  atomic.Int32 // CallSoon calls made outside any posted callback
	posts    atomic.Int32
	schedule atomic.Int32
}

func (w *watched) CallSoonThreadsafe(fn func()) error {
	w.posts.Add(1)
	return w.Loop.CallSoonThreadsafe(func() {
		w.inPost.Store(true)
		defer w.inPost.Store(false)
		fn()
	})
}

func (w *watched) CallSoon(fn func()) {
	w.scheduled()
	w.Loop.CallSoon(fn)
}

// Schedule is how a future on a loop schedules its callbacks.
func (w *watched) Schedule(r future.Runner) {
	w.scheduled()
	w.Loop.Schedule(r)
}

func (w *watched) scheduled() {
	w.schedule.Add(1)
	if !w.inPost.Load() {
		w.offLoop.Add(1)
	}
}

func TestTheResultComesBack(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		w := &watched{Loop: l}
		v, err := task.Await(y, handback.Offload(w, func() int { return 42 }))
		if v != 42 || err != nil {
			t.Errorf("Offload(fn returning 42) = %d, %v; want 42, nil", v, err)
		}
		return nil
	})
}

// fn waits until the test lets it go, which the test does once Offload has
// returned: run in Offload, fn would hold Offload, the loop and the test
// (until a guard lets it give up). Nor may fn run later on the loop, in
// the callback posted back: it says where it runs.
func TestFnRunsOffTheLoop(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		w := &watched{Loop: l}
		release := make(chan struct{})
		var onLoop atomic.Bool
		f := handback.Offload(w, func() int {
			onLoop.Store(w.inPost.Load())
			select {
			case <-release:
				return 1
			case <-time.After(wstest.HangGuard / 2):
				return -1 // nobody let it go: it held Offload
			}
		})
		close(release)
		if v, err := task.Await(y, f); v != 1 || err != nil {
			t.Errorf("Offload = %d, %v; want 1, nil: fn ran on the loop, in Offload, and held it until it gave up", v, err)
		}
		if onLoop.Load() {
			t.Errorf("fn ran on the loop, in the callback posted back to it: the loop did fn's work")
		}
		return nil
	})
}

// The future is completed inside the callback posted to the loop, not on
// fn's goroutine: completing it schedules its callbacks on the loop's
// ready queue, which only the loop's goroutine may touch.
func TestTheFutureIsCompletedOnTheLoop(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		w := &watched{Loop: l}
		f := handback.Offload(w, func() int { return 7 })
		task.Await(y, f)
		if w.posts.Load() == 0 || w.schedule.Load() == 0 || w.offLoop.Load() != 0 {
			t.Errorf("%d posts with CallSoonThreadsafe, %d callbacks scheduled, %d of them from off the loop; want a post, and none scheduled from off the loop",
				w.posts.Load(), w.schedule.Load(), w.offLoop.Load())
		}
		return nil
	})
}
