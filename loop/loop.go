// Package loop is the reactor, the third layer of loopkit: above netpoll
// (which it drives) and future (whose Scheduler it implements), below task
// and everything that does I/O. It owns the ready queue, the timers, the fd
// watchers, the thread-safe wake-up, the executor for blocking work, and
// asyncio-style socket operations that return futures.
//
// One goroutine owns a loop: the one that calls Run. Every method may be
// called only from that goroutine, except CallSoonThreadsafe (and Stop
// scheduled through it), which any goroutine may call. Nothing is locked
// because nothing is shared; the race detector finds any breach of the rule.
//
// One iteration of Run:
//
//  1. Pick a timeout: 0 if callbacks are ready, else until the nearest
//     timer, else forever.
//  2. Wait for I/O readiness (the only place the loop sleeps). A wait with
//     timeout 0 is a system call that cannot sleep; while callbacks keep
//     the loop busy it is made on one turn in nine, not on every turn.
//  3. Run the reader and writer callbacks of ready fds.
//  4. Move due timers to the ready queue, and callbacks posted by other
//     goroutines too.
//  5. Run the callbacks that are ready now — and only those: anything they
//     schedule waits for the next iteration, so a callback that reschedules
//     itself forever cannot starve I/O or timers (asyncio's rule).
//
// A callback that blocks (a sleep, a disk read, a lock held elsewhere)
// blocks all of this: every connection and timer waits behind it. Blocking
// work belongs in RunInExecutor.
package loop

import (
	"errors"
	"fmt"
	"time"

	"loopkit/netpoll"
)

// skipPollsWhileBusy: while callbacks keep the loop busy, it skips the
// zero-timeout poll on up to this many turns in a row and polls on the
// next, so one busy turn in nine polls (every turn on which it may sleep
// polls, of course).
const skipPollsWhileBusy = 8

// ErrClosed is the error of anything still pending when its loop closed,
// and of calls made on a closed loop.
var ErrClosed = errors.New("loop: closed")

// Loop is an event loop. Create one with New.
type Loop struct {
	poller netpoll.Poller
	start  time.Time

	// CallSoon appends to ready; runReady runs batch, the callbacks that
	// were ready when the turn began. The two slices swap every turn.
	ready, batch    []func()
	timers          timerHeap
	timerSeq        uint64
	cancelledTimers int // cancelled timers still in the heap

	watches map[int]*watch
	gen     uint32

	inbox inbox // callbacks posted by other goroutines (threadsafe.go)

	executor executor

	closeHooks map[uint64]func()
	hookSeq    uint64

	pollsSkipped int // busy turns in a row that skipped the poll; see runOnce

	onPanic  func(PanicInfo)
	inRun    bool // Run is on the stack
	stopping bool
	closed   bool
}

// Options configure New. The zero value picks the best poller.
type Options struct {
	// Poller is "epoll", "kqueue", "poll" or "" for the best this OS has.
	Poller string
}

// New creates a loop with the poller named in opts (nil means defaults).
func New(opts *Options) (*Loop, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	p, err := netpoll.Open(o.Poller)
	if err != nil {
		return nil, err
	}
	l := &Loop{
		poller:     p,
		start:      time.Now(),
		watches:    make(map[int]*watch),
		closeHooks: make(map[uint64]func()),
		onPanic:    defaultPanicHandler,
	}
	l.executor.init()
	return l, nil
}

// PollerName says which poller this loop runs on.
func (l *Loop) PollerName() string { return l.poller.Name() }

// Time is the loop's clock: a monotonic duration since the loop was created.
// Deadlines given to CallAt are on this clock.
func (l *Loop) Time() time.Duration { return time.Since(l.start) }

// CallSoon schedules fn to run on the loop, after the callbacks already
// scheduled (FIFO). It implements future.Scheduler.
func (l *Loop) CallSoon(fn func()) {
	l.ready = append(l.ready, fn)
}

// Stop makes Run return after the current iteration. Called before Run,
// it makes Run return after one iteration (as asyncio's stop does). From
// another goroutine, use CallSoonThreadsafe(l.Stop).
func (l *Loop) Stop() { l.stopping = true }

// Run runs the loop until Stop is called. It returns an error only if the
// poller itself fails, or if the loop is closed or already running.
func (l *Loop) Run() error {
	switch {
	case l.closed:
		return ErrClosed
	case l.inRun:
		return errors.New("loop: Run called while the loop is running")
	}
	l.inRun = true
	defer func() { l.inRun, l.stopping = false, false }()
	for {
		if err := l.runOnce(); err != nil {
			return err
		}
		if l.stopping {
			return nil
		}
	}
}

// Waitable is what RunUntilComplete waits for: a future.Future or a
// task.Task (whose Done and OnDone come from the Future it is).
type Waitable interface {
	Done() bool
	OnDone(fn func())
}

// RunUntilComplete runs the loop until w is done, then stops it: the
// chapter's run_until_complete, which works for a Task because a Task is a
// Future. Read the outcome from w itself.
func (l *Loop) RunUntilComplete(w Waitable) error {
	// A future cannot take a callback back, so the Stop given to w is
	// disarmed when this run ends: if the run is stopped by something else
	// first, w completing later must not stop a later run.
	armed := true
	defer func() { armed = false }()
	w.OnDone(func() {
		if armed {
			l.Stop()
		}
	})
	if err := l.Run(); err != nil {
		return err
	}
	if !w.Done() {
		return errors.New("loop: stopped before the awaited future completed")
	}
	return nil
}

// runOnce is one iteration: the five steps of the package comment.
func (l *Loop) runOnce() error {
	// 1. How long the wait may sleep. A cancelled timer at the top of the
	// heap would cut it short for nothing, so it is dropped first.
	l.dropCancelledHead()
	timeout := l.waitTimeout()

	// 2 and 3. Wait for I/O, then run the callbacks of the ready fds.
	if timeout != 0 || l.pollsSkipped == skipPollsWhileBusy {
		l.pollsSkipped = 0
		events, err := l.poller.Wait(timeout)
		if err != nil {
			return fmt.Errorf("loop: waiting for I/O: %w", err)
		}
		l.dispatch(events)
	} else {
		// Callbacks are waiting, so this poll could not sleep anyway, and
		// a zero-timeout poll is a system call all the same. When the loop
		// is busy it polls every few turns instead of every turn: I/O is
		// still never starved, and a chain of Awaits (one turn each) stops
		// paying a system call per link. (Tokio polls its I/O driver every
		// 61 tasks for the same reason.)
		l.pollsSkipped++
	}

	// 4. Due timers and callbacks posted by other goroutines join the
	// ready queue.
	l.readyDueTimers()
	l.takePosted()

	// 5. Run what is ready now; what that schedules waits for the next turn.
	l.runReady()
	return nil
}

// waitTimeout is how long the next Wait may sleep: 0 if anything is ready
// to run, the time until the nearest timer, or -1 (no timer: until I/O or
// a wake-up). It only looks; runOnce drops cancelled timers first.
func (l *Loop) waitTimeout() time.Duration {
	if len(l.ready) > 0 || l.stopping || l.postsWaiting() {
		return 0
	}
	if len(l.timers) == 0 {
		return -1
	}
	// Compare before subtracting: a deadline far in the past minus now
	// would wrap round to a wait of centuries.
	when, now := l.timers[0].when, l.Time()
	if when <= now {
		return 0
	}
	return when - now
}

// runReady runs the callbacks that are ready now. CallSoon appends to a
// fresh slice meanwhile, so what they schedule runs next iteration.
func (l *Loop) runReady() {
	l.batch, l.ready = l.ready, l.batch[:0]
	for i, fn := range l.batch {
		l.runCallback(fn)
		l.batch[i] = nil // let the closure be collected
	}
}

// OnClose registers fn to run when the loop closes, before its sockets and
// poller are released; the returned function unregisters it. Tasks use it
// to stop their coroutines, and the executor to fail its pending futures.
func (l *Loop) OnClose(fn func()) (unregister func()) {
	l.hookSeq++
	id := l.hookSeq
	l.closeHooks[id] = fn
	return func() { delete(l.closeHooks, id) }
}

// Close releases the loop: it runs the OnClose hooks (stopping unfinished
// tasks), fails every pending socket operation and executor job with
// ErrClosed, closes the sockets the loop created, waits for executor
// goroutines, and closes the poller. Callbacks still queued are dropped.
// Close must not be called while Run is active.
func (l *Loop) Close() error {
	if l.inRun {
		return errors.New("loop: Close called while the loop is running")
	}
	if l.closed {
		return nil
	}
	l.closed = true
	// The steps are in this order because each may still need what the
	// later ones take away.
	//
	// 1. Close the inbox: from now on other goroutines' posts (executor
	// results among them) fail with ErrClosed instead of queueing
	// callbacks that would never run; and a post already under way has
	// finished waking the poller, which step 5 closes.
	l.inbox.close()
	// 2. Run the hooks while the sockets and the poller still work: a task
	// being stopped runs its body's defers, which may SockClose a socket.
	// A hook may register another (a deferred Spawn, say), and a range over
	// a map may or may not visit keys added during it: hence the outer
	// loop, which goes round until no hook is left.
	for len(l.closeHooks) > 0 {
		for id, fn := range l.closeHooks {
			delete(l.closeHooks, id)
			l.runCallback(fn)
		}
	}
	// 3. Fail the socket operations still pending, and close the sockets
	// the loop owns.
	err := l.closeWatches()
	// 4. Wait for the executor's goroutines, so a closed loop leaves none
	// behind (their results have nowhere to go since step 1).
	l.executor.shutdown()
	// 5. Last, the poller, which every step above may still have used.
	if perr := l.poller.Close(); err == nil {
		err = perr
	}
	l.ready, l.batch, l.timers = nil, nil, nil
	return err
}
