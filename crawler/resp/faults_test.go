package resp_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
	"loopkit/loop"
	"loopkit/netpoll"
)

// Redis down when the client starts: the commands waiting for the
// connection fail with ErrNotConnected and the system's reason; while
// the client waits to try again, new commands fail at once, saying when
// the next attempt is; when Redis comes up, the client connects by
// itself.
func TestRedisDownAtConnect(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Stop() // its port, with nothing listening on it
	l := newLoop(t)
	var events []resp.ConnEvent
	c := newClient(t, l, srv.URL(), resp.Options{
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		OnConnEvent: func(ev resp.ConnEvent) { events = append(events, ev) },
	})
	_, err := do(t, l, c, "PING")
	if !errors.Is(err, resp.ErrNotConnected) || !netpoll.IsRefused(err) || !strings.Contains(err.Error(), srv.Addr()) {
		t.Fatalf("PING with Redis down: %v; want ErrNotConnected, connection refused, naming %s", err, srv.Addr())
	}
	_, err = await(t, l, c.Send("PING"))
	if !errors.Is(err, resp.ErrNotConnected) || !strings.Contains(err.Error(), "next attempt in") || !netpoll.IsRefused(err) {
		t.Fatalf("PING while waiting to retry: %v", err)
	}
	if len(events) == 0 || events[0].Up || !netpoll.IsRefused(events[0].Err) || events[0].RetryIn <= 0 {
		t.Fatalf("events: %+v; want a failed attempt, refused, with a retry", events)
	}

	srv.Restart()
	runUntil(t, l, "connected", c.Connected)
	if v, err := do(t, l, c, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("PING once Redis is up: %v, %v", v, err)
	}
	if last := events[len(events)-1]; !last.Up {
		t.Fatalf("the last event is %+v, want the connection up", last)
	}
	// Every event before the last was a failed attempt, and the
	// counters say as many.
	if s := c.Stats(); s.FailedAttempts != uint64(len(events)-1) || s.Connects != 1 || s.Lost != 0 {
		t.Fatalf("stats %+v after %d failed attempts and a connection", s, len(events)-1)
	}
}

// While the client waits before its next attempt, a command it refuses
// says when that attempt is due: within the wait it chose (30 s to a
// minute here), not "at once".
func TestARefusedCommandSaysWhenTheNextAttemptIs(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Stop()
	l := newLoop(t)
	c := newClient(t, l, srv.URL(), resp.Options{MinBackoff: time.Minute, MaxBackoff: time.Minute})
	if _, err := do(t, l, c, "PING"); !errors.Is(err, resp.ErrNotConnected) {
		t.Fatalf("PING with Redis down: %v", err)
	}
	_, err := await(t, l, c.Send("PING"))
	_, rest, _ := strings.Cut(fmt.Sprint(err), "next attempt in ")
	in, _, _ := strings.Cut(rest, ";")
	if d, perr := time.ParseDuration(in); perr != nil || d < 25*time.Second || d > time.Minute {
		t.Fatalf("PING while waiting to retry: %v; want the next attempt 30 s to a minute away", err)
	}
}

// The waits between failed attempts double, from MinBackoff to
// MaxBackoff, each cut by a random factor from 0.5 to 1. The cap is not
// a power of two times the start, so a doubling that passed it shows.
func TestBackoffDoublesUpToItsCap(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Stop()
	l := newLoop(t)
	var waits []time.Duration
	const lo, hi = 8 * time.Millisecond, 50 * time.Millisecond
	newClient(t, l, srv.URL(), resp.Options{
		MinBackoff: lo, MaxBackoff: hi,
		OnConnEvent: func(ev resp.ConnEvent) { waits = append(waits, ev.RetryIn) },
	})
	runUntil(t, l, "7 failed attempts", func() bool { return len(waits) >= 7 })
	for i, w := range waits[:7] {
		full := min(lo<<i, hi)
		if w < full/2 || w > full {
			t.Errorf("wait %d is %v; want from %v to %v", i+1, w, full/2, full)
		}
	}
}

// A connection that comes up starts the backoff afresh: the attempt
// that fails after it is lost waits MinBackoff at most, not what the
// failures before it had built up.
func TestBackoffStartsAfreshAfterAConnection(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Stop()
	l := newLoop(t)
	var events []resp.ConnEvent
	const lo = 4 * time.Millisecond
	c := newClient(t, l, srv.URL(), resp.Options{
		MinBackoff: lo, MaxBackoff: time.Second,
		OnConnEvent: func(ev resp.ConnEvent) { events = append(events, ev) },
	})
	runUntil(t, l, "6 failed attempts", func() bool { return len(events) >= 6 })
	if last := events[len(events)-1]; last.RetryIn < 16*lo {
		t.Fatalf("after %d failures the wait is %v; the backoff did not grow", len(events), last.RetryIn)
	}
	srv.Restart()
	runUntil(t, l, "connected", c.Connected)
	up := len(events)
	srv.Kill()
	runUntil(t, l, "a failed attempt after the loss", func() bool {
		return len(events) > up+1 && events[len(events)-1].RetryIn > 0
	})
	lost, failed := events[up], events[len(events)-1]
	if lost.Up || lost.RetryIn != 0 {
		t.Fatalf("the loss: %+v; want a connection lost and tried again at once", lost)
	}
	if failed.RetryIn > lo {
		t.Fatalf("the first failed attempt after a connection waits %v; want at most MinBackoff, %v", failed.RetryIn, lo)
	}
}

// The connection is lost with commands in flight: each fails with
// ErrConnectionLost, and none is sent again — the proxy, which sees every
// byte the client sent, counts each command once. The client reconnects
// by itself.
func TestConnectionLostMidPipeline(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	if _, err := do(t, l, c, "INCR", "c"); err != nil {
		t.Fatal(err)
	}
	// Redis answers a read's commands together, after the last: while it
	// sleeps, all three are in flight, and then the network fails.
	inFlight := []*future.Future[resp.Value]{
		c.Send("DEBUG", "SLEEP", "0.3"),
		c.Send("INCR", "c"),
		c.Send("INCR", "c"),
	}
	l.CallLater(100*time.Millisecond, p.Cut)
	for i, f := range inFlight {
		if _, err := await(t, l, f); !errors.Is(err, resp.ErrConnectionLost) || !strings.Contains(err.Error(), "may have run") {
			t.Fatalf("command %d in flight at the cut: %v; want ErrConnectionLost", i+1, err)
		}
	}
	runUntil(t, l, "reconnected", c.Connected)
	if v, err := do(t, l, c, "PING"); err != nil || v.Str != "PONG" {
		t.Fatalf("PING on the new connection: %v, %v", v, err)
	}
	if n := p.Count("$4\r\nINCR\r\n"); n != 3 {
		t.Fatalf("the client sent INCR %d times, want 3: a command whose reply was lost must not be sent again", n)
	}
	if s := c.Stats(); s.Connects != 2 || s.Lost != 1 {
		t.Fatalf("stats %+v: want 2 connections, 1 lost", s)
	}
}

// A command sent with SendIdempotent is sent once more on the new
// connection, and its future gets the reply from there; the others are
// not.
func TestIdempotentCommandIsSentAgain(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	if _, err := do(t, l, c, "SET", "k", "v"); err != nil {
		t.Fatal(err)
	}
	sleep := c.Send("DEBUG", "SLEEP", "0.3")
	get := c.SendIdempotent("GET", "k")
	incr := c.Send("INCR", "n")
	l.CallLater(100*time.Millisecond, p.Cut)
	if v, err := await(t, l, get); err != nil || v.Str != "v" {
		t.Fatalf("the idempotent GET: %v, %v; want its reply from the new connection", v, err)
	}
	for _, f := range []*future.Future[resp.Value]{sleep, incr} {
		if _, err := await(t, l, f); !errors.Is(err, resp.ErrConnectionLost) {
			t.Fatalf("a plain command in flight at the cut: %v", err)
		}
	}
	if gets, incrs := p.Count("$3\r\nGET\r\n"), p.Count("$4\r\nINCR\r\n"); gets != 2 || incrs != 1 {
		t.Fatalf("sent GET %d times and INCR %d times; want 2 and 1", gets, incrs)
	}
}

// blpop is how BLPOP's name looks on the wire.
const blpop = "$5\r\nBLPOP\r\n"

// sentBLPOP connects a client through a proxy to a real Redis and sends
// an idempotent BLPOP on a list nobody fills (a reply that never comes),
// returning once the proxy has seen it go by.
func sentBLPOP(t *testing.T) (*proxy, *loop.Loop, *resp.Client, *future.Future[resp.Value]) {
	t.Helper()
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	f := c.SendIdempotent("BLPOP", "never", 0)
	runUntil(t, l, "BLPOP sent", func() bool { return p.Count(blpop) == 1 })
	return p, l, c, f
}

// An idempotent command is sent again once, not after every lost
// connection: when the connection it went out on again is lost too before
// its reply, it fails with ErrConnectionLost, and the server saw it twice.
// (BLPOP on a list nobody fills: a reply that never comes.)
func TestIdempotentCommandIsSentAgainOnlyOnce(t *testing.T) {
	p, l, _, f := sentBLPOP(t)
	p.Cut()
	runUntil(t, l, "BLPOP sent again", func() bool { return p.Count(blpop) == 2 })
	p.Cut()
	runUntil(t, l, "BLPOP failed, or sent a third time", func() bool { return f.Done() || p.Count(blpop) > 2 })
	if _, err := f.Result(); !errors.Is(err, resp.ErrConnectionLost) || p.Count(blpop) != 2 {
		t.Fatalf("after two losses: %v, sent %d times; want ErrConnectionLost, sent twice", err, p.Count(blpop))
	}
}

// What is sent again is the command as it was given, whatever was written
// after it: the next command reuses the write buffer it went out from.
func TestIdempotentCommandIsSentAgainAsGiven(t *testing.T) {
	p, l, c, f := sentBLPOP(t)
	c.Send("ECHO", "12345678") // shorter than the BLPOP: written where it was
	p.Cut()
	runUntil(t, l, "BLPOP sent again, or answered", func() bool { return p.Count(blpop) == 2 || f.Done() })
	if f.Done() {
		v, err := f.Result()
		t.Fatalf("the BLPOP, sent again, was answered %v, %v; sent %d times", v, err, p.Count(blpop))
	}
}

// An idempotent command whose second connection fails too is reported
// as possibly run (it was sent once), not as never sent.
func TestIdempotentCommandWithNowhereToGoAgain(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	c.Send("DEBUG", "SLEEP", "0.3")
	get := c.SendIdempotent("GET", "k")
	l.CallLater(100*time.Millisecond, srv.Kill) // and nothing listens any more
	if _, err := await(t, l, get); !errors.Is(err, resp.ErrConnectionLost) || errors.Is(err, resp.ErrNotConnected) {
		t.Fatalf("got %v; want ErrConnectionLost only", err)
	}
}

// A connection that ends in the middle of a reply is a reply cut short
// (ErrTruncated), not a server that closed between replies: the command
// may have run, and its answer was lost half-way. The proxy passes the
// first line of GET's "$5\r\nhello\r\n", then the network fails.
func TestConnectionCutInTheMiddleOfAReply(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	if _, err := do(t, l, c, "SET", "k", "hello"); err != nil {
		t.Fatal(err)
	}
	p.Hold()
	get := c.Send("GET", "k")
	p.Release()
	runUntil(t, l, "the reply's first line passed on", func() bool { return p.Passed() == 1 })
	p.Cut()
	if _, err := await(t, l, get); !errors.Is(err, resp.ErrTruncated) || !errors.Is(err, resp.ErrConnectionLost) {
		t.Fatalf("GET cut short: %v; want ErrTruncated and ErrConnectionLost", err)
	}
}

// A reply over any of the limits closes the connection with ErrTooLarge:
// the command that asked for it and those behind it fail, and the client
// reconnects for the next ones.
func TestReplyOverItsLimitClosesTheConnection(t *testing.T) {
	cases := []struct {
		name  string
		lim   resp.Limits
		setup []any
		cmd   []any
	}{
		{"bulk string", resp.Limits{MaxBulkBytes: 1000}, []any{"SET", "big", strings.Repeat("x", 1001)}, []any{"GET", "big"}},
		{"array", resp.Limits{MaxArrayLen: 3}, []any{"RPUSH", "list", 1, 2, 3, 4}, []any{"LRANGE", "list", 0, -1}},
		{"depth", resp.Limits{MaxDepth: 2}, []any{"PING"}, []any{"EVAL", "return {{{1}}}", 0}},
		{"line", resp.Limits{MaxLineBytes: 20}, []any{"PING"}, []any{"EVAL", "return redis.status_reply('" + strings.Repeat("s", 21) + "')", 0}},
		{"reply", resp.Limits{MaxReplyBytes: 100}, []any{"RPUSH", "l", strings.Repeat("a", 50), strings.Repeat("b", 50)}, []any{"LRANGE", "l", 0, -1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, l, c := withServer(t, redistest.Options{}, resp.Options{Limits: tc.lim})
			if _, err := do(t, l, c, tc.setup...); err != nil {
				t.Fatal(err)
			}
			over := c.Send(tc.cmd...)
			behind := c.Send("PING")
			for _, f := range []*future.Future[resp.Value]{over, behind} {
				if _, err := await(t, l, f); !errors.Is(err, resp.ErrTooLarge) || !errors.Is(err, resp.ErrConnectionLost) {
					t.Fatalf("got %v; want ErrTooLarge and ErrConnectionLost", err)
				}
			}
			if v, err := do(t, l, c, "PING"); err != nil || v.Str != "PONG" {
				t.Fatalf("PING on the next connection: %v, %v", v, err)
			}
			if s := c.Stats(); s.Lost != 1 || s.Connects != 2 {
				t.Fatalf("stats %+v", s)
			}
		})
	}
}

// Redis with the append-only file on, fsync always, killed and restarted
// on its directory: the client reconnects, and every write it saw
// acknowledged is there.
func TestRestartWithAppendOnlyFileLosesNoAcknowledgedWrite(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{AppendOnly: true}, resp.Options{
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
	})
	var last *future.Future[resp.Value]
	for i := range 100 {
		last = c.Send("RPUSH", "log", i)
	}
	if n, err := resp.Int(await(t, l, last)); err != nil || n != 100 {
		t.Fatalf("%d, %v", n, err)
	}
	srv.Kill()
	srv.Restart()
	// The client learns of the crash when its socket reads EOF, on the
	// loop's next turn; then it reconnects.
	runUntil(t, l, "reconnected", func() bool { return c.Stats().Lost == 1 && c.Connected() })
	if n, err := resp.Int(do(t, l, c, "LLEN", "log")); err != nil || n != 100 {
		t.Fatalf("after the crash the list holds %d (%v); want 100", n, err)
	}
}

// Close fails what is pending: sent commands with ErrConnectionLost,
// those still waiting for the connection with ErrNotConnected, both with
// ErrClientClosed; and commands after it fail at once.
func TestCloseFailsPendingCommands(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{})
	if _, err := await(t, l, c.Send("PING")); err != nil {
		t.Fatal(err)
	}
	sent := c.Send("DEBUG", "SLEEP", "0.2")
	runFor(t, l, 20*time.Millisecond) // it leaves
	c.Close()
	if _, err := await(t, l, sent); !errors.Is(err, resp.ErrConnectionLost) || !errors.Is(err, resp.ErrClientClosed) {
		t.Fatalf("a sent command at Close: %v", err)
	}
	if _, err := await(t, l, c.Send("PING")); !errors.Is(err, resp.ErrNotConnected) || !errors.Is(err, resp.ErrClientClosed) {
		t.Fatalf("a command after Close: %v", err)
	}

	c2 := newClient(t, l, srv.URL(), resp.Options{})
	waiting := c2.Send("PING") // the client is still connecting: not sent
	c2.Close()
	if _, err := await(t, l, waiting); !errors.Is(err, resp.ErrNotConnected) || !errors.Is(err, resp.ErrClientClosed) {
		t.Fatalf("a command waiting for the connection at Close: %v", err)
	}
}

// A closed client is not connected: Close lets go of its connection, so
// Connected, which a program polls to say "Redis is up", turns false with
// it and stays false (no reconnection follows a Close).
func TestAClosedClientIsNotConnected(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	if !c.Connected() {
		t.Fatal("not Connected after a PING was answered")
	}
	c.Close()
	if c.Connected() {
		t.Fatal("Connected right after Close")
	}
	runFor(t, l, 20*time.Millisecond) // whatever the loop had queued for the connection runs
	if c.Connected() {
		t.Fatal("Connected after Close, once the loop ran")
	}
}

// A loop closed under a client with commands in flight fails them (the
// client's close hook) and leaves no socket and no goroutine behind.
func TestLoopCloseLeavesNothingBehind(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := resp.NewClient(l, srv.URL(), resp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := await(t, l, c.Send("PING")); err != nil {
		t.Fatal(err)
	}
	inFlight := c.Send("DEBUG", "SLEEP", "0.1")
	runFor(t, l, 10*time.Millisecond)
	l.Close()
	if _, err := inFlight.Result(); !errors.Is(err, resp.ErrClientClosed) {
		t.Fatalf("a command in flight when the loop closed: %v", err)
	}
	if after := openFDs(t); after != fds {
		t.Errorf("fds: %d before, %d after Close", fds, after)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("goroutines: %d before, %d after Close", goroutines, n)
	}
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	return len(entries)
}

// A host name that does not resolve fails the attempt at once, with the
// resolver's error, not the connect timeout's.
func TestAnUnknownHostFailsWithTheResolversError(t *testing.T) {
	l := newLoop(t)
	c := newClient(t, l, "redis://no-such-host.invalid:6379", resp.Options{ConnectTimeout: 2 * time.Second, MinBackoff: time.Minute, MaxBackoff: time.Minute})
	_, err := do(t, l, c, "PING")
	var dnsErr *net.DNSError
	if !errors.Is(err, resp.ErrNotConnected) || !errors.As(err, &dnsErr) || errors.Is(err, resp.ErrTimeout) {
		t.Fatalf("PING to an unknown host: %v; want ErrNotConnected with the DNS error", err)
	}
}

// A reply that no command waits for means the connection is out of
// step: the client drops it and makes a new one, rather than hand that
// reply to the next command.
func TestAReplyNoCommandWaitsForDropsTheConnection(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	if _, err := do(t, l, c, "SET", "k", "v"); err != nil {
		t.Fatal(err)
	}
	p.Inject([]byte("$5\r\nstale\r\n"))
	runUntil(t, l, "the connection dropped and made again", func() bool { return c.Stats().Lost == 1 && c.Connected() })
	if v, err := do(t, l, c, "GET", "k"); err != nil || v.Str != "v" {
		t.Fatalf("GET after the stray reply: %v, %v; want v", v, err)
	}
}
