package task_test

import (
	"testing"
	"time"

	"loopkit/loop"
	"loopkit/task"
)

func newLoop(t testing.TB) *loop.Loop {
	t.Helper()
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// run runs body as a task to completion, failing the test on a hang.
func run[T any](t *testing.T, l *loop.Loop, body func(y task.Yield) (T, error)) (T, error) {
	t.Helper()
	tk := task.Spawn(l, body)
	guard := l.CallLater(20*time.Second, func() { t.Error("hung"); l.Stop() })
	defer guard.Cancel()
	if err := l.RunUntilComplete(tk); err != nil {
		t.Fatal(err)
	}
	return tk.Result()
}

// runUntilDone runs the loop until w is done, and fails the test instead
// of hanging it if that takes more than a few seconds.
func runUntilDone(t *testing.T, l *loop.Loop, w loop.Waitable) {
	t.Helper()
	guard := l.CallLater(5*time.Second, func() { t.Error("hung: not done after 5 s"); l.Stop() })
	defer guard.Cancel()
	if err := l.RunUntilComplete(w); err != nil {
		t.Fatal(err)
	}
}
