package loop

// CallSoonThreadsafe schedules fn from any goroutine and wakes the loop if
// it is waiting (asyncio's call_soon_threadsafe, which writes a byte to a
// socketpair; netpoll writes to an eventfd or a pipe). It returns ErrClosed
// on a closed loop, and any error of the wake-up itself: a lost wake-up
// would leave fn waiting until some unrelated event came along.
func (l *Loop) CallSoonThreadsafe(fn func()) error {
	l.tsMu.Lock()
	if l.tsClosed {
		l.tsMu.Unlock()
		return ErrClosed
	}
	l.tsQueue = append(l.tsQueue, fn)
	l.tsMu.Unlock()
	return l.poller.Wake()
}

func (l *Loop) threadsafePending() bool {
	l.tsMu.Lock()
	defer l.tsMu.Unlock()
	return len(l.tsQueue) > 0
}

// takeThreadsafe moves callbacks posted by other goroutines to the ready
// queue. It runs after the poller drained its wake-up, so a post that raced
// with the drain is either taken here or has woken the poller again.
func (l *Loop) takeThreadsafe() {
	l.tsMu.Lock()
	q := l.tsQueue
	l.tsQueue = nil
	l.tsMu.Unlock()
	l.ready = append(l.ready, q...)
}
