package loop_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	return len(entries)
}

// settled polls cond for up to a few seconds: goroutines that have been
// told to stop need a moment to be gone.
func settled(cond func() bool) bool {
	for range 200 {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}

// Close fails what is pending, closes the loop's sockets and poller, and
// waits for executor goroutines: the process is back where it started.
func TestCloseLeavesNoGoroutinesOrFDs(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			goroutines, fds := runtime.NumGoroutine(), openFDs(t)
			l, err := loop.New(&loop.Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			client, _ := socketPair(t, l)
			recv := l.SockRecv(client, make([]byte, 8))
			slow := loop.RunInExecutor(l, func(ctx context.Context) (int, error) {
				select { // blocking work that honours its context
				case <-ctx.Done():
				case <-time.After(10 * time.Second): // a Close that never asks fails, not hangs
				}
				return 0, ctx.Err()
			})
			l.CallLater(time.Hour, func() {})
			for range 10 {
				l.CallSoonThreadsafe(func() {})
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if !errors.Is(recv.Err(), loop.ErrClosed) || !errors.Is(slow.Err(), loop.ErrClosed) {
				t.Fatalf("pending futures after Close: recv %v, executor %v", recv.Err(), slow.Err())
			}
			if err := l.CallSoonThreadsafe(func() {}); !errors.Is(err, loop.ErrClosed) {
				t.Fatalf("CallSoonThreadsafe on a closed loop: %v", err)
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

func TestExecutorResultComesBackOnTheLoop(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		v, err := runFor(t, l, loop.RunInExecutor(l, func(context.Context) (string, error) {
			time.Sleep(10 * time.Millisecond) // blocking is fine here, off the loop
			return "done", nil
		}))
		if err != nil || v != "done" {
			t.Fatalf("got %q, %v", v, err)
		}
		_, err = runFor(t, l, loop.RunInExecutor(l, func(context.Context) (int, error) { panic("in a job") }))
		if err == nil || !containsAll(err.Error(), "in a job", "panicked") {
			t.Fatalf("a panicking job: %v", err)
		}
	})
}

func TestUnknownPollerIsAClearError(t *testing.T) {
	_, err := loop.New(&loop.Options{Poller: "select"})
	if err == nil || !containsAll(err.Error(), `"select"`, "poll") {
		t.Fatalf("got %v", err)
	}
}

// Close asks the executor's jobs to stop, through their context, and
// waits for their goroutines: a job still running when Close is called
// (here one that takes a moment to clean up) has returned by the time
// Close does. (A job that waited in vain gives up after 10 s, so that a
// Close that never asks fails the test instead of hanging it.)
func TestCloseWaitsForExecutorJobs(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := loop.New(&loop.Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			var returned, asked atomic.Bool
			started := make(chan struct{})
			loop.RunInExecutor(l, func(ctx context.Context) (int, error) {
				close(started)
				select {
				case <-ctx.Done():
					asked.Store(true)
				case <-time.After(10 * time.Second):
				}
				time.Sleep(20 * time.Millisecond) // cleaning up
				returned.Store(true)
				return 0, ctx.Err()
			})
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("hung: the executor job never started")
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if !returned.Load() || !asked.Load() {
				t.Fatalf("Close returned; the job had returned: %v, had been asked to stop: %v", returned.Load(), asked.Load())
			}
		})
	}
}

// countCloser counts its runs: a Closer for AddCloser.
type countCloser struct{ runs int }

func (c *countCloser) Run() { c.runs++ }

// A Closer registered with AddCloser runs once when the loop closes; one
// taken back with RemoveCloser does not run; OnClose's function, likewise.
// Checked by hand: a RemoveCloser that does nothing fails this.
func TestClosersRunOnceAtCloseUnlessRemoved(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	kept, removed := &countCloser{}, &countCloser{}
	l.AddCloser(kept)
	l.AddCloser(removed)
	l.RemoveCloser(removed)
	hooks := 0
	l.OnClose(func() { hooks++ })
	unregister := l.OnClose(func() { hooks += 100 })
	unregister()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l.Close() // a second Close runs nothing again
	if kept.runs != 1 || removed.runs != 0 || hooks != 1 {
		t.Fatalf("kept ran %d times, removed %d, hooks %d; want 1, 0, 1", kept.runs, removed.runs, hooks)
	}
}
