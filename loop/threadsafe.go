package loop

import "sync"

// inbox holds the callbacks that other goroutines post, under its own lock:
// it is the one part of a loop shared between goroutines.
type inbox struct {
	mu     sync.Mutex
	fns    []func()
	closed bool // set by Close; posts fail with ErrClosed from then on
}

// CallSoonThreadsafe schedules fn from any goroutine and wakes the loop if
// it is waiting (asyncio's call_soon_threadsafe, which writes a byte to a
// socketpair; netpoll writes to an eventfd or a pipe). It returns ErrClosed
// on a closed loop, and any error of the wake-up itself: a lost wake-up
// would leave fn waiting until some unrelated event came along.
//
// The wake-up happens under the inbox lock. Close takes that lock to close
// the inbox before it closes the poller, so it waits for a wake-up under
// way; woken after the unlock, a post racing with Close could write to a
// closed descriptor, or to an unrelated one that was given its number.
// Holding the lock costs little: Wake is non-blocking and, deduplicated,
// makes a system call only for the first post after each drain.
func (l *Loop) CallSoonThreadsafe(fn func()) error {
	l.inbox.mu.Lock()
	defer l.inbox.mu.Unlock()
	if l.inbox.closed {
		return ErrClosed
	}
	l.inbox.fns = append(l.inbox.fns, fn)
	return l.poller.Wake()
}

// postsWaiting reports whether other goroutines have posted callbacks that
// takePosted has not taken yet.
func (l *Loop) postsWaiting() bool {
	l.inbox.mu.Lock()
	defer l.inbox.mu.Unlock()
	return len(l.inbox.fns) > 0
}

// takePosted moves callbacks posted by other goroutines to the ready
// queue, and says how many. It runs after the poller drained its wake-up,
// so a post that raced with the drain is either taken here or has woken
// the poller again.
func (l *Loop) takePosted() int {
	l.inbox.mu.Lock()
	fns := l.inbox.fns
	l.inbox.fns = nil
	l.inbox.mu.Unlock()
	for _, fn := range fns {
		l.ready = append(l.ready, callSoon(fn))
	}
	return len(fns)
}

// close makes every later post fail with ErrClosed and drops what was
// posted and not yet taken.
func (b *inbox) close() {
	b.mu.Lock()
	b.closed, b.fns = true, nil
	b.mu.Unlock()
}
