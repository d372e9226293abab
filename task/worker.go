package task

import (
	"iter"

	"loopkit/future"
	"loopkit/loop"
)

// A coroutine is the dear part of a task: iter.Pull makes a goroutine
// and six objects around it (the coroutine, its next and stop functions,
// the yield function handed to the body...), and the seq function it
// runs is a seventh. A task that lives for one request pays all seven
// for one request. So a coroutine is not thrown away when its body
// returns: it parks, and the loop's next Spawn hands it the next body.
//
// The coroutine is a worker that runs bodies one after another. It hands
// the loop the futures its body awaits, as any coroutine does, and when
// the body returns it yields nil: "this body is over, give me another".
// Parked there, in its own yield, it is a goroutine waiting for a
// switch, and costs what a parked goroutine costs: its stack.
//
// Production systems do the same with their threads: a thread pool, or
// Go's own runtime, which keeps the records of dead goroutines on a free
// list and gives them to the next go statement. Ours keeps at most
// maxIdleWorkers per loop; beyond that a worker whose body ended is
// stopped, and its goroutine ends.

// maxIdleWorkers is how many parked coroutines a loop keeps.
const maxIdleWorkers = 128

// worker is one pooled coroutine.
type worker struct {
	next func() (future.Waitable, bool)
	stop func()
	job  job // the task whose body runs on it now
}

// job is a task as its worker sees it, whatever its result type.
type job interface {
	// runBody calls the task's body with yield and keeps its outcome.
	runBody(yield func(future.Waitable) bool)
}

func newWorker() *worker {
	w := &worker{}
	w.next, w.stop = iter.Pull(w.run)
	return w
}

// run is the worker's coroutine: a body, then nil to say it is over,
// then the next body when next resumes it. A stop while parked makes
// yield return false, and the goroutine ends.
func (w *worker) run(yield func(future.Waitable) bool) {
	for {
		w.job.runBody(yield)
		w.job = nil
		if !yield(nil) {
			return
		}
	}
}

// pool is a loop's parked workers. Only the loop's goroutine uses it.
type pool struct {
	idle   []*worker
	closed bool
}

// poolKey is the key of a loop's pool among its values (loop.Value).
type poolKey struct{}

// poolOf returns l's pool, made the first time.
func poolOf(l *loop.Loop) *pool {
	if p, ok := l.Value(poolKey{}).(*pool); ok {
		return p
	}
	p := &pool{}
	l.SetValue(poolKey{}, p)
	l.AddCloser(p) // a closing loop stops its parked workers
	return p
}

// take returns a parked worker, or a new one.
func (p *pool) take() *worker {
	if n := len(p.idle); n > 0 && !p.closed {
		w := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		return w
	}
	return newWorker()
}

// put parks w for the next task, or stops it if the pool is full or its
// loop is closing.
func (p *pool) put(w *worker) {
	if p.closed || len(p.idle) >= maxIdleWorkers {
		w.stop()
		return
	}
	p.idle = append(p.idle, w)
}

// Run stops every parked worker: the loop is closing (loop.AddCloser).
func (p *pool) Run() {
	p.closed = true
	for _, w := range p.idle {
		w.stop()
	}
	p.idle = nil
}
