package resp_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/crawler/resp"
	"loopkit/future"
	"loopkit/internal/redistest"
	"loopkit/loop"
)

// newLoop gives a test a loop, closed when it ends, on which a panicking
// callback fails the test: the loop survives a panic and its default
// handler only prints it, so a reader callback that panicked half-way
// through its replies would pass unseen.
func newLoop(t testing.TB) *loop.Loop {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	l.SetPanicHandler(func(p loop.PanicInfo) { t.Errorf("a callback panicked: %v", p) })
	t.Cleanup(func() { l.Close() })
	return l
}

// newClient gives a test a client of url on l, closed when it ends.
func newClient(t testing.TB, l *loop.Loop, url string, opts resp.Options) *resp.Client {
	t.Helper()
	c, err := resp.NewClient(l, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// withServer starts a real redis-server and a client of it.
func withServer(t testing.TB, sopts redistest.Options, copts resp.Options) (*redistest.Server, *loop.Loop, *resp.Client) {
	t.Helper()
	srv := redistest.Start(t, sopts)
	l := newLoop(t)
	return srv, l, newClient(t, l, srv.URL(), copts)
}

// await runs the loop until f completes, with a generous hang guard.
// Once a guard has fired, later awaits skip their tests: whatever broke
// would make each wait out a guard of its own, one after another, until
// go test's timeout killed them all without a name.
func await[T any](t testing.TB, l *loop.Loop, f *future.Future[T]) (T, error) {
	t.Helper()
	if aGuardFired.Load() {
		t.Skip("not run: an earlier test hung (see its failure), and this one would wait out a guard of its own")
	}
	guard := l.CallLater(30*time.Second, func() { aGuardFired.Store(true); t.Error("hung"); l.Stop() })
	defer guard.Cancel()
	if err := l.RunUntilComplete(f); err != nil {
		t.Fatal(err)
	}
	return f.Result()
}

var aGuardFired atomic.Bool

// runFor runs the loop for d: long enough for a reconnection to happen.
func runFor(t testing.TB, l *loop.Loop, d time.Duration) {
	t.Helper()
	f := future.New[struct{}](l)
	l.CallLater(d, func() { f.SetResult(struct{}{}) })
	await(t, l, f)
}

// runUntil runs the loop until cond holds, checking every millisecond,
// and fails the test after 20 s.
func runUntil(t testing.TB, l *loop.Loop, what string, cond func() bool) {
	t.Helper()
	f := future.New[struct{}](l)
	deadline := l.Time() + 20*time.Second
	var check func()
	check = func() {
		switch {
		case cond():
			f.SetResult(struct{}{})
		case l.Time() > deadline:
			f.SetError(fmt.Errorf("still not %s after 20s", what))
		default:
			l.CallLater(time.Millisecond, check)
		}
	}
	l.CallSoon(check)
	if _, err := await(t, l, f); err != nil {
		t.Fatal(err)
	}
}

// do sends one command and waits for its reply.
func do(t testing.TB, l *loop.Loop, c *resp.Client, args ...any) (resp.Value, error) {
	t.Helper()
	return await(t, l, c.Send(args...))
}

// cli asks the server through redis-cli, not through the client under test.
func cli(t testing.TB, srv *redistest.Server, args ...string) string {
	t.Helper()
	out, err := srv.CLI(args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(out, "\n")
}

func cliInt(t testing.TB, srv *redistest.Server, args ...string) int {
	t.Helper()
	s := cli(t, srv, args...)
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("redis-cli %v printed %q, not a number", args, s)
	}
	return n
}
