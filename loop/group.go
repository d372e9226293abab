package loop

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Group is N loops, each run by a goroutine of its own: one loop per core,
// the shape of every production reactor (the Go runtime's poller, gnet,
// evio, tokio's worker threads, nginx's worker processes).
//
// The rule of a Group is the loop's own rule, N times: each loop belongs
// to the goroutine that runs it, and nothing is shared between the loops
// but the thread-safe hand-off, CallSoonThreadsafe. So nothing is locked
// in the hot path, and each loop's callbacks, timers and sockets are as
// private as they were with one loop. The price is that the work must be
// divided up front: a Group does not move work from a busy loop to an
// idle one (tokio and the Go runtime steal work from each other's run
// queues; that needs shared queues, and locks or atomics in every
// operation). Its user decides what runs where, once — the crawler by a
// hash of each server's name — and hands over to another loop, with
// CallSoonThreadsafe, whatever belongs there.
type Group struct {
	loops []*Loop
	lock  bool
}

// GroupOptions configure NewGroup.
type GroupOptions struct {
	// Options are every loop's. A Trace function is called by every
	// loop, each on its own goroutine: it must be safe for that.
	Options
	// TraceLoop, if set, gives each loop a trace function of its own:
	// NewGroup calls it with each loop's index, 0 ≤ i < n, before the
	// loop exists, and the loop calls only what it returned (nil: no
	// trace for that loop). So a trace writer can keep a buffer per
	// loop and say which loop each turn was, with no lock between turns.
	// It takes the place of Options.Trace.
	TraceLoop func(i int) func(*Iteration)
	// LockOSThread wires each loop's goroutine to an OS thread of its
	// own while it runs (runtime.LockOSThread, called before fn, so
	// before any task's coroutine exists: see docs/kernel.md). It keeps
	// a loop on one thread, and that thread busy with nothing else; it
	// does not pin the thread to a CPU. Whether it pays is a measurement,
	// not an assumption: docs/tutorial.md ("Waiting and computing") has it.
	//
	// A coroutine made on a locked goroutine can be switched to only
	// from that goroutine's thread (the runtime kills the process
	// otherwise), and the thread is let go when fn returns. So with
	// LockOSThread, Run closes each loop as its fn returns, on its own
	// goroutine, stopping its tasks there; Close then has nothing left
	// to do, and a locked group runs once.
	LockOSThread bool
}

// NewGroup creates n loops. opts may be nil.
func NewGroup(n int, opts *GroupOptions) (*Group, error) {
	if n < 1 {
		return nil, fmt.Errorf("loop: a group needs at least one loop, not %d", n)
	}
	var o GroupOptions
	if opts != nil {
		o = *opts
	}
	g := &Group{lock: o.LockOSThread}
	for i := range n {
		opts := o.Options
		if o.TraceLoop != nil {
			opts.Trace = o.TraceLoop(i)
		}
		l, err := New(&opts)
		if err != nil {
			g.Close()
			return nil, err
		}
		g.loops = append(g.loops, l)
	}
	return g, nil
}

// Len is the number of loops.
func (g *Group) Len() int { return len(g.loops) }

// Loop returns loop i, 0 ≤ i < Len. Before Run, and after it, it may be
// used from the goroutine that made the group; during Run, only from its
// own goroutine (fn's), or through CallSoonThreadsafe.
func (g *Group) Loop(i int) *Loop { return g.loops[i] }

// Run calls fn(i, Loop(i)) for every loop, each on a goroutine of its own
// (locked to its OS thread if GroupOptions.LockOSThread said so), and
// returns when every fn has returned, with their errors joined. fn owns
// its loop while it runs, and typically runs it: task.Run or
// RunUntilComplete. A panic in fn is returned as an error with fn's stack,
// rather than crashing the process from a goroutine nobody can recover.
func (g *Group) Run(fn func(i int, l *Loop) error) error {
	errs := make([]error, len(g.loops))
	var wg sync.WaitGroup
	for i, l := range g.loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g.lock {
				runtime.LockOSThread()
				// Unlocked at the end: a goroutine that exits locked takes
				// its thread with it, and the runtime must make a new one.
				defer runtime.UnlockOSThread()
			}
			errs[i] = runGuarded(i, l, fn)
			if g.lock { // while still on the thread its coroutines belong to
				errs[i] = errors.Join(errs[i], l.Close())
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func runGuarded(i int, l *Loop, fn func(int, *Loop) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("loop: group member %d panicked: %v\n%s", i, p, debug.Stack())
		}
	}()
	return fn(i, l)
}

// Close closes every loop (see Loop.Close), and returns their errors
// joined. Call it after Run has returned, from the goroutine that called
// it: a closed group leaves no goroutine and no file descriptor behind.
func (g *Group) Close() error {
	var errs []error
	for _, l := range g.loops {
		errs = append(errs, l.Close())
	}
	return errors.Join(errs...)
}
