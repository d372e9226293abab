package loop

import (
	"errors"
	"fmt"

	"loopkit/netpoll"
)

// watch is the loop's record of one file descriptor: the callbacks waiting
// for it, what the poller was told, and, for sockets the loop itself
// created, the operations pending on it.
type watch struct {
	fd     int
	gen    uint32 // see token
	owned  bool   // the loop created the fd and closes it in SockClose/Close
	reader func()
	writer func()
	// registered is the interest the poller was last given (0: the fd is
	// not registered). It can differ from what the callbacks want only
	// inside updateInterest.
	registered netpoll.Interest
	readOp     pendingOp // a SockRecv or SockAccept waiting for this fd
	writeOp    pendingOp // a SockSendAll or SockConnect waiting for this fd
}

// pendingOp is the future of a pending socket operation, whatever its
// result type: all that SockClose and Close need is to fail it.
type pendingOp interface {
	Done() bool
	SetError(error)
}

// token packs the fd with a generation number. Each new watch gets a new
// generation, so an event already returned by Wait for an fd that a
// callback then closed — and whose number a new socket got — carries the
// old generation and is dropped instead of reaching the new owner.
func (w *watch) token() netpoll.Token {
	return netpoll.Token(w.gen)<<32 | netpoll.Token(uint32(w.fd))
}

// fdTable finds the watch of an fd. File descriptors are small integers,
// handed out lowest first, so a slice indexed by the fd stays dense, and
// finding a watch is an index where a map would hash the fd each time:
// the loop looks up the watch of every ready fd, every turn. (libuv keeps
// the same array of watchers, indexed by fd.)
type fdTable []*watch

// get is fd's watch, nil if it has none.
func (t fdTable) get(fd int) *watch {
	if fd < 0 || fd >= len(t) {
		return nil
	}
	return t[fd]
}

func (t *fdTable) set(fd int, w *watch) {
	if fd >= len(*t) {
		grown := make(fdTable, max(fd+1, 2*len(*t), 64))
		copy(grown, *t)
		*t = grown
	}
	(*t)[fd] = w
}

func (t fdTable) remove(fd int) {
	if fd >= 0 && fd < len(t) {
		t[fd] = nil
	}
}

func (l *Loop) newWatch(fd int, owned bool) *watch {
	if old := l.watches.get(fd); old != nil {
		// The kernel gave out this number again, so the fd the loop knew
		// by it has been closed — without RemoveReader or SockClose.
		l.forgetClosedFD(old)
	}
	l.gen++
	if l.gen == 0 || l.gen == 1<<32-1 {
		l.gen = 1 // 0 is never a live generation; all-ones is netpoll's own
	}
	w := &watch{fd: fd, gen: l.gen, owned: owned}
	l.watches.set(fd, w)
	return w
}

// AddReader calls fn every time fd is readable, until RemoveReader. The fd
// must be non-blocking, and pollable: a regular file is not (epoll refuses
// it, which is why asyncio runs file I/O in a thread pool). Remove the
// reader before closing an fd you own. An fd closed while watched is
// reported to the panic handler, naming it, as soon as the loop can tell —
// at the next wait with poll(2); with epoll and kqueue, which drop a closed
// fd silently, when its number is next used (a new fd of the loop's, or
// AddReader, AddWriter or a Remove on it) — and then forgotten: operations
// pending on it fail, and it is never spun on.
func (l *Loop) AddReader(fd int, fn func()) error {
	return l.setCallback(fd, netpoll.Readable, fn)
}

// AddWriter calls fn every time fd is writable, until RemoveWriter.
func (l *Loop) AddWriter(fd int, fn func()) error {
	return l.setCallback(fd, netpoll.Writable, fn)
}

// RemoveReader stops calling the reader of fd; it reports whether there was one.
func (l *Loop) RemoveReader(fd int) bool {
	w := l.watches.get(fd)
	if w == nil || w.reader == nil {
		return false
	}
	return l.setCallback(fd, netpoll.Readable, nil) == nil
}

// RemoveWriter stops calling the writer of fd; it reports whether there was one.
func (l *Loop) RemoveWriter(fd int) bool {
	w := l.watches.get(fd)
	if w == nil || w.writer == nil {
		return false
	}
	return l.setCallback(fd, netpoll.Writable, nil) == nil
}

func (l *Loop) setCallback(fd int, which netpoll.Interest, fn func()) error {
	if l.closed {
		return ErrClosed
	}
	w := l.watches.get(fd)
	if w == nil {
		if fn == nil {
			return fmt.Errorf("loop: fd %d is not watched", fd)
		}
		w = l.newWatch(fd, false)
	}
	// Adding a callback always asks the poller, even when it only replaces
	// one: with epoll and kqueue, that call is how the loop learns that fd
	// was closed while watched, and that its number now belongs to the fd
	// this call is for (without it, the new fd would never be registered).
	err := l.setAndUpdate(w, which, fn, fn != nil)
	if errors.Is(err, netpoll.ErrNotRegistered) {
		l.forgetClosedFD(w)
		if fn == nil {
			return nil // the callback to remove is gone with its fd
		}
		w = l.newWatch(fd, false)
		err = l.setAndUpdate(w, which, fn, false)
	}
	if w.registered == 0 && !w.owned && l.watches.get(fd) == w {
		l.watches.remove(fd) // nothing left to remember about a caller's fd
	}
	return err
}

// setAndUpdate sets w's reader or writer to fn and tells the poller; if
// that fails, the callback is left unset.
func (l *Loop) setAndUpdate(w *watch, which netpoll.Interest, fn func(), reassert bool) error {
	cb := &w.writer
	if which == netpoll.Readable {
		cb = &w.reader
	}
	*cb = fn
	err := l.updateInterest(w, reassert)
	if err != nil {
		*cb = nil
	}
	return err
}

// updateInterest tells the poller what the watch's callbacks want. It is
// done at once; libuv batches such changes until the next poll, which saves
// a system call when a reader is removed and re-added in one iteration.
// With reassert, an unchanged interest is given to the poller again.
func (l *Loop) updateInterest(w *watch, reassert bool) error {
	var want netpoll.Interest
	if w.reader != nil {
		want |= netpoll.Readable
	}
	if w.writer != nil {
		want |= netpoll.Writable
	}
	var err error
	switch {
	case want == w.registered && (want == 0 || !reassert):
		return nil
	case w.registered == 0:
		err = l.poller.Register(w.fd, w.token(), want)
	case want == 0:
		// Deregister rather than register "nothing": epoll reports errors
		// and hang-ups even for an empty interest set, and a hung-up
		// socket with no reader would wake the loop forever.
		err = l.poller.Deregister(w.fd)
	default:
		err = l.poller.Modify(w.fd, w.token(), want)
	}
	if err != nil {
		return fmt.Errorf("loop: watching fd %d: %w", w.fd, err)
	}
	w.registered = want
	return nil
}

// dispatch runs the callbacks of ready fds: for each event, the reader,
// then the writer. Before each, the event's token is checked against the
// live watch: a callback earlier in the same batch may have closed an fd,
// or removed the callback this event was for.
func (l *Loop) dispatch(events []netpoll.Event) {
	for i := 0; i < 2*len(events); {
		i = l.dispatchFrom(events, i)
	}
}

// dispatchFrom runs the callbacks of events from position i on: position
// 2k is event k's reader, 2k+1 its writer. Like runReadyFrom, it guards
// them all with one recover, and after a panic returns the position after
// the panicking callback.
func (l *Loop) dispatchFrom(events []netpoll.Event, i int) (next int) {
	defer l.recoverPanic(&i, &next)
	for ; i < 2*len(events); i++ {
		ev := events[i/2]
		fd := int(uint32(ev.Token))
		w := l.watches.get(fd)
		if w == nil || w.token() != ev.Token {
			continue // stale: closed, or closed and reused
		}
		switch {
		case i%2 == 1:
			if ev.Ready&netpoll.Writable != 0 && w.writer != nil {
				l.runCallback(callSoon(w.writer))
			}
		case ev.Ready == netpoll.Invalid:
			l.forgetClosedFD(w) // poll(2) found fd closed, and has forgotten it
		case ev.Ready&netpoll.Readable != 0 && w.reader != nil:
			l.runCallback(callSoon(w.reader))
		}
	}
	return i
}

// closeWatches is Close's part for fds: fail pending operations, stop
// watching, and close the sockets the loop created.
func (l *Loop) closeWatches() error {
	var first error
	for fd, w := range l.watches {
		if w == nil {
			continue
		}
		if err := l.release(w, ErrClosed); err != nil && first == nil {
			first = err
		}
		l.watches.remove(fd)
	}
	return first
}

// release fails w's pending operations with err, deregisters w, and closes
// the fd if the loop owns it.
func (l *Loop) release(w *watch, err error) error {
	for _, op := range []pendingOp{w.readOp, w.writeOp} {
		if op != nil && !op.Done() {
			op.SetError(err)
		}
	}
	w.readOp, w.writeOp, w.reader, w.writer = nil, nil, nil, nil
	var first error
	if w.registered != 0 {
		first = l.poller.Deregister(w.fd)
		w.registered = 0
	}
	if w.owned {
		err := netpoll.Close(w.fd)
		l.note("close", w.fd, 0, err)
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// forgetClosedFD drops the watch of an fd that was closed while the loop
// watched it. That is the caller's bug, so the loop says so, naming the fd,
// to the panic handler, and fails the operations pending on the fd with
// the same words. The fd is not closed again: its number may be another
// fd's by now.
func (l *Loop) forgetClosedFD(w *watch) {
	err := fmt.Errorf("loop: fd %d was closed while the loop watched it "+
		"(RemoveReader/RemoveWriter, or SockClose, must come first); its callbacks are dropped", w.fd)
	if l.watches.get(w.fd) == w {
		l.watches.remove(w.fd)
	}
	w.owned = false
	// release's Deregister finds the registration gone (ErrNotRegistered);
	// it is made for the pollers that keep their own table of fds.
	l.release(w, err)
	l.reportMisuse(err)
}
