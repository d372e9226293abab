package netpoll

import (
	"encoding/binary"
	"errors"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// waker lets another goroutine interrupt a blocked Wait: it makes a file
// descriptor that the poller watches readable. On Linux that is one eventfd;
// elsewhere a non-blocking pipe (kqueue's EVFILT_USER would do too, but it
// is missing from OpenBSD, and one mechanism is easier to read).
//
// pending deduplicates wake-ups: only the first Wake after a drain writes,
// so a thousand CallSoonThreadsafe calls cost one system call, not a
// thousand. The order matters: drain clears pending only after emptying the
// descriptor, and the loop reads its thread-safe queue after that, so a
// Wake that races with the drain either writes again or finds its callback
// already taken.
type waker struct {
	rfd, wfd int // equal for an eventfd
	pending  atomic.Bool
}

func (w *waker) readFD() int { return w.rfd }

func (w *waker) wake() error {
	if !w.pending.CompareAndSwap(false, true) {
		return nil
	}
	for {
		_, err := unix.Write(w.wfd, wakeBytes[:w.wakeSize()])
		switch {
		case err == nil, errors.Is(err, unix.EAGAIN):
			// EAGAIN: the counter or pipe is full, so a wake-up is
			// certainly pending already.
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		default:
			w.pending.Store(false)
			return os.NewSyscallError("write", err)
		}
	}
}

// drainReading, when a test sets it, runs each time drain is about to read
// the descriptor: the moment a Wake from another goroutine may land in the
// middle of a drain. It is nil otherwise (one nil check per read).
var drainReading func()

// drain empties the descriptor and re-arms the waker.
func (w *waker) drain() error {
	var buf [64]byte
	for {
		if drainReading != nil {
			drainReading()
		}
		_, err := unix.Read(w.rfd, buf[:])
		if err == nil {
			if w.rfd == w.wfd {
				break // an eventfd is emptied by one read
			}
			continue
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if !errors.Is(err, unix.EAGAIN) {
			return os.NewSyscallError("read", err)
		}
		break
	}
	w.pending.Store(false)
	return nil
}

// wakeSize is 8 for an eventfd (it takes exactly one uint64) and 1 for a pipe.
func (w *waker) wakeSize() int {
	if w.rfd == w.wfd {
		return 8
	}
	return 1
}

// wakeBytes holds the number 1 as a native-endian uint64: an eventfd adds
// it to its counter. A pipe gets the first byte, whatever it is.
var wakeBytes = func() (b [8]byte) {
	binary.NativeEndian.PutUint64(b[:], 1)
	return b
}()

func (w *waker) close() error {
	err := unix.Close(w.rfd)
	if w.wfd != w.rfd {
		if err2 := unix.Close(w.wfd); err == nil {
			err = err2
		}
	}
	if err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}
