package loop_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/netpoll"
)

// The tests in this file pin the loop's bookkeeping from the outside:
// what it remembers of timers, fds and executor jobs, and what it lets
// go, each through what a caller would see go wrong.

// Deadlines set in no particular order, most of them cancelled so that
// the heap is swept and rebuilt: the survivors still fire in deadline
// order. (Set in order, a swept heap stays in order by luck.)
func TestTimersFireInDeadlineOrderAfterTheSweep(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 1000
		start := l.Time() + 5*time.Millisecond
		var fired []time.Duration
		var timers []*loop.Timer
		for _, i := range rng.Perm(n) {
			when := start + time.Duration(i)*10*time.Microsecond
			timers = append(timers, l.CallAt(when, func() { fired = append(fired, when) }))
		}
		for k, tm := range timers {
			if k%5 != 0 {
				tm.Cancel()
			}
		}
		l.CallAt(start+n*10*time.Microsecond+5*time.Millisecond, l.Stop)
		run(t, l)
		if len(fired) != n/5 || !slices.IsSorted(fired) {
			t.Fatalf("%d timers fired, in deadline order: %v; want %d in order", len(fired), slices.IsSorted(fired), n/5)
		}
	})
}

// Cancel says whether it stopped the timer: true once for a pending timer,
// false for one already cancelled, and false for one that has fired.
func TestCancelOfAFiredTimerReportsFalse(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		fired := 0
		tm := l.CallLater(time.Millisecond, func() { fired++ })
		l.CallLater(10*time.Millisecond, l.Stop)
		run(t, l)
		if fired != 1 || tm.Cancel() {
			t.Fatalf("a timer that fired %d times: Cancel returned true", fired)
		}
		other := l.CallLater(time.Hour, func() {})
		if !other.Cancel() || other.Cancel() {
			t.Fatal("Cancel of a pending timer: want true, then false")
		}
	})
}

// While callbacks keep it busy, the loop polls for I/O on one turn in
// nine, not on every turn (a zero-timeout poll is a system call all the
// same), and not never (I/O would starve).
func TestBusyLoopPollsOneTurnInNine(t *testing.T) {
	l, err := loop.New(&loop.Options{Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const turns = 900
	n := 0
	var spin func()
	spin = func() {
		if n++; n == turns {
			l.Stop()
			return
		}
		l.CallSoon(spin)
	}
	l.CallSoon(spin)
	run(t, l)
	s := l.Stats()
	if s.Iterations < turns || s.Waits < turns/9-2 || s.Waits > turns/9+2 {
		t.Fatalf("%d busy turns polled %d times, want about %d", s.Iterations, s.Waits, turns/9)
	}
}

// Stop called before Run, on a loop with nothing to do, makes Run return
// after one turn: that turn must not sleep, waiting for I/O that never
// comes.
func TestStopBeforeRunOnAnIdleLoopReturns(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		l.Stop()
		run(t, l) // fails on a hang, after 10 s
		ran := false
		l.CallSoon(func() { ran = true; l.Stop() })
		run(t, l)
		if !ran {
			t.Fatal("the loop did not run again after a Stop before Run")
		}
	})
}

// Closing twice closes nothing twice: the second Close returns nil and
// leaves alone the descriptors that took the numbers the first freed.
func TestSecondCloseClosesNothingAgain(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := loop.New(&loop.Options{Poller: name})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			// The lowest free numbers, which the poller just gave back.
			var files []*os.File
			for range 4 {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				defer w.Close()
				files = append(files, r, w)
			}
			if err := l.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			for _, f := range files {
				if _, err := f.Stat(); err != nil {
					t.Fatalf("after a second Close, fd %d is gone: %v", f.Fd(), err)
				}
			}
		})
	}
}

// A caller's fd whose last callback was removed is forgotten: closed
// properly afterwards and its number given to a socket of the loop's, the
// new socket raises no false alarm of "an fd closed while the loop
// watched it".
func TestAnEmptiedWatchIsForgotten(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var reports []string
		l.SetPanicHandler(func(p loop.PanicInfo) { reports = append(reports, fmt.Sprint(p.Value)) })
		for _, which := range []string{"reader", "writer"} {
			fd, err := netpoll.Socket(loopback)
			if err != nil {
				t.Fatal(err)
			}
			add, remove := l.AddReader, l.RemoveReader
			if which == "writer" {
				add, remove = l.AddWriter, l.RemoveWriter
			}
			if err := add(fd, func() {}); err != nil {
				t.Fatal(err)
			}
			if !remove(fd) {
				t.Fatalf("Remove%s found no callback", which)
			}
			netpoll.Close(fd) // correctly: after the Remove
			again, _, err := l.Listen(loopback)
			if err != nil {
				t.Fatal(err)
			}
			l.SockClose(again)
			if again != fd {
				t.Skipf("the kernel gave fd %d, not %d", again, fd)
			}
			if len(reports) > 0 {
				t.Fatalf("%s: a false report: %q", which, reports)
			}
		}
	})
}

// An fd ready only for writing runs its writer, not its reader: a
// connected socket with nothing to read.
func TestReaderIsNotCalledOnAWritableOnlyEvent(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		client, _ := socketPair(t, l)
		reads, writes := 0, 0
		if err := l.AddReader(client, func() { reads++ }); err != nil {
			t.Fatal(err)
		}
		if err := l.AddWriter(client, func() {
			if writes++; writes == 5 {
				l.RemoveWriter(client)
				l.RemoveReader(client)
				l.Stop()
			}
		}); err != nil {
			t.Fatal(err)
		}
		run(t, l)
		if writes != 5 || reads != 0 {
			t.Fatalf("writable and nothing to read: writer ran %d times, reader %d", writes, reads)
		}
	})
}

// A socket of the loop's closed behind its back is forgotten, not closed
// again: by then its number may be a new socket's, here a listener the
// loop was just given, which must go on working.
func TestAForgottenFDIsNotClosedAgain(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		l.SetPanicHandler(func(loop.PanicInfo) {}) // the misuse is reported; not the point here
		client, _ := socketPair(t, l)
		l.SockRecv(client, make([]byte, 8))
		netpoll.Close(client) // the bug: not SockClose
		release, ok := nextFDWillBe(t, client)
		if !ok {
			t.Skipf("fd %d was taken meanwhile; cannot reuse its number", client)
		}
		lfd, addr, err := l.Listen(loopback)
		release()
		if err != nil {
			t.Fatal(err)
		}
		defer l.SockClose(lfd)
		if lfd != client {
			t.Fatalf("the new socket got fd %d, not %d", lfd, client)
		}
		acc := l.SockAccept(lfd)
		conn, err := runFor(t, l, l.SockConnect(addr))
		if err != nil {
			t.Fatal(err)
		}
		defer l.SockClose(conn)
		if _, err := runFor(t, l, acc); err != nil {
			t.Fatalf("the listener that took the number: %v", err)
		}
	})
}

// On a closed loop, RunInExecutor fails at once with ErrClosed, and never
// runs the job: nothing would take its result.
func TestRunInExecutorOnAClosedLoopFailsAtOnce(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	var ran atomic.Bool
	f := loop.RunInExecutor(l, func(context.Context) (int, error) { ran.Store(true); return 1, nil })
	if !f.Done() || !errors.Is(f.Err(), loop.ErrClosed) {
		t.Fatalf("RunInExecutor on a closed loop: done %v, %v", f.Done(), f.Err())
	}
	time.Sleep(20 * time.Millisecond) // a job started anyway would have run by now
	if ran.Load() {
		t.Fatal("the job ran on a closed loop")
	}
}

// A finished executor job leaves nothing behind on the loop: its result,
// once the caller has dropped it, can be collected while the loop lives
// on. (A loop that kept each job's close hook would keep every result
// until it closed.)
func TestAFinishedExecutorJobIsLetGo(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const jobs = 20
	var freed atomic.Int64
	for range jobs {
		f := loop.RunInExecutor(l, func(context.Context) (*[1 << 16]byte, error) {
			big := new([1 << 16]byte)
			runtime.SetFinalizer(big, func(*[1 << 16]byte) { freed.Add(1) })
			return big, nil
		})
		if _, err := runFor(t, l, f); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); freed.Load() < jobs && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if n := freed.Load(); n < jobs {
		t.Fatalf("%d of %d finished jobs' results were freed while the loop lived", n, jobs)
	}
}

// A close hook may register another (a task stopped by Close may spawn
// one in a defer): Close runs that one too, before it returns.
func TestACloseHookAddedByACloseHookRuns(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	l.OnClose(func() {
		ran = append(ran, "first")
		l.OnClose(func() {
			ran = append(ran, "second")
			l.OnClose(func() { ran = append(ran, "third") })
		})
	})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ran, []string{"first", "second", "third"}) {
		t.Fatalf("close hooks ran: %v", ran)
	}
}

// Run inside a callback, while the loop runs, is refused with an error,
// and the run that is going on goes on.
func TestRunInsideRunIsRefused(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var nested error
		after := false
		l.CallSoon(func() {
			nested = l.Run()
			l.CallSoon(func() { after = true; l.Stop() })
		})
		run(t, l)
		if nested == nil || !after {
			t.Fatalf("Run inside Run: %v; the outer run went on: %v", nested, after)
		}
	})
}

// A loop with no timer and nothing ready, waiting for a socket, sleeps in
// the kernel until the socket is ready: a few turns, not a spin. (The run
// has no loop timer, not even a guard's: a runtime timer makes the socket
// ready, and another stops a hung run.)
func TestALoopWithNoTimerSleepsUntilIO(t *testing.T) {
	for _, name := range netpoll.Available() {
		t.Run(name, func(t *testing.T) {
			l, err := loop.New(&loop.Options{Poller: name, Stats: true})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			client, server := socketPair(t, l) // its guards' timers are cancelled, and dropped at the next turn
			if err := l.AddReader(client, func() {
				l.RemoveReader(client)
				l.Stop()
			}); err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(100*time.Millisecond, func() { netpoll.Write(server, []byte("x")) })
			hung := time.AfterFunc(10*time.Second, func() { t.Error("hung"); l.CallSoonThreadsafe(l.Stop) })
			defer hung.Stop()
			before := l.Stats().Iterations
			if err := l.Run(); err != nil {
				t.Fatal(err)
			}
			if n := l.Stats().Iterations - before; n > 10 {
				t.Fatalf("the loop turned %d times in 100 ms with nothing to do: it did not sleep", n)
			}
		})
	}
}

// AddReader or AddWriter with no function, on an fd the loop does not
// watch, is refused: there is nothing to call.
func TestAddingNoCallbackIsRefused(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		fd, err := netpoll.Socket(loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer netpoll.Close(fd)
		if err := l.AddReader(fd, nil); err == nil {
			t.Error("AddReader(fd, nil) on an unwatched fd: no error")
		}
		if err := l.AddWriter(fd, nil); err == nil {
			t.Error("AddWriter(fd, nil) on an unwatched fd: no error")
		}
	})
}
