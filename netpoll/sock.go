//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package netpoll

import (
	"errors"
	"fmt"
	"net/netip"
	"os"

	"golang.org/x/sys/unix"
)

// The socket calls below are the only ones the loop makes. They live here,
// next to the pollers, so that every OS constant stays in this package. Each
// returns ErrWouldBlock where the non-blocking call would have blocked; the
// loop then waits for readiness and tries again.

// ErrWouldBlock says the non-blocking call could not proceed yet (EAGAIN).
var ErrWouldBlock = errors.New("netpoll: operation would block")

// ErrInProgress says a non-blocking connect has started; wait until the
// socket is writable, then read the outcome with ConnectResult.
var ErrInProgress = errors.New("netpoll: connect in progress")

// Socket opens a non-blocking, close-on-exec TCP socket for the address
// family of ap, with Nagle's algorithm off (requests are written whole, and
// waiting to coalesce them only adds latency).
func Socket(ap netip.AddrPort) (int, error) {
	family := unix.AF_INET
	if ap.Addr().Unmap().Is6() {
		family = unix.AF_INET6
	}
	fd, err := socket(family)
	if err != nil {
		return -1, err
	}
	if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1); err != nil {
		unix.Close(fd)
		return -1, os.NewSyscallError("setsockopt", err)
	}
	return fd, nil
}

// Connect starts a connection. It returns nil if it completed at once
// (possible on loopback), ErrInProgress if the loop must wait for
// writability, or the error (such as "connection refused").
func Connect(fd int, ap netip.AddrPort) error {
	return connectOutcome(unix.Connect(fd, sockaddr(ap)))
}

// connectOutcome says what the error of a non-blocking connect(2) means
// for the caller: done, under way, or failed.
func connectOutcome(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EINPROGRESS), errors.Is(err, unix.EINTR):
		// EINTR: the connect goes on in the background, like EINPROGRESS.
		return ErrInProgress
	default:
		return os.NewSyscallError("connect", err)
	}
}

// ConnectResult reads SO_ERROR after a non-blocking connect became
// writable: writability alone says only that the attempt ended, not how.
func ConnectResult(fd int) error {
	errno, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
	if err != nil {
		return os.NewSyscallError("getsockopt", err)
	}
	if errno != 0 {
		return os.NewSyscallError("connect", unix.Errno(errno))
	}
	return nil
}

// Listen opens a listening, non-blocking TCP socket on ap (port 0 picks a
// free port) and returns it with the address it is bound to.
func Listen(ap netip.AddrPort, backlog int) (int, netip.AddrPort, error) {
	fd, err := Socket(ap)
	if err != nil {
		return -1, netip.AddrPort{}, err
	}
	fail := func(call string, err error) (int, netip.AddrPort, error) {
		unix.Close(fd)
		return -1, netip.AddrPort{}, os.NewSyscallError(call, err)
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		return fail("setsockopt", err)
	}
	if err := unix.Bind(fd, sockaddr(ap)); err != nil {
		return fail("bind", err)
	}
	if err := unix.Listen(fd, backlog); err != nil {
		return fail("listen", err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return fail("getsockname", err)
	}
	return fd, addrPort(sa), nil
}

// Accept takes one pending connection as a non-blocking, close-on-exec fd.
func Accept(fd int) (int, netip.AddrPort, error) {
	return acceptRetrying(func() (int, unix.Sockaddr, error) { return accept(fd) })
}

// acceptRetrying calls accept until it gives a connection, says there is
// none (ErrWouldBlock), or fails for good. A connection whose client gave
// up while it waited in the backlog (ECONNABORTED) is no failure of the
// listener: the next one may be fine.
func acceptRetrying(accept func() (int, unix.Sockaddr, error)) (int, netip.AddrPort, error) {
	for {
		nfd, sa, err := accept()
		switch {
		case err == nil:
			return nfd, addrPort(sa), nil
		case errors.Is(err, unix.EINTR), errors.Is(err, unix.ECONNABORTED):
			continue // a signal, or a client that gave up while queued
		case errors.Is(err, unix.EAGAIN):
			return -1, netip.AddrPort{}, ErrWouldBlock
		default:
			return -1, netip.AddrPort{}, os.NewSyscallError("accept", err)
		}
	}
}

// Read reads into p. n == 0 with a nil error means the peer closed its side.
func Read(fd int, p []byte) (int, error) {
	return transfer("read", func() (int, error) { return unix.Read(fd, p) })
}

// Write writes as much of p as the send buffer takes.
func Write(fd int, p []byte) (int, error) {
	return transfer("write", func() (int, error) { return unix.Write(fd, p) })
}

// transfer runs a read or write, restarting it after a signal and turning
// EAGAIN into ErrWouldBlock.
func transfer(call string, rw func() (int, error)) (int, error) {
	for {
		n, err := rw()
		switch {
		case err == nil:
			return n, nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN):
			return 0, ErrWouldBlock
		default:
			return 0, os.NewSyscallError(call, err)
		}
	}
}

// ShutdownWrite sends FIN: the peer reads EOF, and can still answer.
func ShutdownWrite(fd int) error {
	if err := unix.Shutdown(fd, unix.SHUT_WR); err != nil {
		return os.NewSyscallError("shutdown", err)
	}
	return nil
}

// Close closes fd. Deregister it from its Poller first.
func Close(fd int) error {
	if err := unix.Close(fd); err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}

// ResetOnClose makes the next Close send RST instead of FIN (SO_LINGER 0),
// for tests and for abandoning a connection whose state is unknown.
func ResetOnClose(fd int) error {
	if err := unix.SetsockoptLinger(fd, unix.SOL_SOCKET, unix.SO_LINGER, &unix.Linger{Onoff: 1, Linger: 0}); err != nil {
		return os.NewSyscallError("setsockopt", err)
	}
	return nil
}

func sockaddr(ap netip.AddrPort) unix.Sockaddr {
	a := ap.Addr().Unmap()
	if a.Is4() {
		return &unix.SockaddrInet4{Port: int(ap.Port()), Addr: a.As4()}
	}
	sa := &unix.SockaddrInet6{Port: int(ap.Port()), Addr: a.As16()}
	if z := a.Zone(); z != "" {
		fmt.Sscan(z, &sa.ZoneId) // numeric zones only; names need the net package
	}
	return sa
}

func addrPort(sa unix.Sockaddr) netip.AddrPort {
	switch sa := sa.(type) {
	case *unix.SockaddrInet4:
		return netip.AddrPortFrom(netip.AddrFrom4(sa.Addr), uint16(sa.Port))
	case *unix.SockaddrInet6:
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr), uint16(sa.Port))
	}
	return netip.AddrPort{}
}
