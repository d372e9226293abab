package loop_test

import (
	"errors"
	"net/netip"
	"os"
	"testing"

	"loopkit/loop"
)

// Every call that needs a live loop fails on a closed one with an error
// that matches ErrClosed, at once, and opens nothing.
func TestEveryCallOnAClosedLoopSaysErrClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	fds := openFDs(t)
	fd := int(r.Fd())
	futureErr := func(f interface{ Err() error }) error { return f.Err() }
	_, _, listenErr := l.Listen(loopback)
	for what, err := range map[string]error{
		"Run":                l.Run(),
		"AddReader":          l.AddReader(fd, func() {}),
		"AddWriter":          l.AddWriter(int(w.Fd()), func() {}),
		"Listen":             listenErr,
		"SockConnect":        futureErr(l.SockConnect(netip.MustParseAddrPort("127.0.0.1:9"))),
		"SockRecv":           futureErr(l.SockRecv(fd, make([]byte, 8))),
		"SockSendAll":        futureErr(l.SockSendAll(fd, []byte("x"))),
		"SockAccept":         futureErr(l.SockAccept(fd)),
		"CallSoonThreadsafe": l.CallSoonThreadsafe(func() {}),
	} {
		if !errors.Is(err, loop.ErrClosed) {
			t.Errorf("%s on a closed loop: %v, want ErrClosed", what, err)
		}
	}
	if n := openFDs(t); n != fds {
		t.Errorf("calls on a closed loop left %d fds open, not %d", n, fds)
	}
}

// Close from inside a callback is refused, and the loop is left whole: it
// runs again afterwards.
func TestCloseInsideRunIsRefused(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var closeErr error
		l.CallSoon(func() { closeErr = l.Close(); l.Stop() })
		run(t, l)
		if closeErr == nil {
			t.Fatal("Close inside Run returned nil")
		}
		ran := false
		l.CallLater(0, func() { ran = true; l.Stop() })
		run(t, l)
		if !ran {
			t.Fatal("the loop did not run a timer after the refused Close")
		}
	})
}

// A close hook that panics is reported to the panic handler, and Close
// still runs the other hooks and returns.
func TestAPanickingCloseHookIsReportedAndTheOthersRun(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	panics := loop.CatchPanics(t, l)
	ran := 0
	l.OnClose(func() { ran++ })
	l.OnClose(func() { panic("hook failed") })
	l.OnClose(func() { ran++ })
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("Close let a hook's panic through: %v", p)
			}
		}()
		l.Close()
	}()
	if ran != 2 || len(*panics) != 1 || (*panics)[0].Value != "hook failed" {
		t.Fatalf("%d good hooks ran, panics %v; want 2 and the one hook's", ran, *panics)
	}
}
