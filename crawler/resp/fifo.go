package resp

// fifo is a queue on a ring buffer. The calls awaiting their replies are
// one: pushed as commands are sent, popped as replies arrive, in the same
// order. A ring reuses its slots, so a connection that keeps a hundred
// commands in flight for hours allocates only when the hundred first
// grows.
type fifo[T any] struct {
	buf  []T // len(buf) is 0 or a power of two
	head int // index of the oldest element
	n    int
}

func (q *fifo[T]) len() int { return q.n }

func (q *fifo[T]) push(v T) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = v
	q.n++
}

// pop removes and returns the oldest element; the queue must not be empty.
func (q *fifo[T]) pop() T {
	var zero T
	v := q.buf[q.head]
	q.buf[q.head] = zero // let what it points to go
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return v
}

// drain removes every element, oldest first, handing each to fn.
func (q *fifo[T]) drain(fn func(T)) {
	for q.n > 0 {
		fn(q.pop())
	}
}

func (q *fifo[T]) grow() {
	size := max(8, 2*len(q.buf))
	buf := make([]T, size)
	for i := range q.n {
		buf[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = buf, 0
}
