package loop

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"testing"
	"time"

	"loopkit/netpoll"
)

// failingPoller is a poller whose calls fail as the test says: the errors
// a real kernel gives rarely and at no test's command.
type failingPoller struct {
	netpoll.Poller
	wait, register, close error
	deregister            func(fd int) error
}

func (p *failingPoller) Wait(d time.Duration) ([]netpoll.Event, error) {
	if p.wait != nil {
		return nil, p.wait
	}
	return p.Poller.Wait(d)
}

func (p *failingPoller) Register(fd int, tok netpoll.Token, in netpoll.Interest) error {
	if p.register != nil {
		return p.register
	}
	return p.Poller.Register(fd, tok, in)
}

func (p *failingPoller) Deregister(fd int) error {
	if p.deregister != nil {
		return p.deregister(fd)
	}
	return p.Poller.Deregister(fd)
}

func (p *failingPoller) Close() error {
	err := p.Poller.Close()
	if p.close != nil {
		return p.close
	}
	return err
}

var errKernel = errors.New("the kernel said no")

func newFailingLoop(t *testing.T) (*Loop, *failingPoller) {
	l, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	p := &failingPoller{Poller: l.poller}
	l.poller = p
	return l, p
}

// A wait that fails ends Run with an error that still matches the
// poller's, for the caller to test with errors.Is.
func TestAFailingWaitEndsRunWithItsError(t *testing.T) {
	l, p := newFailingLoop(t)
	p.wait = errKernel
	if err := l.Run(); !errors.Is(err, errKernel) {
		t.Fatalf("Run: %v, want an error matching the poller's", err)
	}
}

// A callback the poller refused to watch for is not kept: there is none
// to remove afterwards.
func TestARefusedCallbackIsNotKept(t *testing.T) {
	l, p := newFailingLoop(t)
	lfd, _, err := l.Listen(netip.MustParseAddrPort("127.0.0.1:0"))
	if err != nil {
		t.Fatal(err)
	}
	p.register = errKernel
	if err := l.AddReader(lfd, func() {}); !errors.Is(err, errKernel) {
		t.Fatalf("AddReader: %v, want the poller's error", err)
	}
	if l.RemoveReader(lfd) {
		t.Fatal("RemoveReader found a reader that was never watched for")
	}
}

type fdError struct{ fd int }

func (e *fdError) Error() string { return fmt.Sprintf("deregister %d failed", e.fd) }

// Close goes on when an fd cannot be let go, and returns the first such
// failure, that of the lowest fd, even though the poller then closes well.
func TestCloseReturnsTheFirstFailureToLetGoOfAnFD(t *testing.T) {
	l, p := newFailingLoop(t)
	var fds []int
	for range 2 {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		if err := l.AddReader(int(r.Fd()), func() {}); err != nil {
			t.Fatal(err)
		}
		fds = append(fds, int(r.Fd()))
	}
	p.deregister = func(fd int) error { return &fdError{fd} }
	var fe *fdError
	if err := l.Close(); !errors.As(err, &fe) || fe.fd != min(fds[0], fds[1]) {
		t.Fatalf("Close: %v, want the failure of fd %d", err, min(fds[0], fds[1]))
	}
}

// A group closes every loop even when one of them fails to close, and
// says which failure.
func TestGroupCloseClosesEveryLoopWhateverOneSays(t *testing.T) {
	g, err := NewGroup(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := g.Loop(0)
	first.poller = &failingPoller{Poller: first.poller, close: errKernel}
	if err := g.Close(); !errors.Is(err, errKernel) {
		t.Fatalf("Group.Close: %v, want the first loop's failure", err)
	}
	for i := range g.Len() {
		if err := g.Loop(i).CallSoonThreadsafe(func() {}); !errors.Is(err, ErrClosed) {
			t.Errorf("loop %d after Group.Close: a post says %v, want ErrClosed", i, err)
		}
	}
}
