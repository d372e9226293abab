//go:build workshop

package offload_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loopkit/docs/workshop/internal/wstest"
	"loopkit/docs/workshop/offload"
	"loopkit/future"
	"loopkit/loop"
	"loopkit/task"
)

var pages = []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg", "hhhhhhhh"}

func lengths(pages []string) []int {
	var n []int
	for _, p := range pages {
		n = append(n, len(p))
	}
	return n
}

// gate blocks parses until it is opened: by the test, or, should a parse
// be blocking the loop so that the test cannot run, by a fallback timer.
// The fallback only stops a broken solution from hanging; with it, the
// test fails instead.
type gate struct {
	ch   chan struct{}
	once sync.Once
}

func newGate(t *testing.T) *gate {
	g := &gate{ch: make(chan struct{})}
	fallback := time.AfterFunc(2*time.Second, g.open)
	t.Cleanup(func() { fallback.Stop() })
	return g
}

func (g *gate) open() { g.once.Do(func() { close(g.ch) }) }
func (g *gate) wait() { <-g.ch }

// A timer due in 10 ms must fire while the parses are still running: the
// parses wait for that timer to let them finish. On the loop, they would
// wait for ever — the fallback ends that, and the order shows it.
func TestLoopStaysFreeWhileParsing(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		g := newGate(t)
		var mu sync.Mutex
		var events []string
		record := func(e string) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		}
		l.CallLater(10*time.Millisecond, func() {
			record("timer")
			g.open()
		})
		got, err := offload.ProcessAll(y, pages, 3, func(p string) int {
			g.wait()
			record("parse")
			return len(p)
		})
		if err != nil || !slices.Equal(got, lengths(pages)) {
			t.Errorf("ProcessAll = %v, %v; want %v, nil", got, err, lengths(pages))
		}
		task.Sleep(y, 20*time.Millisecond) // let the timer fire, if it has not
		mu.Lock()
		defer mu.Unlock()
		if len(events) == 0 || events[0] != "timer" {
			t.Errorf("events: %s; want the timer first: a parse ran on the loop and held it",
				strings.Join(events, ", "))
		}
		return nil
	})
}

// Every parse waits at a gate, which a loop timer opens after 20 ms: time
// enough for a ProcessAll without a bound to start every page's parse. A
// bounded one starts `limit` and no more; parses that run one after
// another never have company, and cannot pass either.
func TestParsesRunConcurrentlyUpToTheLimit(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		const limit = 3
		g := newGate(t)
		l.CallLater(20*time.Millisecond, g.open)
		var inFlight, peak atomic.Int64
		got, err := offload.ProcessAll(y, pages, limit, func(p string) int {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for old := peak.Load(); n > old && !peak.CompareAndSwap(old, n); old = peak.Load() {
			}
			g.wait()
			time.Sleep(time.Millisecond) // work, off the loop
			return len(p)
		})
		if err != nil || !slices.Equal(got, lengths(pages)) {
			t.Errorf("ProcessAll = %v, %v; want %v, nil", got, err, lengths(pages))
		}
		if p := peak.Load(); p < 2 || p > limit {
			t.Errorf("at most %d parses ran at once; want between 2 and the limit, %d", p, limit)
		}
		return nil
	})
}

// Parses finish in an order of their own: here each waits for the next
// page's parse to finish first, within each group of `limit` that run
// together. The results must still come back in the order of the pages.
func TestResultsComeInTheOrderOfThePages(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		const limit = 3
		done := make(map[string]chan struct{})
		for _, p := range pages {
			done[p] = make(chan struct{})
		}
		got, err := offload.ProcessAll(y, pages, limit, func(p string) int {
			defer close(done[p])
			i := slices.Index(pages, p)
			if (i+1)%limit != 0 && i+1 < len(pages) {
				select {
				case <-done[pages[i+1]]:
				case <-time.After(time.Second): // a guard, should the parses start out of order
				}
			}
			return len(p)
		})
		if err != nil || !slices.Equal(got, lengths(pages)) {
			t.Errorf("ProcessAll = %v, %v; want %v, nil: the results in the order of the pages, not of their parses", got, err, lengths(pages))
		}
		return nil
	})
}

func TestCancellingStopsFurtherParses(t *testing.T) {
	wstest.Run(t, func(l *loop.Loop, y task.Yield) error {
		g := newGate(t)
		var started, finished atomic.Int64
		parse := func(p string) int {
			started.Add(1)
			g.wait()
			finished.Add(1)
			return len(p)
		}
		job := task.Spawn(l, func(y task.Yield) ([]int, error) {
			return offload.ProcessAll(y, pages, 1, parse)
		})
		for started.Load() == 0 && !job.Done() {
			task.Sleep(y, time.Millisecond) // until the first parse is under way
		}
		job.Cancel()
		g.open()
		_, err := task.Await[[]int](y, job)
		if !errors.Is(err, future.ErrCancelled) {
			t.Errorf("ProcessAll of a cancelled task returned %v; want a cancellation", err)
		}
		// The running parse finishes after the cancellation. Give its
		// result time to reach the loop, and a next parse time to start,
		// were anything left to start one.
		for finished.Load() == 0 {
			task.Sleep(y, time.Millisecond)
		}
		task.Sleep(y, 20*time.Millisecond)
		if n := started.Load(); n != 1 {
			t.Errorf("%d parses started; want 1: none may start after the cancellation", n)
		}
		return nil
	})
}
