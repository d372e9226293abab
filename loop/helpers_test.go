package loop_test

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
)

// eachPoller runs a test once per poller this OS has (epoll and poll on
// Linux, kqueue and poll on the BSDs), each on a fresh loop.
func eachPoller(t *testing.T, test func(t *testing.T, l *loop.Loop)) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := loop.New(&loop.Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			test(t, l)
		})
	}
}

// runFor runs the loop until f is done, failing the test if that takes
// more than a generous bound (a hang, not a measurement).
func runFor[T any](t *testing.T, l *loop.Loop, f *future.Future[T]) (T, error) {
	t.Helper()
	guard := l.CallLater(10*time.Second, func() { t.Error("hung: the future never completed"); l.Stop() })
	if err := l.RunUntilComplete(f); err != nil {
		t.Fatal(err)
	}
	guard.Cancel()
	return f.Result()
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
