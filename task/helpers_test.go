package task_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

// newLoop gives a test a loop, closed when the test ends, on which a
// panicking callback fails the test: the loop survives a panic and its
// default handler only prints it, so a task's step that panicked where it
// should not would pass unseen. A test that expects a panic sets a
// handler of its own.
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

// cancelSoon cancels tk once it has run to its first Await: tk was
// spawned before it, so its first step runs first, and one Pause later
// it waits in that Await.
func cancelSoon[T any](l *loop.Loop, tk *task.Task[T]) {
	task.Spawn(l, func(y task.Yield) (struct{}, error) {
		if err := task.Pause(y); err != nil {
			return struct{}{}, err
		}
		tk.Cancel()
		return struct{}{}, nil
	})
}

// run runs body as a task to completion, failing the test on a hang.
func run[T any](t *testing.T, l *loop.Loop, body func(y task.Yield) (T, error)) (T, error) {
	t.Helper()
	tk := task.Spawn(l, body)
	runUntilDone(t, l, tk)
	return tk.Result()
}

// runUntilDone runs the loop until w is done, and fails the test instead
// of hanging it if that takes more than a few seconds.
func runUntilDone(t *testing.T, l *loop.Loop, w loop.Waitable) {
	t.Helper()
	defer guard(t, l)()
	if err := l.RunUntilComplete(w); err != nil {
		t.Fatal(err)
	}
}

// runLoop runs the loop until something stops it, failing the test on a
// hang.
func runLoop(t *testing.T, l *loop.Loop) {
	t.Helper()
	defer guard(t, l)()
	if err := l.Run(); err != nil {
		t.Fatal(err)
	}
}

// guard stops the loop and fails the test if the run is not over in 10 s.
// It is a timer of the Go runtime, which works when the loop's own timers
// are what broke, and a timer of the loop's, which works when what broke
// is the wake-up that the first needs. Call it on the loop's goroutine
// before the run, and the result when the run is over.
// Once a guard has fired, later guards skip their tests: whatever broke
// would make each wait out a guard of its own, one after another, until
// go test's timeout killed them all without a name.
func guard(t *testing.T, l *loop.Loop) (disarm func()) {
	if aGuardFired.Load() {
		t.Skip("not run: an earlier test hung (see its failure), and this one would wait out a guard of its own")
	}
	g := time.AfterFunc(10*time.Second, func() {
		aGuardFired.Store(true)
		t.Error("hung: the run was not over after 10 s")
		l.CallSoonThreadsafe(l.Stop)
	})
	lt := l.CallLater(11*time.Second, func() {
		aGuardFired.Store(true)
		t.Error("hung: the run was not over after 11 s, and CallSoonThreadsafe did not wake the loop")
		l.Stop()
	})
	return func() { g.Stop(); lt.Cancel() }
}

var aGuardFired atomic.Bool

// noGoroutineLeft fails t unless the goroutines are back to before
// within a few seconds: a closed loop's coroutines end as it closes, but
// the runtime takes a moment to count them gone.
func noGoroutineLeft(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("goroutines: %d before, %d after Close", before, n)
	}
}
