package coroutines

import (
	"fmt"
	"iter"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

// suspended makes n suspended things of each kind and returns a function
// that releases them: a task asleep in task.Sleep; a bare iter.Pull
// coroutine; a goroutine blocked on a channel; and — the callback style —
// a pending future with a callback waiting on it (what a connection of
// crawler/http1 keeps between two reads, besides its buffers).
var suspended = map[string]func(n int) (release func()){
	"task": func(n int) func() {
		l, _ := loop.New(nil)
		for range n {
			task.Spawn(l, func(y task.Yield) (int, error) { return 0, task.Sleep(y, time.Hour) })
		}
		l.CallSoon(l.Stop) // after the n first steps: every task is asleep
		l.Run()
		return func() { l.Close() }
	},
	"iter.Pull": func(n int) func() {
		stops := make([]func(), 0, n)
		for range n {
			next, stop := iter.Pull(func(yield func(int) bool) { yield(1) })
			next() // started, and suspended in its yield
			stops = append(stops, stop)
		}
		return func() {
			for _, stop := range stops {
				stop()
			}
		}
	},
	"goroutine": func(n int) func() {
		block, started := make(chan struct{}), make(chan struct{}, n)
		for range n {
			go func() { started <- struct{}{}; <-block }()
		}
		for range n {
			<-started
		}
		return func() { close(block) }
	},
	"callback": func(n int) func() {
		l, _ := loop.New(nil)
		fs := make([]*future.Future[int], 0, n)
		for i := range n {
			f := future.New[int](l)
			total := 0
			f.AddDoneCallback(func(f *future.Future[int]) { v, _ := f.Result(); total += v + i })
			fs = append(fs, f)
		}
		return func() {
			runtime.KeepAlive(fs)
			l.Close()
		}
	},
}

// BenchmarkMemory reports what one suspended thing holds, heap and stack,
// over 10 000 of them. Each measurement runs in a fresh process (this test
// binary, running TestMeasureInAFreshProcess): in a process that has run
// goroutines before, a new one reuses a dead one's stack, and the count
// would come out near zero. ns/op is the child process's whole run.
func BenchmarkMemory(b *testing.B) {
	for _, kind := range []string{"task", "iter.Pull", "goroutine", "callback"} {
		b.Run(kind, func(b *testing.B) {
			var per float64
			for range b.N {
				cmd := exec.Command(os.Args[0], "-test.run=^TestMeasureInAFreshProcess$")
				cmd.Env = append(os.Environ(), "LOOPKIT_MEASURE="+kind)
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				_, value, ok := strings.Cut(string(out), "bytes/each=")
				v, err := strconv.ParseFloat(strings.Fields(value + " ")[0], 64)
				if !ok || err != nil {
					b.Fatalf("no measurement in:\n%s", out)
				}
				per += v
			}
			b.ReportMetric(per/float64(b.N), "bytes/each")
		})
	}
}

// TestMeasureInAFreshProcess is BenchmarkMemory's child; alone, it does
// nothing.
func TestMeasureInAFreshProcess(t *testing.T) {
	kind := os.Getenv("LOOPKIT_MEASURE")
	if kind == "" {
		t.Skip("run by BenchmarkMemory, in a process of its own")
	}
	const n = 10_000
	before := inUse()
	release := suspended[kind](n)
	fmt.Printf("bytes/each=%.0f\n", float64(inUse()-before)/n)
	release()
}

// inUse is the heap and the goroutine stacks in use, after a collection.
func inUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}
