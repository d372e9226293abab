package loop_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// A token goes round a ring of loops, each hop a CallSoonThreadsafe to
// the next loop: every loop runs on its own goroutine, touches only its
// own counter, and the race detector has nothing to say. Locked to their
// OS threads or not, the loops behave the same.
func TestGroupPassesATokenRoundARing(t *testing.T) {
	for _, lock := range []bool{false, true} {
		t.Run(map[bool]string{false: "unlocked", true: "locked"}[lock], func(t *testing.T) {
			const n, rounds = 3, 100
			g, err := loop.NewGroup(n, &loop.GroupOptions{LockOSThread: lock})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			hops := make([]int, n) // hops[i] is touched only on loop i
			var pass func(i, left int)
			pass = func(i, left int) {
				hops[i]++
				if left == 0 {
					for j := range n {
						g.Loop(j).CallSoonThreadsafe(g.Loop(j).Stop)
					}
					return
				}
				next := (i + 1) % n
				if err := g.Loop(next).CallSoonThreadsafe(func() { pass(next, left-1) }); err != nil {
					t.Error(err)
				}
			}
			g.Loop(0).CallSoon(func() { pass(0, n*rounds-1) })
			defer groupGuard(t, g)()
			if err := g.Run(func(i int, l *loop.Loop) error { return l.Run() }); err != nil {
				t.Fatal(err)
			}
			for i, h := range hops {
				if h != rounds {
					t.Errorf("loop %d saw the token %d times, want %d", i, h, rounds)
				}
			}
		})
	}
}

// Closing a group closes every loop: what was pending fails, the
// executors' goroutines end, the pollers and sockets are closed, and the
// process is back where it started.
func TestGroupCloseLeavesNoGoroutinesOrFDs(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			goroutines, fds := runtime.NumGoroutine(), openFDs(t)
			g, err := loop.NewGroup(4, &loop.GroupOptions{Options: loop.Options{Poller: name}, LockOSThread: true})
			if err != nil {
				t.Fatal(err)
			}
			// pending[i] is written only by loop i's goroutine, and read
			// after Run.
			pending := make([][]interface{ Err() error }, g.Len())
			err = g.Run(func(i int, l *loop.Loop) error {
				client, _ := socketPair(t, l) // runs the loop until connected
				recv := l.SockRecv(client, make([]byte, 8))
				slow := loop.RunInExecutor(l, func(ctx context.Context) (int, error) {
					select { // blocking work that honours its context
					case <-ctx.Done():
					case <-time.After(10 * time.Second): // a Close that never asks fails, not hangs
					}
					return 0, ctx.Err()
				})
				l.CallLater(time.Hour, func() {})
				pending[i] = []interface{ Err() error }{recv, slow}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			for i, fs := range pending {
				for _, f := range fs {
					if !errors.Is(f.Err(), loop.ErrClosed) {
						t.Errorf("loop %d: a pending operation after Close: %v", i, f.Err())
					}
				}
			}
			if !settled(func() bool { return runtime.NumGoroutine() <= goroutines }) {
				t.Errorf("goroutines: %d before, %d after Close", goroutines, runtime.NumGoroutine())
			}
			if after := openFDs(t); after != fds {
				t.Errorf("open fds: %d before, %d after Close", fds, after)
			}
		})
	}
}

// A panic in one member's function is an error of Run, with its stack;
// the other members run to their end, and the process goes on.
func TestGroupMemberPanicIsAnError(t *testing.T) {
	g, err := loop.NewGroup(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ran := make([]bool, 2)
	err = g.Run(func(i int, l *loop.Loop) error {
		ran[i] = true
		if i == 1 {
			panic("member one fails")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "member 1 panicked: member one fails") || !strings.Contains(err.Error(), "group_test.go") {
		t.Fatalf("Run returned %v", err)
	}
	if !ran[0] || !ran[1] {
		t.Fatalf("members run: %v", ran)
	}
}

func TestGroupOfNoLoopsIsAnError(t *testing.T) {
	if _, err := loop.NewGroup(0, nil); err == nil {
		t.Fatal("NewGroup(0) made a group")
	}
	if _, err := loop.NewGroup(2, &loop.GroupOptions{Options: loop.Options{Poller: "select"}}); err == nil {
		t.Fatal("NewGroup with an unknown poller made a group")
	}
}

// groupGuard stops every loop of g and fails the test if Run is not over
// in 10 s: a runtime timer, which works when the loops are what broke.
//
// Like guard, it arms a timer of each loop's too (it must be called
// before Run), for when the wake-up CallSoonThreadsafe needs is what
// broke. A stopped loop leaves the others running, so each stops itself.
func groupGuard(t *testing.T, g *loop.Group) (disarm func()) {
	loop.SkipAfterAHang(t)
	timer := time.AfterFunc(10*time.Second, func() {
		loop.AGuardFired.Store(true)
		t.Error("the group hung for 10 s")
		for i := range g.Len() {
			g.Loop(i).CallSoonThreadsafe(g.Loop(i).Stop)
		}
	})
	var loopTimers []*loop.Timer
	for i := range g.Len() {
		l := g.Loop(i)
		loopTimers = append(loopTimers, l.CallLater(11*time.Second, func() {
			loop.AGuardFired.Store(true)
			t.Errorf("loop %d hung for 11 s, and was not woken by CallSoonThreadsafe", i)
			l.Stop()
		}))
	}
	return func() {
		timer.Stop()
		// Each loop's own timer is cancelled on that loop, which no
		// longer runs: Run has returned.
		for _, lt := range loopTimers {
			lt.Cancel()
		}
	}
}

// A group locked to its threads closes each loop as its fn returns, on
// that fn's goroutine (the thread a task's coroutine was made on is the
// only one it may be stopped from): every loop's close hooks have run by
// the time Run returns, before Group.Close. An unlocked group leaves the
// closing to Close.
func TestALockedGroupClosesEachLoopAsItsRunEnds(t *testing.T) {
	for _, locked := range []bool{true, false} {
		g, err := loop.NewGroup(2, &loop.GroupOptions{LockOSThread: locked})
		if err != nil {
			t.Fatal(err)
		}
		closed := make([]bool, g.Len())
		err = g.Run(func(i int, l *loop.Loop) error {
			l.OnClose(func() { closed[i] = true })
			l.Stop()
			return l.Run()
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range closed {
			if c != locked {
				t.Errorf("locked %v: loop %d closed by the end of Run: %v", locked, i, c)
			}
		}
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(closed, false) {
			t.Errorf("locked %v: after Close, closed %v", locked, closed)
		}
	}
}
