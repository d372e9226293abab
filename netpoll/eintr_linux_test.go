package netpoll

import (
	"os"
	"os/signal"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A signal that interrupts Wait (EINTR) must restart it with the time that
// is left: not the whole timeout again (a stream of signals would then put
// the wake-up off for ever), and not less (the loop's timer would fire
// early).
//
// The loop calls Wait on its own goroutine, so the test does the same on a
// goroutine locked to its OS thread, and aims the signal at that thread
// with tgkill. A signal sent to the process would land on whichever thread
// the kernel picks, almost never the one blocked in the wait. The signal is
// SIGUSR1, with signal.Notify: a handler runs, so the wait returns EINTR —
// epoll_wait and poll do even with SA_RESTART, which Go sets — and the
// signal is only queued on a channel. (SIGURG would interrupt the wait as
// well, but it is the runtime's own preemption signal; this test should
// not depend on how the scheduler treats stray ones.)
func TestWaitInterruptedBySignalRestartsWithTheTimeLeft(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			p, err := b.open()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			caught := make(chan os.Signal, 1)
			signal.Notify(caught, unix.SIGUSR1)
			defer signal.Stop(caught)

			type start struct {
				left time.Duration
				at   time.Time
			}
			var mu sync.Mutex
			var starts []start
			waitStarting = func(left time.Duration) {
				mu.Lock()
				starts = append(starts, start{left, time.Now()})
				mu.Unlock()
			}
			defer func() { waitStarting = nil }()
			restarted := func() bool { mu.Lock(); defer mu.Unlock(); return len(starts) > 1 }

			const timeout = 200 * time.Millisecond
			tid := make(chan int, 1)
			type outcome struct {
				events     int
				err        error
				began, end time.Time
			}
			done := make(chan outcome, 1)
			go func() {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				tid <- unix.Gettid()
				began := time.Now()
				evs, err := p.Wait(timeout)
				done <- outcome{len(evs), err, began, time.Now()}
			}()
			thread := <-tid
			// A signal that lands just before the wait begins interrupts
			// nothing, so keep signalling until a restart shows.
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			guard := time.After(10 * time.Second)
			var got outcome
		waiting:
			for {
				select {
				case got = <-done:
					break waiting
				case <-tick.C:
					if !restarted() {
						unix.Tgkill(unix.Getpid(), thread, unix.SIGUSR1)
					}
				case <-guard:
					t.Fatal("hung: Wait(200ms) had not returned after 10 s")
				}
			}

			if got.err != nil || got.events != 0 {
				t.Fatalf("Wait: %d events, %v", got.events, got.err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(starts) < 2 {
				t.Fatal("no EINTR: no signal interrupted the wait, so nothing was tested")
			}
			if starts[0].left != timeout {
				t.Fatalf("the first wait was for %v, want %v", starts[0].left, timeout)
			}
			for i, s := range starts[1:] {
				// What was left when the restart began is at least the
				// timeout minus the time since Wait was called, and less
				// than what the wait before had.
				if floor := timeout - s.at.Sub(got.began); s.left < floor || s.left >= starts[i].left {
					t.Fatalf("restart %d waited %v; want at least %v (what was left) and under %v (the wait before)",
						i+1, s.left, floor, starts[i].left)
				}
			}
			if elapsed := got.end.Sub(got.began); elapsed < timeout || elapsed > timeout+5*time.Second {
				t.Fatalf("Wait(%v) returned after %v", timeout, elapsed)
			}
			t.Logf("%d restarts", len(starts)-1)
		})
	}
}
