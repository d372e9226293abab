package task

import "errors"

var (
	// ErrQueueFull is PutNowait's error on a full queue.
	ErrQueueFull = errors.New("task: queue full")
	// ErrQueueEmpty is GetNowait's error on an empty queue.
	ErrQueueEmpty = errors.New("task: queue empty")
	// ErrTooManyTaskDone says TaskDone was called more often than items were put.
	ErrTooManyTaskDone = errors.New("task: TaskDone called more times than there were items")
)

// Queue is a FIFO queue for tasks (asyncio.Queue), with the 500-lines
// chapter's join protocol: every Put adds an unfinished item, every
// TaskDone finishes one, and Join waits until none are left — which is how
// the crawler knows the crawl is over.
//
// With a max size, Put waits while the queue is full. That is backpressure:
// a producer faster than its consumers is slowed down instead of filling
// memory.
type Queue[T any] struct {
	items      []T
	head       int
	maxSize    int // 0: unbounded
	getters    waiters
	putters    waiters
	unfinished int
	finished   Event
}

// NewQueue returns a queue holding at most maxSize items (0: no limit).
func NewQueue[T any](maxSize int) *Queue[T] {
	q := &Queue[T]{maxSize: maxSize}
	q.finished.Set()
	return q
}

// Len is the number of items in the queue.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Full reports whether Put would wait.
func (q *Queue[T]) Full() bool { return q.maxSize > 0 && q.Len() >= q.maxSize }

// Unfinished is the number of items put and not yet marked done.
func (q *Queue[T]) Unfinished() int { return q.unfinished }

// Put adds item, waiting while the queue is full.
func (q *Queue[T]) Put(y Yield, item T) error {
	for q.Full() {
		f := q.putters.park(y)
		if _, err := Await(y, f); err != nil {
			if granted(f) && !q.Full() {
				q.putters.wakeFirst() // our turn came; give it to the next
			}
			return err
		}
	}
	return q.PutNowait(item)
}

// PutNowait adds item or returns ErrQueueFull.
func (q *Queue[T]) PutNowait(item T) error {
	if q.Full() {
		return ErrQueueFull
	}
	q.items = append(q.items, item)
	q.unfinished++
	q.finished.Clear()
	q.getters.wakeFirst()
	return nil
}

// Get removes and returns the first item, waiting while the queue is empty.
func (q *Queue[T]) Get(y Yield) (T, error) {
	for q.Len() == 0 {
		f := q.getters.park(y)
		if _, err := Await(y, f); err != nil {
			if granted(f) && q.Len() > 0 {
				q.getters.wakeFirst() // an item came for us; give it on
			}
			var zero T
			return zero, err
		}
	}
	return q.GetNowait()
}

// GetNowait removes and returns the first item or returns ErrQueueEmpty.
func (q *Queue[T]) GetNowait() (T, error) {
	var zero T
	if q.Len() == 0 {
		return zero, ErrQueueEmpty
	}
	item := q.items[q.head]
	q.items[q.head] = zero
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && 2*q.head > len(q.items) {
		q.items = append(q.items[:0], q.items[q.head:]...)
		q.head = 0
	}
	q.putters.wakeFirst()
	return item, nil
}

// TaskDone marks one item taken with Get as fully processed.
func (q *Queue[T]) TaskDone() error {
	if q.unfinished <= 0 {
		return ErrTooManyTaskDone
	}
	if q.unfinished--; q.unfinished == 0 {
		q.finished.Set()
	}
	return nil
}

// Join waits until every item put has been marked done.
func (q *Queue[T]) Join(y Yield) error {
	return q.finished.Wait(y)
}
