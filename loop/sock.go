package loop

import (
	"errors"
	"fmt"
	"net/netip"

	"loopkit/future"
	"loopkit/netpoll"
)

// The socket operations below are asyncio's sock_connect, sock_recv,
// sock_sendall and sock_accept: each returns a future, and the loop does
// the waiting. Each socket has one slot for a pending read-side operation
// (recv or accept) and one for a write-side one (connect or send): a second
// recv while one is pending is an error, because two readers racing for the
// same bytes is always a bug.

// ErrSocketClosed fails an operation still pending when SockClose closed
// its socket.
var ErrSocketClosed = errors.New("loop: socket closed with the operation pending")

// Accepted is a connection taken by SockAccept.
type Accepted struct {
	FD   int
	Peer netip.AddrPort
}

// SockConnect opens a non-blocking TCP socket and connects it to ap. The
// future's value is the socket, which the loop owns: close it with
// SockClose. Refused and unreachable connections fail the future.
func (l *Loop) SockConnect(ap netip.AddrPort) *future.Future[int] {
	f := future.New[int](l)
	if l.closed {
		f.SetError(ErrClosed)
		return f
	}
	fd, err := netpoll.Socket(ap)
	l.note("socket", fd, 0, err)
	if err != nil {
		f.SetError(err)
		return f
	}
	w := l.newWatch(fd, true)
	err = netpoll.Connect(fd, ap)
	l.note("connect", fd, 0, err)
	switch {
	case err == nil:
		f.SetResult(fd)
		return f
	case err != netpoll.ErrInProgress:
		l.SockClose(fd)
		f.SetError(err)
		return f
	}
	// EINPROGRESS: the socket becomes writable when the handshake ends,
	// either way. Only SO_ERROR says which way.
	w.writeOp = f
	f.OnDone(func() {
		if f.Cancelled() && l.watches.get(fd) == w {
			l.SockClose(fd) // nobody will ever receive this socket
		}
	})
	err = l.AddWriter(fd, func() {
		l.RemoveWriter(fd)
		w.writeOp = nil
		if f.Done() { // cancelled by the caller meanwhile
			return
		}
		err := netpoll.ConnectResult(fd)
		l.note("getsockopt", fd, 0, err)
		if err != nil {
			l.SockClose(fd)
			f.SetError(err)
			return
		}
		f.SetResult(fd)
	})
	if err != nil {
		w.writeOp = nil // so that SockClose does not fail f before we do
		l.SockClose(fd)
		f.SetError(err)
	}
	return f
}

// Listen opens a listening socket on ap (port 0 picks one) that the loop
// owns, and returns it with its bound address.
func (l *Loop) Listen(ap netip.AddrPort) (int, netip.AddrPort, error) {
	if l.closed {
		return -1, netip.AddrPort{}, ErrClosed
	}
	fd, bound, err := netpoll.Listen(ap, 1024)
	l.note("listen", fd, 0, err)
	if err != nil {
		return -1, netip.AddrPort{}, err
	}
	l.newWatch(fd, true)
	return fd, bound, nil
}

// SockAccept waits for a connection on a listening socket from Listen. The
// accepted socket is owned by the loop.
func (l *Loop) SockAccept(fd int) *future.Future[Accepted] {
	f := future.New[Accepted](l)
	readWhenReady(l, fd, f, func() (bool, error) {
		nfd, peer, err := netpoll.Accept(fd)
		l.note("accept", fd, nfd, err)
		if err == netpoll.ErrWouldBlock {
			return false, nil
		}
		if err == nil {
			l.newWatch(nfd, true)
			f.SetResult(Accepted{FD: nfd, Peer: peer})
		}
		return true, err
	})
	return f
}

// SockRecv reads at most len(buf) bytes into buf once fd is readable. A
// result of 0 means the peer closed its side (EOF).
func (l *Loop) SockRecv(fd int, buf []byte) *future.Future[int] {
	f := future.New[int](l)
	readWhenReady(l, fd, f, func() (bool, error) {
		n, err := netpoll.Read(fd, buf)
		l.note("read", fd, n, err)
		if err == netpoll.ErrWouldBlock {
			return false, nil // woken, but another reader took the data
		}
		if err == nil {
			f.SetResult(n)
		}
		return true, err
	})
	return f
}

// readWhenReady runs attempt each time fd is readable, until it reports
// done, and fails f with attempt's error if it returns one.
func readWhenReady[T any](l *Loop, fd int, f *future.Future[T], attempt func() (bool, error)) {
	w, err := l.ownedWatch(fd)
	if err == nil && w.readOp != nil && !w.readOp.Done() {
		err = fmt.Errorf("loop: fd %d already has a recv or accept pending", fd)
	}
	if err != nil {
		f.SetError(err)
		return
	}
	w.readOp = f
	f.OnDone(func() {
		// A cancelled operation stops watching at once, rather than at
		// the next readiness.
		if f.Cancelled() && w.readOp == pendingOp(f) {
			w.readOp = nil
			l.RemoveReader(fd)
		}
	})
	err = l.AddReader(fd, func() {
		if !f.Done() {
			done, err := attempt()
			if !done {
				return
			}
			if err != nil {
				f.SetError(err)
			}
		}
		w.readOp = nil
		l.RemoveReader(fd)
	})
	if err != nil {
		w.readOp = nil
		f.SetError(err)
	}
}

// SockSendAll writes all of data, waiting for room in the send buffer as
// often as needed: a plain write may take only part of it (the 500-lines
// chapter's loop ignores send's result; this is the fix). The future's
// value is len(data). data must not change until the future is done.
func (l *Loop) SockSendAll(fd int, data []byte) *future.Future[int] {
	f := future.New[int](l)
	w, err := l.ownedWatch(fd)
	if err == nil && w.writeOp != nil && !w.writeOp.Done() {
		err = fmt.Errorf("loop: fd %d already has a send or connect pending", fd)
	}
	if err != nil {
		f.SetError(err)
		return f
	}
	sent := 0
	// send writes what the buffer takes and reports whether it is finished.
	send := func() bool {
		for sent < len(data) {
			n, err := netpoll.Write(fd, data[sent:])
			l.note("write", fd, n, err)
			if err == netpoll.ErrWouldBlock {
				return false
			}
			if err != nil {
				f.SetError(err)
				return true
			}
			sent += n
		}
		f.SetResult(sent)
		return true
	}
	if send() { // usually the buffer has room: no wait, no extra system call
		return f
	}
	w.writeOp = f
	err = l.AddWriter(fd, func() {
		if f.Done() || send() {
			w.writeOp = nil
			l.RemoveWriter(fd)
		}
	})
	if err != nil {
		w.writeOp = nil
		f.SetError(err)
	}
	return f
}

// SockClose closes a socket the loop owns. Pending operations on it fail
// with ErrSocketClosed; the loop goes on.
func (l *Loop) SockClose(fd int) error {
	w := l.watches.get(fd)
	if w == nil || !w.owned {
		return fmt.Errorf("loop: fd %d is not a socket of this loop", fd)
	}
	l.watches.remove(fd)
	return l.release(w, ErrSocketClosed)
}

func (l *Loop) ownedWatch(fd int) (*watch, error) {
	if l.closed {
		return nil, ErrClosed
	}
	w := l.watches.get(fd)
	if w == nil || !w.owned {
		return nil, fmt.Errorf("loop: fd %d is not a socket of this loop", fd)
	}
	return w, nil
}
