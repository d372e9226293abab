package http1_test

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/http1"
	"loopkit/future"
)

// The total deadline is a field of the exchange, checked by whatever
// guards it at the time; these tests put an exchange in each place it
// can be when its time runs out, and expect a "total" timeout from each.

func wantTotal(t *testing.T, what string, err error, after time.Duration) {
	t.Helper()
	var te *http1.TimeoutError
	if !errors.As(err, &te) || te.Phase != "total" || te.After != after {
		t.Fatalf("%s: %v, want a total timeout after %v", what, err, after)
	}
}

// While dialling: the only address never answers, the connect timeout is
// long, the total deadline short. Checked by hand: without the
// connection's timer guarding the deadline while it dials, this fails
// with a connect timeout.
func TestTotalDeadlineWhileDialling(t *testing.T) {
	t.Parallel()
	srv := okServer(t)
	opts := http1.Options{ConnectTimeout: 5 * time.Second, TotalTimeout: 100 * time.Millisecond}
	l, c, n, url := dualStack(t, opts, 10*time.Second, srv.URL, []netip.Addr{v4a})
	n.blackHole(v4a)
	start := time.Now()
	_, err := get(t, l, c, url)
	wantTotal(t, "dialling a black hole", err, 100*time.Millisecond)
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v: the connect timeout, not the total deadline, ended it", d)
	}
}

// While queued for a connection: the host is at its cap, held by a
// connection that reads and drops a body its exchange did not want — a
// connection busy with no exchange — and the pool timeout is long. The
// queued request's deadline passes while it waits. The body's bytes come
// only once the test is over, so nothing but the deadline can end the
// wait. Checked by hand: a pool timer that ignores the deadline keeps it
// waiting until the hang guard.
func TestTotalDeadlineWhileQueuedInThePool(t *testing.T) {
	t.Parallel()
	over := make(chan struct{})
	defer close(over)
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n"))
		<-over
		c.Write([]byte("xxx"))
	})
	l, c := onLoop(t, http1.Options{MaxConnsPerHost: 1, PoolTimeout: 10 * time.Second, TotalTimeout: 300 * time.Millisecond})
	noBody := func(*http1.Response) bool { return false }
	if r, err := await(t, l, c.Do(http1.Request{URL: url, WantBody: noBody})); err != nil || !r.BodySkipped {
		t.Fatalf("the request that leaves its connection draining: %v", err)
	}
	_, err := get(t, l, c, url)
	wantTotal(t, "queued behind a draining connection", err, 300*time.Millisecond)
}

// On a keep-alive connection whose timer was armed for the idle timeout:
// the next request's deadline is earlier than that timer's, and is kept.
// Checked by hand: a connection deadline that leaves out the exchange's
// fails this with a read timeout, 10 s later.
func TestTotalDeadlineOnAReusedConnection(t *testing.T) {
	t.Parallel()
	over := make(chan struct{})
	defer close(over)
	var answered atomic.Bool
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		for {
			if _, err := readRequest(r); err != nil {
				return
			}
			if answered.CompareAndSwap(false, true) {
				c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
				continue
			}
			<-over // the second request hangs, until the test is over
			return
		}
	})
	l, c := onLoop(t, http1.Options{TotalTimeout: 300 * time.Millisecond, ReadTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second})
	if r, err := get(t, l, c, url); err != nil || r.StatusCode != 200 {
		t.Fatalf("first: %v", err)
	}
	_, err := get(t, l, c, url)
	wantTotal(t, "a hanging response on a reused connection", err, 300*time.Millisecond)
}

// Cancelling the future of a request in flight closes its connection at
// once: nobody can tell what state it was left in. The connection hears
// of it through the callback it put on the future when it took the
// exchange. Checked by hand: without that callback the connection stays
// open until the server gives up on it.
func TestCancellingDoClosesItsConnection(t *testing.T) {
	over := make(chan struct{})
	defer close(over)
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		readRequest(r)
		<-over // silent until the test is over: only the cancel can end the request
	})
	l, c := onLoop(t, http1.Options{})
	f := c.Do(http1.Request{URL: url})
	l.CallLater(50*time.Millisecond, func() { f.Cancel() })
	if _, err := await(t, l, f); !errors.Is(err, future.ErrCancelled) {
		t.Fatalf("got %v, want the cancellation", err)
	}
	settle := future.New[int](l)
	l.CallLater(10*time.Millisecond, func() { settle.SetResult(c.OpenConns()) })
	if n, _ := await(t, l, settle); n != 0 {
		t.Fatalf("%d connections open after the request was cancelled", n)
	}
}

// A timeout too large for the loop's clock means "never", not a deadline
// that wraps round into the past and fires at once: first the total
// timeout alone, then every timeout of the client.
func TestTimeoutsTooLargeForTheClockNeverFire(t *testing.T) {
	const forever = time.Duration(math.MaxInt64)
	for name, opts := range map[string]http1.Options{
		"total": {TotalTimeout: forever},
		"all": {TotalTimeout: forever, ConnectTimeout: forever, ReadTimeout: forever, HeaderTimeout: forever,
			WriteTimeout: forever, PoolTimeout: forever, IdleTimeout: forever, HandshakeTimeout: forever, DNSTTL: forever},
	} {
		// One connection: of two requests made together, the second waits
		// in the pool (pool timeout) for the first's connection, which it
		// writes and reads (write, read and header timeouts); a third
		// takes it from the idle list (idle timeout).
		opts.MaxConnsPerHost = 1
		srv := newCountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "page")
		}))
		l, c := onLoop(t, opts)
		first, second := c.Do(http1.Request{URL: srv.URL}), c.Do(http1.Request{URL: srv.URL})
		for i, f := range []*future.Future[*http1.Reply]{first, second} {
			if r, err := await(t, l, f); err != nil || string(r.Body) != "page" {
				t.Fatalf("%s, request %d: %v, %v", name, i, r, err)
			}
		}
		l.CallSoon(l.Stop) // a turn with the connection idle
		l.Run()
		if r, err := get(t, l, c, srv.URL); err != nil || !r.Reused {
			t.Fatalf("%s, request 2: %v, %v; want it on the idle connection", name, r, err)
		}
		if n := srv.conns.Load(); n != 1 {
			t.Fatalf("%s: %d connections, want 1", name, n)
		}
	}
}
