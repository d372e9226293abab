package loop_test

import (
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
)

// eachPoller runs a test once per poller this OS has (epoll and poll on
// Linux, kqueue and poll on the BSDs), each on a fresh loop whose panics
// fail the test (see failOnPanic).
func eachPoller(t *testing.T, test func(t *testing.T, l *loop.Loop)) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := loop.New(&loop.Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			loop.FailOnPanic(t, l)
			test(t, l)
		})
	}
}

// runFor runs the loop until f is done, failing the test if that takes
// more than a generous bound (a hang, not a measurement).
func runFor[T any](t *testing.T, l *loop.Loop, f *future.Future[T]) (T, error) {
	t.Helper()
	defer guard(t, l, "the future never completed")()
	if err := l.RunUntilComplete(f); err != nil {
		t.Fatal(err)
	}
	return f.Result()
}

// runTurns runs the loop until done() holds or n turns have passed, and
// reports done(): a test of something that must happen soon fails in a
// bounded number of turns, instead of waiting out a guard. The loop is
// kept busy meanwhile, so it polls every few turns and never sleeps.
func runTurns(t *testing.T, l *loop.Loop, n int, done func() bool) bool {
	t.Helper()
	defer guard(t, l, "the loop was never stopped")()
	turns := 0
	var tick func()
	tick = func() {
		if turns++; done() || turns >= n {
			l.Stop()
			return
		}
		l.CallSoon(tick)
	}
	l.CallSoon(tick)
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
	return done()
}

// run runs the loop until something stops it, failing the test if that
// takes more than a generous bound.
func run(t *testing.T, l *loop.Loop) {
	t.Helper()
	defer guard(t, l, "the loop was never stopped")()
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
}

// guard stops the loop and fails the test if the run is not over in 10 s,
// so that a test of broken code fails with a message instead of hanging.
// It is a timer of the Go runtime, which works when the loop's own timers
// are what broke, and a timer of the loop's, which works when what broke
// is the wake-up that the first needs to stop it. It must be called on the
// loop's goroutine, before the run; call the result when the run is over.
// A guard that fired ends the test there: a test that runs the loop again
// and again would otherwise wait out the guard each time; and every later
// guard of the package skips its test (loop.SkipAfterAHang).
func guard(t *testing.T, l *loop.Loop, what string) (disarm func()) {
	loop.SkipAfterAHang(t)
	var fired atomic.Bool
	g := time.AfterFunc(10*time.Second, func() {
		loop.AGuardFired.Store(true)
		fired.Store(true)
		t.Error("hung after 10 s: " + what)
		l.CallSoonThreadsafe(l.Stop)
	})
	lt := l.CallLater(11*time.Second, func() {
		loop.AGuardFired.Store(true)
		fired.Store(true)
		t.Error("hung after 11 s, and not woken by CallSoonThreadsafe: " + what)
		l.Stop()
	})
	return func() {
		g.Stop()
		lt.Cancel()
		if fired.Load() {
			t.FailNow()
		}
	}
}

var loopback = netip.MustParseAddrPort("127.0.0.1:0")

// socketPair returns two connected loopback TCP sockets owned by l.
func socketPair(t *testing.T, l *loop.Loop) (client, server int) {
	t.Helper()
	lfd, addr, err := l.Listen(loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer l.SockClose(lfd)
	acc := l.SockAccept(lfd)
	client, err = runFor(t, l, l.SockConnect(addr))
	if err != nil {
		t.Fatal(err)
	}
	a, err := runFor(t, l, acc)
	if err != nil {
		t.Fatal(err)
	}
	return client, a.FD
}

func mustSend(t *testing.T, l *loop.Loop, fd int, data string) {
	t.Helper()
	if _, err := runFor(t, l, l.SockSendAll(fd, []byte(data))); err != nil {
		t.Fatal(err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// waitReadable returns once every one of fds is readable, as a poller of
// its own sees them: a test that needs data to have arrived waits for
// that, not for a time that is usually enough.
func waitReadable(t *testing.T, fds ...int) {
	t.Helper()
	p, err := netpoll.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, fd := range fds {
		if err := p.Register(fd, netpoll.Token(fd), netpoll.Readable); err != nil {
			t.Fatal(err)
		}
		defer p.Deregister(fd)
	}
	readable := map[netpoll.Token]bool{}
	for deadline := time.Now().Add(10 * time.Second); len(readable) < len(fds); {
		if time.Now().After(deadline) {
			t.Fatalf("hung: of fds %v, only %d became readable in 10 s", fds, len(readable))
		}
		events, err := p.Wait(100 * time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range events {
			readable[ev.Token] = true
		}
	}
}
