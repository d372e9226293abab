package task_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/task"
)

// Every primitive wakes its waiters in the order they began to wait:
// five tasks park one after another, the primitive is released, and they
// must come through in that order.
func TestWaitersAreWokenFirstInFirstOut(t *testing.T) {
	type primitive struct {
		wait    func(y task.Yield, i int) (int, error) // returns what task i got
		release func()
	}
	cases := map[string]func() primitive{
		"Semaphore": func() primitive {
			s := task.NewSemaphore(0)
			return primitive{func(y task.Yield, i int) (int, error) { return i, s.Acquire(y) },
				func() {
					for range 5 {
						s.Release()
					}
				}}
		},
		"Lock": func() primitive {
			lk := task.NewLock()
			lk.TryLock()
			return primitive{func(y task.Yield, i int) (int, error) {
				if err := lk.Lock(y); err != nil {
					return 0, err
				}
				return i, lk.Unlock()
			}, func() { lk.Unlock() }}
		},
		"Queue.Get": func() primitive {
			q := task.NewQueue[int](0)
			return primitive{func(y task.Yield, i int) (int, error) {
				item, err := q.Get(y)
				if item != i {
					return 100 + item, err // task i got another's item
				}
				return i, err
			},
				func() {
					for i := range 5 {
						q.PutNowait(i)
					}
				}}
		},
		"Event": func() primitive {
			var e task.Event
			return primitive{func(y task.Yield, i int) (int, error) { return i, e.Wait(y) }, e.Set}
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			l := newLoop(t)
			p := setup()
			var order []int
			var waiting []future.Awaitable[int]
			for i := range 5 {
				waiting = append(waiting, task.Spawn(l, func(y task.Yield) (int, error) {
					got, err := p.wait(y, i)
					order = append(order, got)
					return got, err
				}))
			}
			l.CallLater(5*time.Millisecond, p.release)
			gathered := task.Spawn(l, func(y task.Yield) ([]task.Outcome[int], error) {
				return task.Gather(y, waiting...)
			})
			runUntilDone(t, l, gathered)
			if !slices.Equal(order, []int{0, 1, 2, 3, 4}) {
				t.Fatalf("waiters came through in the order %v", order)
			}
		})
	}
}

// Put on a full queue waits in line as well: blocked producers add their
// items in the order they began to wait.
func TestBlockedPutsAreServedFirstInFirstOut(t *testing.T) {
	l := newLoop(t)
	q := task.NewQueue[string](1)
	q.PutNowait("first")
	var putters []future.Awaitable[int]
	for i := range 5 {
		putters = append(putters, task.Spawn(l, func(y task.Yield) (int, error) {
			return 0, q.Put(y, fmt.Sprint(i))
		}))
	}
	got := task.Spawn(l, func(y task.Yield) ([]string, error) {
		if err := task.Pause(y); err != nil { // let the putters park
			return nil, err
		}
		var items []string
		for range 6 {
			item, err := q.Get(y)
			if err != nil {
				return nil, err
			}
			items = append(items, item)
		}
		_, err := task.Gather(y, putters...)
		return items, err
	})
	runUntilDone(t, l, got)
	if items, _ := got.Result(); !slices.Equal(items, []string{"first", "0", "1", "2", "3", "4"}) {
		t.Fatalf("items came out as %v", items)
	}
}

// Join waits for every item put to be marked done — not for the queue to
// be empty: items that were taken but not finished keep it waiting.
func TestQueueJoinWaitsForEveryTaskDone(t *testing.T) {
	l := newLoop(t)
	q := task.NewQueue[int](0)
	done := 0
	consumer := task.Spawn(l, func(y task.Yield) (int, error) {
		for range 3 {
			if _, err := q.Get(y); err != nil {
				return 0, err
			}
			if err := task.Sleep(y, time.Millisecond); err != nil { // working on it
				return 0, err
			}
			done++
			q.TaskDone()
		}
		return 0, nil
	})
	joiner := task.Spawn(l, func(y task.Yield) (int, error) {
		for i := range 3 {
			q.PutNowait(i)
		}
		err := q.Join(y)
		return done, err
	})
	runUntilDone(t, l, joiner)
	if doneAtJoin, err := joiner.Result(); err != nil || doneAtJoin != 3 || q.Unfinished() != 0 {
		t.Fatalf("Join returned after %d of 3 TaskDone calls (%v)", doneAtJoin, err)
	}
	runUntilDone(t, l, consumer)
}
