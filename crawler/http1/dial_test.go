package http1_test

import (
	"errors"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/loop"
)

// Addresses from the documentation ranges (RFC 3849, RFC 5737): the tests
// below never connect to them, a fake dialer decides what each one does.
var (
	v6a = netip.MustParseAddr("2001:db8::a")
	v6b = netip.MustParseAddr("2001:db8::b")
	v4a = netip.MustParseAddr("192.0.2.1")
	v4b = netip.MustParseAddr("192.0.2.2")
)

// fakeNet plays a network where each address either reaches the test
// server on 127.0.0.1, is refused, or is a black hole that never answers.
type fakeNet struct {
	l       *loop.Loop
	server  netip.AddrPort // where "ok" addresses really connect
	refused netip.AddrPort
	ok      []netip.Addr
	tried   []netip.Addr                       // in the order the dialer tried them
	pending map[netip.Addr]*future.Future[int] // black holes' futures
	onDial  func(netip.Addr)                   // called after each attempt starts
}

func newFakeNet(t *testing.T, l *loop.Loop, serverURL string, ok ...netip.Addr) *fakeNet {
	return &fakeNet{l: l, server: netip.MustParseAddrPort(strings.TrimPrefix(serverURL, "http://")),
		refused: netip.MustParseAddrPort(closedAddr(t)), ok: ok, pending: map[netip.Addr]*future.Future[int]{}}
}

// blackHole marks addrs as never answering.
func (n *fakeNet) blackHole(addrs ...netip.Addr) {
	for _, a := range addrs {
		n.pending[a] = nil
	}
}

func (n *fakeNet) connect(ap netip.AddrPort) *future.Future[int] {
	a := ap.Addr()
	n.tried = append(n.tried, a)
	defer func() {
		if n.onDial != nil {
			n.onDial(a)
		}
	}()
	switch {
	case slices.Contains(n.ok, a):
		return n.l.SockConnect(n.server)
	case n.isBlackHole(a):
		f := future.New[int](n.l) // cancelled by the dialer, or never done
		n.pending[a] = f
		return f
	}
	return n.l.SockConnect(n.refused)
}

func (n *fakeNet) isBlackHole(a netip.Addr) bool {
	_, ok := n.pending[a]
	return ok
}

// dualStack is a client whose host "dual.test" has addrs, dialed through n.
func dualStack(t *testing.T, opts http1.Options, delay time.Duration, serverURL string, addrs []netip.Addr, ok ...netip.Addr) (*loop.Loop, *http1.Client, *fakeNet, string) {
	l, c := onLoop(t, opts)
	n := newFakeNet(t, l, serverURL, ok...)
	c.FakeDial(map[string][]netip.Addr{"dual.test": addrs}, n.connect, delay)
	return l, c, n, "http://dual.test:" + strconv.Itoa(int(n.server.Port())) + "/"
}

func okServer(t *testing.T) *countingServer {
	return newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
}

// Addresses are tried with the families interleaved, starting with the
// family of the resolver's first choice, whichever it is, and keeping the
// resolver's order within each family; when all fail, the last error is
// the answer.
func TestAddressFamiliesAreInterleaved(t *testing.T) {
	srv := okServer(t)
	for _, tc := range []struct{ resolved, want []netip.Addr }{
		{[]netip.Addr{v6a, v6b, v4a, v4b}, []netip.Addr{v6a, v4a, v6b, v4b}},
		{[]netip.Addr{v4b, v6b, v6a, v4a}, []netip.Addr{v4b, v6b, v4a, v6a}},
		{[]netip.Addr{v4a, v4b, v6a}, []netip.Addr{v4a, v6a, v4b}},
	} {
		l, c, n, url := dualStack(t, http1.Options{}, -1, srv.URL, tc.resolved)
		_, err := get(t, l, c, url)
		if err == nil || !strings.Contains(err.Error(), "connection refused") {
			t.Fatalf("every address refused: %v", err)
		}
		if !slices.Equal(n.tried, tc.want) {
			t.Fatalf("resolved %v, tried %v, want %v", tc.resolved, n.tried, tc.want)
		}
	}
}

// An unreachable first address costs the attempt delay, 250 ms, not the
// connect timeout: the next address starts beside it, wins, and the first
// attempt is cancelled.
func TestUnreachableAddressCostsTheAttemptDelay(t *testing.T) {
	t.Parallel()
	srv := okServer(t)
	l, c, n, url := dualStack(t, http1.Options{ConnectTimeout: 10 * time.Second}, -1, srv.URL, []netip.Addr{v6a, v4a}, v4a)
	n.blackHole(v6a)
	r, err := get(t, l, c, url)
	if err != nil {
		t.Fatal(err)
	}
	// Loop timers never fire early, so the lower bound is exact.
	if tc := r.Timings.Connect; tc < 250*time.Millisecond || tc > 5*time.Second {
		t.Fatalf("connected after %v, want the 250 ms attempt delay, not the 10 s timeout", tc)
	}
	if f := n.pending[v6a]; f == nil || !f.Cancelled() {
		t.Fatal("the unreachable address's attempt was not cancelled when the other won")
	}
}

// A refused address moves on to the next at once, without waiting for the
// attempt delay.
func TestFailedAddressMovesOnAtOnce(t *testing.T) {
	srv := okServer(t)
	l, c, n, url := dualStack(t, http1.Options{}, 10*time.Second, srv.URL, []netip.Addr{v6a, v4a}, v4a)
	r, err := get(t, l, c, url)
	if err != nil {
		t.Fatal(err)
	}
	if r.Timings.Connect > 5*time.Second {
		t.Fatalf("connected after %v: the refused address waited for the attempt delay", r.Timings.Connect)
	}
	if !slices.Equal(n.tried, []netip.Addr{v6a, v4a}) {
		t.Fatalf("tried %v", n.tried)
	}
}

// A connect timeout on one address moves on to the next; on all of them,
// it is the request's error.
func TestConnectTimeoutOnOneAddressMovesOn(t *testing.T) {
	t.Parallel()
	srv := okServer(t)
	opts := http1.Options{ConnectTimeout: 100 * time.Millisecond}
	l, c, n, url := dualStack(t, opts, 10*time.Second, srv.URL, []netip.Addr{v6a, v4a}, v4a)
	n.blackHole(v6a)
	if _, err := get(t, l, c, url); err != nil {
		t.Fatalf("one address timing out: %v", err)
	}
	l, c, n, url = dualStack(t, opts, 10*time.Second, srv.URL, []netip.Addr{v6a, v4a})
	n.blackHole(v6a, v4a)
	_, err := get(t, l, c, url)
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "connect" || te.After != opts.ConnectTimeout || len(n.tried) != 2 {
		t.Fatalf("every address timing out: %v after trying %v", err, n.tried)
	}
}

// The first connection wins; another that connects too is closed, not
// leaked: the server sees it close without a request.
func TestLosingConnectionIsClosed(t *testing.T) {
	srv := okServer(t)
	l, c, n, url := dualStack(t, http1.Options{}, 10*time.Millisecond, srv.URL, []netip.Addr{v6a, v4a})
	// Both addresses connect for real, and both are reported connected in
	// the same turn of the loop, after the second has started: the dialer
	// takes one and must close the other.
	n.blackHole(v6a, v4a)
	real := map[netip.Addr]*future.Future[int]{}
	n.onDial = func(a netip.Addr) {
		real[a] = l.SockConnect(n.server)
		if a != v4a {
			return
		}
		both := future.New[struct{}](l)
		real[v6a].OnDone(func() { real[v4a].OnDone(func() { both.SetResult(struct{}{}) }) })
		both.OnDone(func() {
			for _, a := range []netip.Addr{v6a, v4a} {
				if fd, err := real[a].Result(); err == nil && !n.pending[a].Done() {
					n.pending[a].SetResult(fd)
				}
			}
		})
	}
	if _, err := get(t, l, c, url); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, l, "the server sees the losing connection close", func() bool { return srv.closed.Load() == 1 })
	if accepted, open := srv.conns.Load(), c.OpenConns(); accepted != 2 || open != 1 {
		t.Fatalf("server accepted %d connections, client has %d open; want 2 and 1", accepted, open)
	}
}

// The last address failing is not the end while an earlier one is still
// trying: a slow first address that connects after the second was
// refused wins, instead of the request failing with the refusal.
func TestASlowAddressStillWinsAfterTheNextIsRefused(t *testing.T) {
	t.Parallel()
	srv := okServer(t)
	l, c, n, url := dualStack(t, http1.Options{}, 20*time.Millisecond, srv.URL, []netip.Addr{v6a, v4a})
	n.blackHole(v6a) // answers late, below; v4a is refused
	n.onDial = func(a netip.Addr) {
		if a != v6a {
			return
		}
		l.CallLater(200*time.Millisecond, func() {
			l.SockConnect(n.server).AddDoneCallback(func(f *future.Future[int]) {
				if fd, err := f.Result(); err == nil && !n.pending[v6a].Done() {
					n.pending[v6a].SetResult(fd)
				}
			})
		})
	}
	r, err := get(t, l, c, url)
	if err != nil {
		t.Fatalf("got %v; want the slow address to win", err)
	}
	if !slices.Equal(n.tried, []netip.Addr{v6a, v4a}) || r.Timings.Connect < 200*time.Millisecond {
		t.Fatalf("tried %v, connected after %v", n.tried, r.Timings.Connect)
	}
}

// An address started early, by a failure, restarts the attempt delay: the
// next one waits a full delay after it, not after the address that failed.
// The first fails 0.3 of a delay in, which starts the second at once; the
// third starts a delay after the second (1.3 delays in), where the delay
// started with the first, left running, would start it at 1: 0.7 of a
// delay after the second. Judged by when each attempt started on the
// loop's clock: a busy machine makes timers late, never early, so only a
// failure timer late by most of a delay could fail a right answer.
func TestAFailureRestartsTheAttemptDelay(t *testing.T) {
	t.Parallel()
	const delay = 400 * time.Millisecond
	srv := okServer(t)
	l, c, n, url := dualStack(t, http1.Options{ConnectTimeout: time.Minute}, delay, srv.URL, []netip.Addr{v6a, v4a, v6b})
	n.blackHole(v6a, v4a, v6b)
	started := map[netip.Addr]time.Duration{}
	third := future.New[struct{}](l)
	n.onDial = func(a netip.Addr) {
		started[a] = l.Time()
		switch a {
		case v6a:
			l.CallLater(delay*3/10, func() { n.pending[v6a].SetError(errors.New("refused")) })
		case v6b:
			third.SetResult(struct{}{})
		}
	}
	c.Do(http1.Request{URL: url})
	await(t, l, third)
	c.Close()
	early, next := started[v4a]-started[v6a], started[v6b]-started[v4a]
	if early >= delay || next < delay {
		t.Fatalf("the second started %v after the first, which failed; the third %v after the second; want the second early, before a delay (%v), and the third a delay after it", early, next, delay)
	}
}
