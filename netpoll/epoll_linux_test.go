package netpoll_test

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"loopkit/netpoll"
)

// epoll keys a registration by (open file, fd number) and keeps it while
// the file is open, even through a close of the number. If a duplicate
// kept the file open and the number comes back to that file, Register of
// the number finds the old registration (EEXIST): it must update it, not
// fail, or the fd could never be watched again.
func TestEpollRegisterOfANumberTheKernelStillHasUpdatesIt(t *testing.T) {
	p, err := netpoll.Open("epoll")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	lfd := readableListener(t)
	defer netpoll.Close(lfd)
	if err := p.Register(lfd, 42, netpoll.Readable); err != nil {
		t.Fatal(err)
	}
	dup, err := unix.Dup(lfd)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dup)
	netpoll.Close(lfd) // without Deregister; dup keeps the file open
	if err := unix.Dup3(dup, lfd, unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	if err := p.Register(lfd, 43, netpoll.Readable); err != nil {
		t.Fatalf("Register of a number the kernel still has: %v", err)
	}
	evs, err := p.Wait(5 * time.Second)
	if err != nil || len(evs) != 1 || evs[0] != (netpoll.Event{Token: 43, Ready: netpoll.Readable}) {
		t.Fatalf("after Register: %+v %v, want one event with the new token 43", evs, err)
	}
}
