package loop

import (
	"sync"
	"sync/atomic"
)

// inbox holds the callbacks that other goroutines post, under its own lock:
// it is the one part of a loop shared between goroutines.
type inbox struct {
	mu     sync.Mutex
	fns    []func()
	closed bool // set by Close; posts fail with ErrClosed from then on
	// posted says fns may hold something: set under the lock by a post,
	// before its wake-up, and cleared by takePosted. The loop reads it
	// without the lock on every turn, and takes the lock only when it is
	// set: most turns have nothing posted, and a lock and an unlock on
	// every turn, twice, would be their most expensive step.
	posted atomic.Bool
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
	l.inbox.posted.Store(true)
	return l.poller.Wake()
}

// postsWaiting reports whether other goroutines have posted callbacks that
// takePosted has not taken yet.
func (l *Loop) postsWaiting() bool {
	return l.inbox.posted.Load()
}

// takePosted moves callbacks posted by other goroutines to the ready
// queue, and says how many. It runs after the poller drained its wake-up,
// so a post that raced with the drain is either taken here or has woken
// the poller again.
//
// A post that sets posted after the check below has woken the poller,
// so the next turn's wait returns at once and takes it then.
func (l *Loop) takePosted() int {
	if !l.inbox.posted.Load() {
		return 0
	}
	l.inbox.mu.Lock()
	fns := l.inbox.fns
	l.inbox.fns = nil
	l.inbox.posted.Store(false)
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
