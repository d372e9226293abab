package netpoll

import (
	"errors"
	"net/netip"
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
