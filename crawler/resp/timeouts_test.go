package resp_test

import (
	"errors"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
)

// A reply that does not come within ReplyTimeout closes the connection:
// the commands in flight fail with a TimeoutError (phase "reply") that
// matches ErrConnectionLost and, to a net.Error-style check, says it is
// a timeout; and the client reconnects.
func TestReplyTimeout(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{ReplyTimeout: 100 * time.Millisecond})
	slow := c.Send("DEBUG", "SLEEP", "0.5")
	behind := c.Send("PING")
	start := time.Now()
	for _, f := range []*future.Future[resp.Value]{slow, behind} {
		_, err := await(t, l, f)
		var terr *resp.TimeoutError
		if !errors.As(err, &terr) || terr.Phase != "reply" || !errors.Is(err, resp.ErrTimeout) || !errors.Is(err, resp.ErrConnectionLost) {
			t.Fatalf("got %v; want a reply timeout, connection lost", err)
		}
		var timeout interface{ Timeout() bool }
		if !errors.As(err, &timeout) || !timeout.Timeout() {
			t.Fatalf("got %v; a net.Error-style check does not see a timeout", err)
		}
	}
	if waited := time.Since(start); waited > 450*time.Millisecond {
		t.Fatalf("the timeout fired after %v; the server's sleep was 500ms", waited)
	}
	// The client connects again and is answered. Redis itself is asleep
	// until its 500 ms are up, and a machine busy enough (the race
	// detector, other tests) may hold a reply past 100 ms: a reply
	// timeout here is tried again, a few times; any other error fails.
	for try := 1; ; try++ {
		v, err := do(t, l, c, "PING")
		if err == nil && v.Str == "PONG" {
			break
		}
		if try == 5 || !errors.Is(err, resp.ErrTimeout) {
			t.Fatalf("PING afterwards, try %d: %v, %v", try, v, err)
		}
	}
}

// A server that accepts the connection and then answers nothing (frozen
// with SIGSTOP: the kernel still completes the TCP handshake) times the
// connection attempt out; once it wakes, the client connects.
func TestConnectTimeoutOnAHungServer(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	srv.Pause()
	defer srv.Resume()
	l := newLoop(t)
	c := newClient(t, l, srv.URL(), resp.Options{
		ConnectTimeout: 150 * time.Millisecond, MinBackoff: 20 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
	})
	_, err := do(t, l, c, "PING")
	var terr *resp.TimeoutError
	if !errors.Is(err, resp.ErrNotConnected) || !errors.As(err, &terr) || terr.Phase != "connect" {
		t.Fatalf("got %v; want a connect timeout, not connected", err)
	}
	srv.Resume()
	runUntil(t, l, "connected", c.Connected)
}

// A hung server is a reply timeout once connected, too.
func TestReplyTimeoutOnAHungServer(t *testing.T) {
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{ReplyTimeout: 100 * time.Millisecond})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	srv.Pause()
	defer srv.Resume()
	if _, err := do(t, l, c, "PING"); !errors.Is(err, resp.ErrTimeout) || !errors.Is(err, resp.ErrConnectionLost) {
		t.Fatalf("got %v", err)
	}
}

// The reply timeout counts for each reply from the one before it, not
// from the first command of a pipeline: ten commands whose replies come
// 75 ms apart (the proxy lets them through one by one) are answered over
// more than the 600 ms timeout, and not one of them times out, because
// the replies keep coming.
func TestReplyTimeoutCountsFromTheReplyBefore(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	const timeout, gap, n = 600 * time.Millisecond, 75 * time.Millisecond, 10
	c := newClient(t, l, p.URL(), resp.Options{ReplyTimeout: timeout})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	p.Hold()
	start := l.Time()
	var fs []*future.Future[resp.Value]
	for range n {
		fs = append(fs, c.Send("INCR", "n"))
	}
	// Each reply is let through a gap after the one before it arrived.
	l.CallLater(gap, p.Release)
	for _, f := range fs[:n-1] {
		f.OnDone(func() { l.CallLater(gap, p.Release) })
	}
	for i, f := range fs {
		if v, err := resp.Int(await(t, l, f)); err != nil || v != int64(i+1) {
			t.Fatalf("reply %d of the pipeline: %v, %v; want %d", i+1, v, err, i+1)
		}
	}
	if took := l.Time() - start; took <= timeout {
		t.Fatalf("the pipeline took %v, within the timeout: this test tested nothing", took)
	}
	if s := c.Stats(); s.Lost != 0 {
		t.Fatalf("stats %+v: a connection was lost", s)
	}
}

// A reply timeout still guards a command given after the connection sat
// idle past its last timer: the timer that fired with nothing to guard is
// set again for the next command. Loop timers fire in deadline order, so
// the idle wait ends after that timer fired, and the reply timeout before
// the check at ten times its length.
func TestReplyTimeoutAfterAnIdleSpell(t *testing.T) {
	const timeout = 100 * time.Millisecond
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{ReplyTimeout: timeout})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	runFor(t, l, 2*timeout) // idle: the PING's timer fires, with nothing awaited
	if s := c.Stats(); s.Lost != 0 || !c.Connected() {
		t.Fatalf("the connection, idle with nothing awaited, was dropped: %+v", s)
	}
	srv.Pause()
	defer srv.Resume()
	f := c.Send("PING")
	check := future.New[struct{}](l)
	l.CallLater(10*timeout, func() { check.SetResult(struct{}{}) })
	runUntil(t, l, "the PING failed, or the check came", func() bool { return f.Done() || check.Done() })
	if err := f.Err(); !errors.Is(err, resp.ErrTimeout) {
		t.Fatalf("a PING to a hung server, ten reply timeouts on: %v; want a reply timeout", err)
	}
}

// The reply timeout counts for the oldest command still waiting for its
// reply, not from the newest command sent: a server that hangs times
// out even while the program keeps sending it commands. Were each new
// command to restart the wait, a busy client of a hung server would wait
// for ever. Here a PING goes out every quarter of the timeout; the first
// reply never comes, and the first command fails with a reply timeout
// long before the sending stops, at ten timeouts.
func TestReplyTimeoutIsNotPutOffByNewCommands(t *testing.T) {
	const timeout = 100 * time.Millisecond
	srv, l, c := withServer(t, redistest.Options{}, resp.Options{ReplyTimeout: timeout})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	srv.Pause()
	defer srv.Resume()
	first := c.Send("PING")
	stop := l.Time() + 10*timeout
	check := future.New[struct{}](l)
	var more func()
	more = func() {
		switch {
		case first.Done():
		case l.Time() >= stop:
			check.SetResult(struct{}{})
		default:
			c.Send("PING")
			l.CallLater(timeout/4, more)
		}
	}
	l.CallLater(timeout/4, more)
	runUntil(t, l, "the first PING failed, or the sending stopped", func() bool { return first.Done() || check.Done() })
	if err := first.Err(); !errors.Is(err, resp.ErrTimeout) {
		t.Fatalf("the first PING to a hung server, with a PING more every quarter timeout for ten timeouts: %v; want a reply timeout", err)
	}
}
