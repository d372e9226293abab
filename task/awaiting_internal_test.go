package task

import (
	"testing"

	"loopkit/future"
	"loopkit/loop"
)

// What a task awaits is what it awaits now: nil while its body runs
// (awaiting's promise), not the future it awaited last, which is done and
// would be kept alive by the task, and followed by the cycle check, for
// as long as the task lives.
func TestARunningTaskAwaitsNothing(t *testing.T) {
	l, err := loop.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var tk *Task[int]
	var seen []future.Waitable
	tk = Spawn(l, func(y Yield) (int, error) {
		seen = append(seen, tk.awaiting())
		f := future.New[int](l)
		l.CallSoon(func() { f.SetResult(1) })
		if _, err := Await[int](y, f); err != nil {
			return 0, err
		}
		seen = append(seen, tk.awaiting())
		return 0, Pause(y)
	})
	if err := l.RunUntilComplete(tk); err != nil {
		t.Fatal(err)
	}
	if err := tk.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != nil || seen[1] != nil {
		t.Fatalf("while the body ran, the task awaited %v; want nothing, twice", seen)
	}
	if tk.awaiting() != nil {
		t.Fatalf("the finished task still awaits %v", tk.awaiting())
	}
}
