package frontier

// deque is a host's queue of URLs: first in, first out, except that a
// retry goes back to the front, ahead of the URLs queued after it. It is a
// ring buffer, so a host with a million queued URLs costs one slice of
// items and no per-URL allocation beyond the URL string itself.
type deque[T any] struct {
	buf  []T
	head int // index of the first item
	n    int // items held
}

func (d *deque[T]) len() int { return d.n }

func (d *deque[T]) pushBack(v T) {
	d.grow()
	d.buf[(d.head+d.n)%len(d.buf)] = v
	d.n++
}

func (d *deque[T]) pushFront(v T) {
	d.grow()
	d.head = (d.head - 1 + len(d.buf)) % len(d.buf)
	d.buf[d.head] = v
	d.n++
}

// front is the first item; the deque must not be empty.
func (d *deque[T]) front() T { return d.buf[d.head] }

// popFront removes and returns the first item; the deque must not be empty.
func (d *deque[T]) popFront() T {
	var zero T
	v := d.buf[d.head]
	d.buf[d.head] = zero // let the URL string be collected
	d.head = (d.head + 1) % len(d.buf)
	d.n--
	if d.n == 0 && len(d.buf) > 64 {
		*d = deque[T]{} // a drained host gives its buffer back
	}
	return v
}

// drain removes every item, calling fn on each in order.
func (d *deque[T]) drain(fn func(T)) {
	for d.n > 0 {
		fn(d.popFront())
	}
}

// filter keeps the items for which keep returns true, in order.
func (d *deque[T]) filter(keep func(T) bool) {
	n := d.n
	for range n {
		if v := d.popFront(); keep(v) {
			d.pushBack(v)
		}
	}
}

func (d *deque[T]) grow() {
	if d.n < len(d.buf) {
		return
	}
	next := make([]T, max(8, 2*len(d.buf)))
	for i := range d.n {
		next[i] = d.buf[(d.head+i)%len(d.buf)]
	}
	d.buf, d.head = next, 0
}
