package netpoll_test

import (
	"net/netip"
	"testing"
	"time"

	"loopkit/netpoll"

	"golang.org/x/sys/unix"
)

// readyFDs opens n sockets that are ready at once and stay so: TCP
// sockets never connected, which report a hang-up (Readable).
func readyFDs(t *testing.T, n int) []int {
	t.Helper()
	fds := make([]int, n)
	for i := range fds {
		fd, err := netpoll.Socket(netip.MustParseAddrPort("127.0.0.1:0"))
		if err != nil {
			t.Fatal(err)
		}
		fds[i] = fd
		t.Cleanup(func() { netpoll.Close(fd) })
	}
	return fds
}

// More ready fds than the event buffer holds: a Wait that fills the
// buffer makes it bigger (128, 256, 512), so that by the third Wait all
// 300 are reported at once, not 128 at a time for ever.
func TestEventBufferGrowsWhenAWaitFillsIt(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		const n = 300
		for i, fd := range readyFDs(t, n) {
			if err := p.Register(fd, netpoll.Token(i+1), netpoll.Readable); err != nil {
				t.Fatal(err)
			}
			defer p.Deregister(fd)
		}
		var counts []int
		for range 3 {
			evs, err := p.Wait(5 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			counts = append(counts, len(evs))
		}
		if counts[2] != n {
			t.Fatalf("three Waits reported %v of %d ready fds; the third should report all", counts, n)
		}
	})
}

// Registering an fd that is already registered never makes it reported
// twice: poll(2) refuses the second Register, epoll takes it as an update
// of the first (its token is the new one).
func TestSecondRegisterDoesNotDuplicateTheFD(t *testing.T) {
	eachPoller(t, func(t *testing.T, p netpoll.Poller) {
		fd := readyFDs(t, 1)[0]
		if err := p.Register(fd, 1, netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		defer p.Deregister(fd)
		err := p.Register(fd, 2, netpoll.Readable)
		evs, werr := p.Wait(5 * time.Second)
		if werr != nil {
			t.Fatal(werr)
		}
		wantToken := netpoll.Token(2)
		if p.Name() == "poll" {
			wantToken = 1
			if err == nil {
				t.Error("poll: a second Register of a registered fd succeeded")
			}
		} else if err != nil {
			t.Errorf("%s: a second Register: %v, want an update", p.Name(), err)
		}
		if len(evs) != 1 || evs[0].Token != wantToken {
			t.Fatalf("events %+v, want the fd once, with token %d", evs, wantToken)
		}
		// And it is gone after one Deregister.
		if err := p.Deregister(fd); err != nil {
			t.Fatal(err)
		}
		if evs, _ := p.Wait(10 * time.Millisecond); len(evs) != 0 {
			t.Fatalf("after Deregister: %+v", evs)
		}
	})
}

// Every socket netpoll makes — by Socket, Listen or Accept — is
// non-blocking (a read with nothing to read must return, not stall the
// loop) and closed on exec (a child process must not inherit it).
func TestSocketsAreNonBlockingAndCloseOnExec(t *testing.T) {
	lfd, addr, err := netpoll.Listen(netip.MustParseAddrPort("127.0.0.1:0"), 8)
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(lfd)
	cfd, err := netpoll.Socket(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(cfd)
	if err := netpoll.Connect(cfd, addr); err != nil && err != netpoll.ErrInProgress {
		t.Fatal(err)
	}
	var afd int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if afd, _, err = netpoll.Accept(lfd); err != netpoll.ErrWouldBlock || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer netpoll.Close(afd)
	for name, fd := range map[string]int{"Socket": cfd, "Listen": lfd, "Accept": afd} {
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		if err != nil {
			t.Fatal(err)
		}
		fdfl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil {
			t.Fatal(err)
		}
		if fl&unix.O_NONBLOCK == 0 || fdfl&unix.FD_CLOEXEC == 0 {
			t.Errorf("%s: non-blocking %v, close-on-exec %v; want both", name, fl&unix.O_NONBLOCK != 0, fdfl&unix.FD_CLOEXEC != 0)
		}
	}
}
