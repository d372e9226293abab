// Command toytask drives two coroutines from loopkit's loop with a Task of
// twenty lines: the 500-lines chapter's Task.step, without what a real
// task needs besides (a result, errors, cancellation, panics, the loop
// closing under it). docs/coroutines.md builds task.Task up from it.
//
//	go run ./docs/coroutines/toytask
package main

import (
	"fmt"
	"io"
	"iter"
	"os"
	"time"

	"loopkit/loop"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// toyTask runs a body that can sleep. The body says how long by yielding
// the duration out of its coroutine; step, a loop callback, is what
// resumes it.
type toyTask struct {
	loop *loop.Loop
	next func() (time.Duration, bool)
	stop func()
	done func()
}

func spawn(l *loop.Loop, body func(sleep func(time.Duration)), done func()) *toyTask {
	t := &toyTask{loop: l, done: done}
	t.next, t.stop = iter.Pull(func(yield func(time.Duration) bool) {
		body(func(d time.Duration) { yield(d) })
	})
	l.CallSoon(t.step)
	return t
}

// step runs the body until it asks to sleep, then arranges to be called
// again when the sleep is over.
func (t *toyTask) step() {
	d, running := t.next() // switch into the body; back here at its next yield
	if !running {
		t.stop()
		t.done()
		return
	}
	t.loop.CallLater(d, t.step)
}

func run(w io.Writer) error {
	l, err := loop.New(nil)
	if err != nil {
		return err
	}
	defer l.Close()
	start := time.Now()
	running := 0
	for _, name := range []string{"a", "b"} {
		running++
		spawn(l, func(sleep func(time.Duration)) {
			for i := 1; i <= 3; i++ { // i is on the body's own stack, kept across sleeps
				fmt.Fprintf(w, "%s: step %d, then sleep 10ms\n", name, i)
				sleep(10 * time.Millisecond)
			}
			fmt.Fprintf(w, "%s: done\n", name)
		}, func() {
			if running--; running == 0 {
				l.Stop()
			}
		})
	}
	if err := l.Run(); err != nil {
		return err
	}
	fmt.Fprintf(w, "two tasks slept 3 × 10ms each, at the same time, in %v, on one goroutine\n",
		time.Since(start).Round(time.Millisecond))
	return nil
}
