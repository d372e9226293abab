package loop_test

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"loopkit/loop"
)

// A connect that fails at once (no route to a broadcast address) fails
// its future and leaves no socket open.
func TestAConnectThatFailsAtOnceLeavesNoSocket(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		fds := openFDs(t)
		_, err := runFor(t, l, l.SockConnect(netip.MustParseAddrPort("255.255.255.255:80")))
		if err == nil {
			t.Skip("this machine connects to the broadcast address")
		}
		if n := openFDs(t); n != fds {
			t.Fatalf("a failed connect left %d fds open, not %d", n, fds)
		}
	})
}

// An executor job whose future the caller cancelled is left alone at
// Close: the future stays cancelled, and nothing panics.
func TestCloseLeavesACancelledExecutorJobCancelled(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	loop.FailOnPanic(t, l)
	f := loop.RunInExecutor(l, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})
	f.Cancel()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if !f.Cancelled() {
		t.Fatalf("after Close the cancelled job's future says %v", f.Err())
	}
}

// A cancelled timer that comes due behind a live one is dropped, not run
// nor counted: the turn's trace and the stats count the live one only.
func TestACancelledTimerDueBehindALiveOneIsNotCounted(t *testing.T) {
	var turns []loop.Iteration
	l, err := loop.New(&loop.Options{Trace: func(it *loop.Iteration) { turns = append(turns, *it) }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	loop.FailOnPanic(t, l)
	ran := 0
	l.CallAt(1, func() { ran++ })
	l.CallAt(2, func() { ran += 10 }).Cancel()
	l.CallAt(3, func() { ran++; l.Stop() })
	run(t, l)
	timers, callbacks := 0, 0
	for _, it := range turns {
		timers += it.Timers
		callbacks += it.Callbacks
	}
	if ran != 2 || timers != 2 || callbacks != 2 || l.Stats().Callbacks != 2 {
		t.Fatalf("ran %d, traced %d timers and %d callbacks, stats %d; want 2 of each",
			ran, timers, callbacks, l.Stats().Callbacks)
	}
}

func panickingJob(context.Context) (int, error) { panic("the job broke") }

// A job that panics fails its future with an error that holds the panic
// and the job's own stack, which names the function that panicked.
func TestAPanickingJobsErrorCarriesItsStack(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = runFor(t, l, loop.RunInExecutor(l, panickingJob))
	if err == nil || !containsAll(err.Error(), "the job broke", "panickingJob") {
		t.Fatalf("a panicking job's error: %v", err)
	}
}

// Removing the callback of an fd that was closed behind the loop's back
// still says the callback was there: it is gone, with its fd.
func TestRemovingTheCallbackOfAnFDClosedBehindTheLoopSaysTrue(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		loop.CatchPanics(t, l) // the misuse is reported; that is another test's
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		fd := int(r.Fd())
		if err := errors.Join(l.AddReader(fd, func() {}), l.AddWriter(fd, func() {})); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if !l.RemoveWriter(fd) {
			t.Fatal("RemoveWriter of an fd closed while watched said there was no writer")
		}
	})
}

// Deadlines in the past keep their order: CallLater with a negative delay
// is due earlier than one with a smaller negative delay set before it.
func TestPastDeadlinesFireInDeadlineOrder(t *testing.T) {
	eachPoller(t, func(t *testing.T, l *loop.Loop) {
		var got []string
		l.CallLater(-time.Millisecond, func() { got = append(got, "-1ms") })
		l.CallLater(-2*time.Millisecond, func() { got = append(got, "-2ms") })
		l.CallLater(0, l.Stop)
		run(t, l)
		if s := strings.Join(got, ","); s != "-2ms,-1ms" {
			t.Fatalf("ran %s, want -2ms,-1ms", s)
		}
	})
}
