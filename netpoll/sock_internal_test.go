package netpoll

import (
	"errors"
	"net/netip"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// A signal can interrupt a connect(2) (EINTR), and the handshake then goes
// on in the background, as after EINPROGRESS: the caller must wait for
// writability and read SO_ERROR, not give the socket up. (Nothing in a
// test can make the kernel interrupt a non-blocking connect on demand, so
// the errno is handed in.)
func TestConnectInterruptedBySignalIsInProgress(t *testing.T) {
	for _, c := range []struct {
		errno error
		want  error
	}{
		{nil, nil},
		{unix.EINPROGRESS, ErrInProgress},
		{unix.EINTR, ErrInProgress},
	} {
		if got := connectOutcome(c.errno); got != c.want {
			t.Errorf("connect failing with %v: %v, want %v", c.errno, got, c.want)
		}
	}
	err := connectOutcome(unix.ECONNREFUSED)
	if err == ErrInProgress || !IsRefused(err) || ErrName(err) != "ECONNREFUSED" {
		t.Errorf("connect refused: %v, want the refusal itself", err)
	}
}

// Accept goes past a connection whose client gave up while it waited in
// the backlog (ECONNABORTED), and past a signal (EINTR), to the next one;
// an empty backlog is ErrWouldBlock; any other error is the listener's
// and is returned. (Which errno a kernel gives for an aborted connection,
// and when, is its own business; the errnos are handed in.)
func TestAcceptGoesPastAnAbortedConnection(t *testing.T) {
	accepting := func(results ...error) (func() (int, unix.Sockaddr, error), *int) {
		calls := 0
		return func() (int, unix.Sockaddr, error) {
			err := results[calls]
			calls++
			if err != nil {
				return -1, nil, err
			}
			return 42, &unix.SockaddrInet4{Port: 5000, Addr: [4]byte{127, 0, 0, 1}}, nil
		}, &calls
	}

	accept, calls := accepting(unix.ECONNABORTED, unix.EINTR, unix.ECONNABORTED, nil)
	fd, peer, err := acceptRetrying(accept)
	if err != nil || fd != 42 || peer != netip.MustParseAddrPort("127.0.0.1:5000") || *calls != 4 {
		t.Fatalf("after two aborted connections and a signal: fd %d, peer %v, %v, after %d calls; want fd 42 from 127.0.0.1:5000 after 4",
			fd, peer, err, *calls)
	}

	accept, _ = accepting(unix.ECONNABORTED, unix.EAGAIN)
	if _, _, err := acceptRetrying(accept); err != ErrWouldBlock {
		t.Fatalf("an aborted connection and then none: %v, want ErrWouldBlock", err)
	}

	accept, calls = accepting(unix.EMFILE, nil)
	if _, _, err := acceptRetrying(accept); !errors.Is(err, unix.EMFILE) || ErrName(err) != "EMFILE" || *calls != 1 {
		t.Fatalf("out of fds: %v after %d calls, want EMFILE after 1", err, *calls)
	}
}

// A read or a write interrupted by a signal (EINTR) is made again, not
// failed; a socket with nothing to read is ErrWouldBlock; any other error
// names its call.
func TestTransferIsMadeAgainAfterASignal(t *testing.T) {
	calls := 0
	n, err := transfer("read", func() (int, error) {
		if calls++; calls < 3 {
			return -1, unix.EINTR
		}
		return 5, nil
	})
	if n != 5 || err != nil || calls != 3 {
		t.Fatalf("after two signals: %d, %v, in %d calls; want 5, nil, in 3", n, err, calls)
	}
	if _, err := transfer("read", func() (int, error) { return -1, unix.EAGAIN }); err != ErrWouldBlock {
		t.Fatalf("nothing to read: %v, want ErrWouldBlock", err)
	}
	var serr *os.SyscallError
	if _, err := transfer("write", func() (int, error) { return -1, unix.ECONNRESET }); !errors.As(err, &serr) || serr.Syscall != "write" || !IsReset(err) {
		t.Fatalf("a reset: %v, want a write error that is a reset", err)
	}
}

// Close releases every descriptor a poller made: its own (epoll's) and
// its wake-up's (an eventfd, or a pipe's two ends).
func TestCloseReleasesEveryDescriptor(t *testing.T) {
	for _, b := range backends {
		before := openFDs(t)
		p, err := b.open()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Wake(); err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		if after := openFDs(t); after != before {
			t.Errorf("%s: %d descriptors open before Open, %d after Close", b.name, before, after)
		}
	}
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	return len(entries)
}

// A Listen that fails (the address is taken) closes the socket it made.
func TestFailedListenClosesItsSocket(t *testing.T) {
	lfd, addr, err := Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer Close(lfd)
	before := openFDs(t)
	for i := 0; i < 3; i++ {
		if fd, _, err := Listen(addr, 8); !errors.Is(err, unix.EADDRINUSE) {
			Close(fd)
			t.Fatalf("second Listen on %v: %v, want EADDRINUSE", addr, err)
		}
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open before three failed Listens, %d after", before, after)
	}
}

// A Listen or an Accept that fails gives the fd -1, never a number: a
// caller that closes what it was given on the way out must close nothing,
// not fd 0 or some other fd of the process.
func TestFailedListenAndAcceptGiveNoFD(t *testing.T) {
	lfd, addr, err := Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer Close(lfd)
	if fd, _, err := Listen(addr, 8); err == nil || fd != -1 {
		t.Errorf("a Listen on a taken address: fd %d, %v; want -1 and an error", fd, err)
	}
	if fd, _, err := Accept(lfd); err != ErrWouldBlock || fd != -1 {
		t.Errorf("an Accept with nobody waiting: fd %d, %v; want -1 and ErrWouldBlock", fd, err)
	}
	if fd, _, err := Accept(-1); !errors.Is(err, unix.EBADF) || fd != -1 {
		t.Errorf("an Accept of fd -1: fd %d, %v; want -1 and EBADF", fd, err)
	}
}
