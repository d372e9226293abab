package resp_test

import (
	"errors"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
)

// Commands their callers cancelled are left alone when the connection is
// lost: not failed a second time (a future completed twice panics, which
// newLoop turns into a failure), and a cancelled idempotent command is
// not sent again.
func TestCancelledCommandsAreLeftAloneWhenTheConnectionIsLost(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	sleep := c.Send("DEBUG", "SLEEP", "0.3")
	plain := c.Send("INCR", "c")
	idem := c.SendIdempotent("GET", "k")
	plain.Cancel()
	idem.Cancel()
	l.CallLater(100*time.Millisecond, p.Cut)
	if _, err := await(t, l, sleep); !errors.Is(err, resp.ErrConnectionLost) {
		t.Fatalf("the command in flight at the cut: %v", err)
	}
	runUntil(t, l, "reconnected", c.Connected)
	if _, err := do(t, l, c, "PING"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*future.Future[resp.Value]{plain, idem} {
		if _, err := f.Result(); !errors.Is(err, future.ErrCancelled) {
			t.Errorf("a cancelled command after the loss: %v; want still cancelled", err)
		}
	}
	if n := p.Count("$3\r\nGET\r\n"); n != 1 {
		t.Fatalf("the cancelled idempotent GET was sent %d times; want once", n)
	}
}

// A command cancelled while it waits for a connection that then fails is
// left alone too.
func TestACancelledWaitingCommandIsLeftAloneWhenTheAttemptFails(t *testing.T) {
	l := newLoop(t)
	c := newClient(t, l, "redis://127.0.0.1:1", resp.Options{MinBackoff: time.Minute, MaxBackoff: time.Minute})
	cancelled := c.Send("PING")
	cancelled.Cancel()
	if _, err := do(t, l, c, "PING"); !errors.Is(err, resp.ErrNotConnected) {
		t.Fatalf("PING to a closed port: %v", err)
	}
	if _, err := cancelled.Result(); !errors.Is(err, future.ErrCancelled) {
		t.Fatalf("the cancelled PING: %v; want still cancelled", err)
	}
}
