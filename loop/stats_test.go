package loop_test

import (
	"io"
	"net"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/netpoll"
)

// blockThirtyMilliseconds is the mistake of docs/stages/7-blocking-mistake
// made on purpose: a callback that blocks, and stalls the loop meanwhile.
func blockThirtyMilliseconds() { time.Sleep(30 * time.Millisecond) }

// The loop's worst stall is visible: among a hundred quick callbacks, the
// one that blocks for 30 ms is the longest, by name, and the histogram has
// counted every callback.
func TestABlockingCallbackIsTheLongest(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := loop.New(&loop.Options{Poller: name, Stats: true})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			quick := 0
			for i := range 100 {
				l.CallSoon(func() { quick++ })
				if i == 50 {
					l.CallSoon(blockThirtyMilliseconds)
				}
			}
			l.CallSoon(l.Stop)
			run(t, l)
			s := l.Stats()
			if s.Longest < 30*time.Millisecond || !strings.HasSuffix(s.LongestFunc, ".blockThirtyMilliseconds") {
				t.Fatalf("longest callback %v in %q; want at least 30ms in blockThirtyMilliseconds", s.Longest, s.LongestFunc)
			}
			if s.Callbacks != 102 || s.Durations.Count() != 102 {
				t.Fatalf("counted %d callbacks, the histogram %d; want 102 (100 quick, the blocking one, Stop)",
					s.Callbacks, s.Durations.Count())
			}
			if s.Durations.Max() != s.Longest || s.Durations.Percentile(1) != s.Longest {
				t.Fatalf("histogram max %v, p100 %v; want the longest, %v", s.Durations.Max(), s.Durations.Percentile(1), s.Longest)
			}
			if p99 := s.Durations.Percentile(0.99); p99 > s.Longest || s.Busy < s.Longest {
				t.Fatalf("p99 %v, busy %v, longest %v", p99, s.Busy, s.Longest)
			}
			if s.Iterations == 0 || s.Iterations > 2 {
				t.Fatalf("%d iterations; want 1 (or 2, if a wait came first)", s.Iterations)
			}
		})
	}
}

// A loop made without Stats or Trace measures nothing, and says so with
// zeros rather than half-counted numbers.
func TestStatsAreZeroUnlessAskedFor(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.CallSoon(blockThirtyMilliseconds)
	l.CallSoon(l.Stop)
	run(t, l)
	if s := l.Stats(); s.Iterations != 0 || s.Callbacks != 0 || s.Longest != 0 || s.LongestFunc != "" {
		t.Fatalf("an unobserved loop reported %+v", s)
	}
}

// A trace counts due timers as Timers and callbacks other goroutines
// posted as Posted: two posts and one timer make 2 and 1.
func TestTraceCountsTimersAndPostsApart(t *testing.T) {
	l, turns := tracedLoop(t, "")
	defer l.Close()
	for range 2 {
		if err := l.CallSoonThreadsafe(func() {}); err != nil {
			t.Fatal(err)
		}
	}
	l.CallLater(0, l.Stop)
	run(t, l)
	timers, posted := 0, 0
	for _, it := range *turns {
		timers, posted = timers+it.Timers, posted+it.Posted
	}
	if timers != 1 || posted != 2 {
		t.Fatalf("the trace counted %d timers and %d posted callbacks, want 1 and 2", timers, posted)
	}
}

// tracedLoop is a loop on the named poller whose trace is kept, each
// record copied (the loop reuses them).
func tracedLoop(t *testing.T, poller string) (*loop.Loop, *[]loop.Iteration) {
	t.Helper()
	var turns []loop.Iteration
	l, err := loop.New(&loop.Options{Poller: poller, Trace: func(it *loop.Iteration) {
		c := *it
		c.Ready, c.Ops = slices.Clone(it.Ready), slices.Clone(it.Ops)
		turns = append(turns, c)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return l, &turns
}

// step is one thing a trace says happened, in time order.
type step struct {
	what string // "wait", "ready", or an Op's name
	fd   int
	it   loop.Iteration
	op   loop.Op
}

// steps flattens a trace into what happened, in order: per turn, the wait,
// what it returned, and the system calls the turn's callbacks made.
func steps(turns []loop.Iteration) []step {
	var out []step
	for _, it := range turns {
		if it.Polled {
			out = append(out, step{what: "wait", fd: -1, it: it})
		}
		for _, r := range it.Ready {
			out = append(out, step{what: "ready", fd: r.FD, it: it})
		}
		for _, op := range it.Ops {
			out = append(out, step{what: op.Name, fd: op.FD, it: it, op: op})
		}
	}
	return out
}

// The trace tells a receive the way strace would: the socket is registered
// for reading, the loop sleeps in a wait whose timeout is its nearest timer
// (a read timeout, here), the wait returns the socket readable, the read
// takes the bytes, the socket is deregistered — and its close, in Close,
// is in the trace too.
func TestTraceTellsAReceiveInOrder(t *testing.T) {
	// A server off the loop, as on another machine: it answers a moment
	// after the connection comes in, so the loop has to wait for it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				time.Sleep(20 * time.Millisecond) // not a bet: the order is the same without it
				c.Write([]byte("ping"))
				io.Copy(io.Discard, c) // until the client closes
			}()
		}
	}()
	addr := netip.MustParseAddrPort(ln.Addr().String())
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, turns := tracedLoop(t, name)
			client, err := runFor(t, l, l.SockConnect(addr))
			if err != nil {
				t.Fatal(err)
			}
			// Sooner than the hang guard's own loop timer (11 s), so that
			// it is the nearest.
			l.CallLater(9*time.Second, func() { t.Error("the read timeout fired") })
			buf := make([]byte, 16)
			if n, err := runFor(t, l, l.SockRecv(client, buf)); err != nil || string(buf[:n]) != "ping" {
				t.Fatalf("recv: %q, %v", buf[:n], err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			// Each step is looked for after the one before; prev is that one.
			want := []func(s, prev step) bool{
				func(s, _ step) bool { return s.what == "register" && s.fd == client && s.op.Read && !s.op.Write },
				func(s, _ step) bool {
					return s.what == "wait" && s.it.Timeout > 8*time.Second && s.it.Timeout <= 9*time.Second
				},
				func(s, wait step) bool { return s.what == "ready" && s.fd == client && s.it.N == wait.it.N },
				func(s, _ step) bool { return s.what == "read" && s.fd == client && s.op.N == 4 },
				func(s, _ step) bool { return s.what == "deregister" && s.fd == client },
				func(s, _ step) bool { return s.what == "close" && s.fd == client && s.it.Outside },
			}
			i, prev := 0, step{}
			for _, s := range steps(*turns) {
				if i < len(want) && want[i](s, prev) {
					i, prev = i+1, s
				}
			}
			if i < len(want) {
				var b strings.Builder
				for _, it := range *turns {
					b.Write(it.AppendJSON(nil))
				}
				t.Fatalf("step %d of register → wait → ready → read → deregister → close (fd %d) is missing; the trace:\n%s",
					i+1, client, b.String())
			}
		})
	}
}

// doneAfterThirtyMilliseconds is a done callback that stalls the loop.
func doneAfterThirtyMilliseconds(*future.Future[int]) { time.Sleep(30 * time.Millisecond) }

// A future runs its done callbacks itself, through the loop's queue; the
// longest callback is still named by the function that ran, not by the
// future's runner, and a timer's by its own. Checked by hand: naming a
// callback by its Run method fails both.
func TestTheLongestCallbackIsNamedByItsFunction(t *testing.T) {
	l, err := loop.New(&loop.Options{Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f := future.New[int](l)
	f.AddDoneCallback(doneAfterThirtyMilliseconds)
	f.SetResult(1)
	l.CallSoon(l.Stop)
	run(t, l)
	if s := l.Stats(); !strings.HasSuffix(s.LongestFunc, ".doneAfterThirtyMilliseconds") {
		t.Fatalf("longest callback named %q", s.LongestFunc)
	}
	l.CallLater(time.Millisecond, func() { blockThirtyMilliseconds(); blockThirtyMilliseconds(); l.Stop() })
	run(t, l)
	if s := l.Stats(); !strings.Contains(s.LongestFunc, "TestTheLongestCallbackIsNamedByItsFunction") {
		t.Fatalf("longest callback, a timer's, named %q", s.LongestFunc)
	}
}

// Percentile(q) is the least duration that at least q of the counted
// ones do not exceed. Durations under 16 ns have a bucket each, so with
// 1 ns to 10 ns counted the answers are exact: the p95 is 10 ns (9 ns
// covers only nine in ten), the p90 9 ns, the p91 10 ns again.
func TestPercentileCoversAtLeastItsShare(t *testing.T) {
	var h loop.Histogram
	for d := time.Duration(1); d <= 10; d++ {
		h.Add(d)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{
		{0.05, 1}, {0.1, 1}, {0.11, 2}, {0.5, 5}, {0.9, 9}, {0.91, 10}, {0.95, 10}, {0.99, 10}, {1, 10},
	} {
		if got := h.Percentile(c.q); got != c.want {
			t.Errorf("Percentile(%v) of 1..10 ns = %v, want %v", c.q, got, c.want)
		}
	}
}
