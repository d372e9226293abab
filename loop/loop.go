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
	"sync"
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

	ready, running []func() // double buffer: see runReady
	timers         timerHeap
	timerSeq       uint64
	cancelled      int // cancelled timers still in the heap

	watches map[int]*watch
	gen     uint32

	tsMu     sync.Mutex
	tsQueue  []func()
	tsClosed bool

	executor executor

	closeHooks map[uint64]func()
	hookSeq    uint64

	busyTurns int // turns since the last poll; see runOnce

	onPanic  func(PanicInfo)
	isActive bool // inside Run
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
	case l.isActive:
		return errors.New("loop: Run called while the loop is running")
	}
	l.isActive = true
	defer func() { l.isActive, l.stopping = false, false }()
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
	w.OnDone(l.Stop)
	if err := l.Run(); err != nil {
		return err
	}
	if !w.Done() {
		return errors.New("loop: stopped before the awaited future completed")
	}
	return nil
}

func (l *Loop) runOnce() error {
	timeout := l.timeout()
	if timeout == 0 && l.busyTurns < skipPollsWhileBusy {
		// Callbacks are waiting, so this poll could not sleep anyway, and
		// a zero-timeout poll is a system call all the same. When the loop
		// is busy it polls every few turns instead of every turn: I/O is
		// still never starved, and a chain of Awaits (one turn each) stops
		// paying a system call per link. (Tokio polls its I/O driver every
		// 61 tasks for the same reason.)
		l.busyTurns++
	} else {
		l.busyTurns = 0
		events, err := l.poller.Wait(timeout)
		if err != nil {
			return fmt.Errorf("loop: waiting for I/O: %w", err)
		}
		l.dispatch(events)
	}
	now := l.Time()
	for len(l.timers) > 0 && l.timers[0].when <= now {
		t := l.popTimer()
		if !t.cancelled {
			l.ready = append(l.ready, t.run)
		}
	}
	l.takeThreadsafe()
	l.runReady()
	return nil
}

// timeout is how long the next Wait may sleep.
func (l *Loop) timeout() time.Duration {
	if len(l.ready) > 0 || l.stopping || l.threadsafePending() {
		return 0
	}
	l.dropCancelledHead()
	if len(l.timers) == 0 {
		return -1
	}
	if d := l.timers[0].when - l.Time(); d > 0 {
		return d
	}
	return 0
}

// runReady runs the callbacks that are ready now. CallSoon appends to a
// fresh slice meanwhile, so what they schedule runs next iteration.
func (l *Loop) runReady() {
	l.running, l.ready = l.ready, l.running[:0]
	for i, fn := range l.running {
		l.protect(fn)
		l.running[i] = nil // let the closure be collected
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
	if l.isActive {
		return errors.New("loop: Close called while the loop is running")
	}
	if l.closed {
		return nil
	}
	l.closed = true
	l.tsMu.Lock()
	l.tsClosed, l.tsQueue = true, nil
	l.tsMu.Unlock()
	for len(l.closeHooks) > 0 {
		for id, fn := range l.closeHooks {
			delete(l.closeHooks, id)
			l.protect(fn)
		}
	}
	err := l.closeWatches()
	l.executor.shutdown()
	if perr := l.poller.Close(); err == nil {
		err = perr
	}
	l.ready, l.running, l.timers = nil, nil, nil
	return err
}
