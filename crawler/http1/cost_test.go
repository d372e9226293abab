package http1_test

import (
	"strconv"
	"testing"

	"loopkit/crawler/http1"
	"loopkit/future"
	"loopkit/internal/canned"
	"loopkit/loop"
	"loopkit/task"
)

// What one request costs on the loop, in allocations: the number the
// tutorial's "What one request costs on the loop" walks through. The
// server is internal/canned, which allocates nothing, so the counts are
// the client's alone. Compare bench/conns's BenchmarkRequestGoroutine:
// the same HTTP code on a goroutine.
//
//	go test ./crawler/http1 -run '^$' -bench Request -benchmem

// callbackRunner sends requests one after another on one keep-alive
// connection, each from the done callback of the one before — the lean
// path: one callback made once, no closure per request.
type callbackRunner struct {
	l      *loop.Loop
	c      *http1.Client
	req    http1.Request
	left   int   // requests still to send
	busy   int   // requests sent and not yet answered
	failed error // the first failure
	onDone func(*future.Future[*http1.Reply])
}

func newCallbackRunner(tb testing.TB) *callbackRunner {
	s := canned.Start(tb)
	// As many connections as requests in flight, as the benchmark's
	// variants have: none waits in the pool.
	l, c := onLoop(tb, http1.Options{MaxConnsPerHost: 64})
	r := &callbackRunner{l: l, c: c, req: http1.Request{URL: s.URL()}}
	r.onDone = r.done
	r.run(1) // the connection is dialled, and every buffer made, here
	return r
}

// inFlight requests at once, n in all; the loop runs until they are done.
func (r *callbackRunner) runConcurrent(n, inFlight int) {
	r.left = n
	for i := 0; i < inFlight && r.left > 0; i++ {
		r.send()
	}
	if err := r.l.Run(); err != nil && r.failed == nil {
		r.failed = err
	}
}

func (r *callbackRunner) run(n int) { r.runConcurrent(n, 1) }

func (r *callbackRunner) send() {
	r.left--
	r.busy++
	r.c.Do(r.req).AddDoneCallback(r.onDone)
}

func (r *callbackRunner) done(f *future.Future[*http1.Reply]) {
	r.busy--
	reply, err := f.Result()
	if err == nil && reply.StatusCode != 200 {
		err = errStatus(reply.StatusCode)
	}
	if err != nil && r.failed == nil {
		r.failed = err
	}
	if err == nil {
		reply.Release() // done with it: the next request reuses its record
	}
	switch {
	case r.left > 0 && r.failed == nil:
		r.send()
	case r.busy == 0:
		r.l.Stop()
	}
}

// errStatus is a reply that is not 200.
type errStatus int

func (e errStatus) Error() string { return "unexpected status " + strconv.Itoa(int(e)) }

// taskRunner sends the same requests from tasks, the crawler's style.
type taskRunner struct {
	l   *loop.Loop
	c   *http1.Client
	url string
}

func newTaskRunner(tb testing.TB) *taskRunner {
	s := canned.Start(tb)
	l, c := onLoop(tb, http1.Options{})
	r := &taskRunner{l: l, c: c, url: s.URL()}
	if err := r.spawnEach(1); err != nil {
		tb.Fatal(err)
	}
	return r
}

// spawnEach spawns a task per request, as the benchmark's tasks variant
// does: each request pays for a coroutine.
func (r *taskRunner) spawnEach(n int) error {
	_, err := task.Run(r.l, func(y task.Yield) (int, error) {
		for range n {
			t := task.Spawn(r.l, r.get)
			if _, err := task.Await(y, t); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	return err
}

// inOneTask sends n requests from one task, one after another, as a
// crawler's worker does: the coroutine is paid for once.
func (r *taskRunner) inOneTask(n int) error {
	_, err := task.Run(r.l, func(y task.Yield) (int, error) {
		for range n {
			if _, err := r.get(y); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	return err
}

func (r *taskRunner) get(y task.Yield) (int, error) {
	reply, err := r.c.Get(y, r.url)
	if err != nil {
		return 0, err
	}
	if reply.StatusCode != 200 {
		return 0, errStatus(reply.StatusCode)
	}
	reply.Release()
	return 0, nil
}

func BenchmarkRequest(b *testing.B) {
	b.Run("callbacks", func(b *testing.B) {
		r := newCallbackRunner(b)
		b.ReportAllocs()
		b.ResetTimer()
		defer canned.MeasureCPU(b)()
		r.run(b.N)
		if r.failed != nil {
			b.Fatal(r.failed)
		}
	})
	b.Run("callbacks-64-in-flight", func(b *testing.B) {
		r := newCallbackRunner(b)
		r.runConcurrent(64, 64) // 64 connections open before the clock starts
		b.ReportAllocs()
		b.ResetTimer()
		defer canned.MeasureCPU(b)()
		r.runConcurrent(b.N, 64)
		if r.failed != nil {
			b.Fatal(r.failed)
		}
	})
	b.Run("task-per-request", func(b *testing.B) {
		r := newTaskRunner(b)
		b.ReportAllocs()
		b.ResetTimer()
		defer canned.MeasureCPU(b)()
		if err := r.spawnEach(b.N); err != nil {
			b.Fatal(err)
		}
	})
	b.Run("one-task", func(b *testing.B) {
		r := newTaskRunner(b)
		b.ReportAllocs()
		b.ResetTimer()
		defer canned.MeasureCPU(b)()
		if err := r.inOneTask(b.N); err != nil {
			b.Fatal(err)
		}
	})
}

// The regression guard: allocations per request are noise-free, so a
// change that adds one fails here, not in a benchmark someone has to
// read. The numbers are what the tutorial's "What one request costs on
// the loop" counts: on a keep-alive connection, with each reply released
// when read (Reply.Release), the request's record — the exchange, with
// its future, its Reply and its Response — comes back from the client's
// free list, and the parser fills the Header's and Body's arrays it
// brought back; what is left is the one string holding the head's names
// and values. In a task that goes on sending, the same one: the task's
// wake-up is made once. A task per request adds the task's own two (its
// record, with its future, and its wake-up; its coroutine is a parked one
// reused: task/cost_test.go) and the body's closure: 4.
const (
	maxAllocsCallbacks      = 1
	maxAllocsInOneTask      = 1
	maxAllocsTaskPerRequest = 4
)

func TestAllocationsPerRequest(t *testing.T) {
	cb := newCallbackRunner(t)
	one := newTaskRunner(t)
	each := newTaskRunner(t)
	for _, c := range []struct {
		name string
		max  float64
		runs func(n int) // n requests
	}{
		{"callbacks", maxAllocsCallbacks, cb.run},
		{"in one task", maxAllocsInOneTask, func(n int) { must(t, one.inOneTask(n)) }},
		{"a task per request", maxAllocsTaskPerRequest, func(n int) { must(t, each.spawnEach(n)) }},
	} {
		// A hundred requests, less one: what running them costs apart
		// from the requests (starting the loop, the task that sends
		// them) cancels out.
		got := (testing.AllocsPerRun(5, func() { c.runs(101) }) - testing.AllocsPerRun(5, func() { c.runs(1) })) / 100
		if cb.failed != nil {
			t.Fatal(cb.failed)
		}
		if got > c.max {
			t.Errorf("a request %s allocates %v times, more than %v", c.name, got, c.max)
		} else {
			t.Logf("a request %s: %v allocations", c.name, got)
		}
	}
}

func must(t *testing.T, err error) {
	if err != nil {
		t.Fatal(err)
	}
}
