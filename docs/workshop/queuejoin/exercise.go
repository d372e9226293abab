package queuejoin

import (
	"errors"

	"loopkit/task"
)

var errNotWritten = errors.New("queuejoin: not written yet")

// Queue is an unbounded FIFO queue for tasks on one loop, with the join
// protocol: every Put adds an unfinished item, every TaskDone finishes
// one, and Join waits until none is left.
type Queue[T any] struct {
	// TODO: the items, the getters waiting (a future each), the count of
	// unfinished items, and what Join waits on (a task.Event will do).
}

// New returns an empty queue.
func New[T any]() *Queue[T] {
	return &Queue[T]{}
}

// Put adds item at the back. It never waits: the queue has no bound.
func (q *Queue[T]) Put(item T) {
	// TODO
}

// Get removes and returns the item at the front, waiting while there is
// none. A task cancelled while it waits returns the cancellation, and
// takes nothing.
func (q *Queue[T]) Get(y task.Yield) (T, error) {
	var zero T
	return zero, errNotWritten // TODO
}

// TaskDone marks one item taken with Get as fully processed.
func (q *Queue[T]) TaskDone() error {
	return errNotWritten // TODO
}

// Join waits until every item put has been marked done.
func (q *Queue[T]) Join(y task.Yield) error {
	return errNotWritten // TODO
}

// Len is the number of items in the queue.
func (q *Queue[T]) Len() int {
	return 0 // TODO
}

// Unfinished is the number of items put and not yet marked done.
func (q *Queue[T]) Unfinished() int {
	return 0 // TODO
}
