//go:build workshop

package event_test

import (
	"testing"

	"loopkit/docs/workshop/event"
	"loopkit/docs/workshop/internal/wstest"
	"loopkit/loop"
	"loopkit/task"
)

func TestSetWakesEveryWaiter(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		e := event.New(l)
		a, b, c := e.Wait(), e.Wait(), e.Wait()
		wstest.Turns(y, 1)
		if a.Done() || b.Done() || c.Done() {
			t.Errorf("a waiter woke before Set")
			return nil
		}
		e.Set()
		if !e.IsSet() || !a.Done() || !b.Done() || !c.Done() {
			t.Errorf("after Set: set %v, waiters done %v %v %v; want all true", e.IsSet(), a.Done(), b.Done(), c.Done())
		}
		if !e.Wait().Done() {
			t.Errorf("a Wait after Set is not done at once")
		}
		return nil
	})
}

// A waiter that gave up cancelled its future: Set must not complete it
// again (a future completed twice panics, and wstest fails the test).
func TestACancelledWaiterIsSkipped(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		e := event.New(l)
		gaveUp, stays := e.Wait(), e.Wait()
		gaveUp.Cancel()
		e.Set()
		if !stays.Done() || stays.Err() != nil {
			t.Errorf("the waiter after the cancelled one: done %v, err %v; want woken", stays.Done(), stays.Err())
		}
		return nil
	})
}

// Woken once means forgotten: after a Clear, a second Set wakes the new
// waiters and no old one again.
func TestASecondSetWakesNobodyTwice(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		e := event.New(l)
		first := e.Wait()
		e.Set()
		e.Clear()
		second := e.Wait()
		if second.Done() {
			t.Errorf("a Wait after Clear is done at once")
			return nil
		}
		e.Set() // completing first again would panic
		if !first.Done() || !second.Done() {
			t.Errorf("after the second Set: first done %v, second done %v; want both", first.Done(), second.Done())
		}
		return nil
	})
}

// A woken waiter is forgotten: an event that lives as long as the crawl
// does not keep every future it ever handed out — not in its list, nor in
// the array under it (event.Waiting counts both).
func TestSetLetsGoOfTheWaitersItWoke(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		e := event.New(l)
		for range 3 {
			e.Wait()
		}
		e.Set()
		if n := event.Waiting(e); n != 0 {
			t.Errorf("after Set, the event keeps %d futures; want 0", n)
		}
		return nil
	})
}
