//go:build solution

package queuejoin

import (
	"loopkit/future"
	"loopkit/task"
)

// Queue is an unbounded FIFO queue for tasks on one loop, with the join
// protocol: every Put adds an unfinished item, every TaskDone finishes
// one, and Join waits until none is left.
type Queue[T any] struct {
	items      []T
	getters    []*future.Future[struct{}] // FIFO; cancelled ones are skipped
	unfinished int
	finished   task.Event // set while unfinished is 0
}

// New returns an empty queue. Nothing is unfinished, so Join returns at once.
func New[T any]() *Queue[T] {
	q := &Queue[T]{}
	q.finished.Set()
	return q
}

// Put adds item at the back and wakes the first getter still waiting.
func (q *Queue[T]) Put(item T) {
	q.items = append(q.items, item)
	q.unfinished++
	q.finished.Clear()
	q.wakeGetter()
}

// Get removes and returns the item at the front, waiting while there is
// none. A woken getter looks again: the queue is the truth, the wake-up
// only says "look".
func (q *Queue[T]) Get(y task.Yield) (T, error) {
	for len(q.items) == 0 {
		f := future.New[struct{}](y.Loop())
		q.getters = append(q.getters, f)
		if _, err := task.Await(y, f); err != nil {
			if f.Done() && !f.Cancelled() && len(q.items) > 0 {
				// Woken for an item, and cancelled before we could take
				// it: the wake-up belongs to the next getter.
				q.wakeGetter()
			}
			var zero T
			return zero, err
		}
	}
	item := q.items[0]
	var zero T
	q.items[0] = zero // let the queue's array forget it
	q.items = q.items[1:]
	return item, nil
}

// wakeGetter completes the first getter still waiting, if any.
func (q *Queue[T]) wakeGetter() {
	for len(q.getters) > 0 {
		f := q.getters[0]
		q.getters[0] = nil
		q.getters = q.getters[1:]
		if !f.Done() { // a cancelled getter's place is skipped
			f.SetResult(struct{}{})
			return
		}
	}
}

// TaskDone marks one item taken with Get as fully processed. The last one
// releases every Join.
func (q *Queue[T]) TaskDone() error {
	if q.unfinished == 0 {
		return ErrTooManyTaskDone
	}
	if q.unfinished--; q.unfinished == 0 {
		q.finished.Set()
	}
	return nil
}

// Join waits until every item put has been marked done: not merely taken,
// done — a worker processing an item may still put new ones.
func (q *Queue[T]) Join(y task.Yield) error { return q.finished.Wait(y) }

// Len is the number of items in the queue.
func (q *Queue[T]) Len() int { return len(q.items) }

// Unfinished is the number of items put and not yet marked done.
func (q *Queue[T]) Unfinished() int { return q.unfinished }
