package loop

import (
	"errors"

	"loopkit/future"
)

// OnClose registers fn to run when the loop closes, before its sockets and
// poller are released; the returned function unregisters it. The executor
// uses it to fail its pending futures.
func (l *Loop) OnClose(fn func()) (unregister func()) {
	h := &closeFunc{fn}
	l.AddCloser(h)
	return func() { l.RemoveCloser(h) }
}

// closeFunc is OnClose's fn as a Closer: a pointer, which a map can hold
// as a key where a func cannot.
type closeFunc struct{ fn func() }

func (c *closeFunc) Run() { c.fn() }

// AddCloser is OnClose for a value that runs itself, as Schedule is
// CallSoon's: the loop calls c.Run when it closes, unless RemoveCloser
// took c back first. c must be comparable — a pointer. Every task
// registers itself this way when it starts and leaves when it ends;
// OnClose would cost it a closure each way.
func (l *Loop) AddCloser(c future.Runner) { l.closers[c] = struct{}{} }

// RemoveCloser takes back a Closer that AddCloser registered.
func (l *Loop) RemoveCloser(c future.Runner) { delete(l.closers, c) }

// Close releases the loop: it runs the OnClose hooks (stopping unfinished
// tasks), fails every pending socket operation and executor job with
// ErrClosed, closes the sockets the loop created, waits for executor
// goroutines, and closes the poller. Callbacks still queued are dropped.
// Close must not be called while Run is active.
func (l *Loop) Close() error {
	if l.inRun {
		return errors.New("loop: Close called while the loop is running")
	}
	if l.closed {
		return nil
	}
	l.closed = true
	// The steps are in this order because each may still need what the
	// later ones take away.
	//
	// 1. Close the inbox: from now on other goroutines' posts (executor
	// results among them) fail with ErrClosed instead of queueing
	// callbacks that would never run; and a post already under way has
	// finished waking the poller, which step 5 closes.
	l.inbox.close()
	// 2. Run the hooks while the sockets and the poller still work: a task
	// being stopped runs its body's defers, which may SockClose a socket.
	// A hook may register another (a deferred Spawn, say), and a range over
	// a map may or may not visit keys added during it: hence the outer
	// loop, which goes round until no hook is left.
	for len(l.closers) > 0 {
		for c := range l.closers {
			delete(l.closers, c)
			l.runGuarded(c)
		}
	}
	// 3. Fail the socket operations still pending, and close the sockets
	// the loop owns.
	err := l.closeWatches()
	// 4. Wait for the executor's goroutines, so a closed loop leaves none
	// behind (their results have nowhere to go since step 1).
	l.executor.shutdown()
	// 5. Last, the poller, which every step above may still have used.
	if l.obs != nil {
		l.obs.flush() // a trace sees Close's system calls too
	}
	if perr := l.poller.Close(); err == nil {
		err = perr
	}
	l.ready, l.batch, l.timers = nil, nil, nil
	return err
}
