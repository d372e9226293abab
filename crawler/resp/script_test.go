package resp_test

import (
	"errors"
	"strings"
	"testing"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
	"loopkit/task"
)

// renew is the kind of script a fleet needs: extend a lease only if it is
// still ours, and say which fencing token it holds; an atomic
// check-then-write that two separate commands could not do.
var renew = resp.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return tonumber(redis.call('GET', KEYS[2]))
end
return redis.error_reply('LOST lease held by another')`)

// The first run finds the script unknown (NOSCRIPT) and sends its source;
// the second goes by SHA1 alone. The proxy sees the source cross the wire
// once.
func TestScriptFallsBackToEvalOnce(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{})
	do(t, l, c, "SET", "lease", "me", "PX", 10000)
	do(t, l, c, "SET", "token", 7)
	for range 2 {
		if n, err := resp.Int(await(t, l, renew.Send(c, []string{"lease", "token"}, "me", 20000))); err != nil || n != 7 {
			t.Fatalf("renew: %d, %v", n, err)
		}
	}
	if ttl := cliInt(t, srv, "PTTL", "lease"); ttl <= 10000 {
		t.Fatalf("the lease was not renewed: PTTL %d", ttl)
	}
	if evalsha, eval := p.Count("$7\r\nEVALSHA\r\n"), p.Count("$4\r\nEVAL\r\n"); evalsha != 2 || eval != 1 {
		t.Fatalf("EVALSHA sent %d times, EVAL %d; want 2 and 1", evalsha, eval)
	}
	// The script's own error is the command's error.
	_, err := await(t, l, renew.Send(c, []string{"lease", "token"}, "someone else", 20000))
	var serr *resp.Error
	if !errors.As(err, &serr) || serr.Code() != "LOST" {
		t.Fatalf("renewing another's lease: %v", err)
	}
}

// Scripts in Options.Scripts are loaded on every new connection, before
// any command: EVALSHA finds them even on a server that restarted empty,
// and no EVAL is ever sent.
func TestScriptsAreLoadedOnEveryConnection(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	p := newProxy(t, srv.Addr())
	l := newLoop(t)
	c := newClient(t, l, p.URL(), resp.Options{Scripts: []*resp.Script{renew}})
	run := func() {
		t.Helper()
		v, err := task.Run(l, func(y task.Yield) (resp.Value, error) {
			return renew.Run(y, c, []string{"lease", "token"}, "nobody", 1)
		})
		if err == nil || !strings.Contains(err.Error(), "LOST") {
			t.Fatalf("%v, %v", v, err)
		}
	}
	run()
	srv.Restart() // a server that forgot every script
	runUntil(t, l, "reconnected", func() bool { return c.Stats().Lost == 1 && c.Connected() })
	run()
	if load, eval := p.Count("$6\r\nSCRIPT\r\n$4\r\nLOAD\r\n"), p.Count("$4\r\nEVAL\r\n"); load != 2 || eval != 0 {
		t.Fatalf("SCRIPT LOAD sent %d times, EVAL %d; want 2 and 0", load, eval)
	}
}

// A script's arguments are checked before anything is sent.
func TestScriptWithABadArgument(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{})
	_, err := await(t, l, renew.Send(c, []string{"a", "b"}, "ok", struct{}{}))
	// EVALSHA sha 2 a b ok {}: the struct is argument 6.
	if err == nil || !strings.Contains(err.Error(), "argument 6 of EVALSHA is a struct {}") {
		t.Fatalf("got %v", err)
	}
}

// A script's future cancelled by its caller stays cancelled: its reply,
// when it comes (here after the NOSCRIPT and the EVAL both), is dropped,
// and the connection goes on. Every callback runs on a loop whose panic
// handler fails the test, so completing the cancelled future would show.
func TestACancelledScriptDropsItsReply(t *testing.T) {
	_, l, c := withServer(t, redistest.Options{}, resp.Options{})
	counter := resp.NewScript(`return redis.call('INCR', KEYS[1])`)
	f := counter.Send(c, []string{"runs"})
	f.Cancel()
	after := c.Send("PING") // behind the EVALSHA: its reply comes after the NOSCRIPT
	if _, err := await(t, l, after); err != nil {
		t.Fatal(err)
	}
	// The EVAL went out when the NOSCRIPT came back; a command sent now
	// is answered after it.
	if n, err := resp.Int(do(t, l, c, "GET", "runs")); err != nil || n != 1 {
		t.Fatalf("runs = %d, %v; want the script run once", n, err)
	}
	if _, err := f.Result(); !errors.Is(err, future.ErrCancelled) {
		t.Fatalf("the cancelled script's future: %v", err)
	}
}
