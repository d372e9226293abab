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
//
// To see the loop at work, create it with Options.Stats (Loop.Stats: the
// longest callback, a histogram of callback durations, the time asleep) or
// Options.Trace (a record of every turn: the timeout chosen, the time
// asleep, the ready fds, the callbacks run, the system calls made). Off,
// they cost a nil check per callback and two per turn.
package loop

import (
	"errors"
	"fmt"
	"time"

	"loopkit/future"
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

	// CallSoon and Schedule append to ready; runReady runs batch, the
	// callbacks that were ready when the turn began. The two slices swap
	// every turn. A callback is a future.Runner: a func, as callSoon, or a
	// value that runs itself (a future with callbacks to run, a due timer).
	ready, batch    []future.Runner
	timers          timerHeap
	timerSeq        uint64
	cancelledTimers int // cancelled timers still in the heap

	watches fdTable
	gen     uint32

	inbox inbox // callbacks posted by other goroutines (threadsafe.go)

	executor executor

	closers map[future.Runner]struct{} // to run at Close: OnClose, AddCloser
	values  map[any]any                // the layers above's own (values.go)

	pollsSkipped int // busy turns in a row that skipped the poll; see runOnce

	// turnTime is the clock as the turn last read it, if turnTimeRead;
	// inTurn says a turn is running. See TurnTime.
	turnTime     time.Duration
	turnTimeRead bool
	inTurn       bool

	obs *observer // nil unless Options.Stats or Options.Trace (stats.go)

	onPanic  func(PanicInfo)
	inRun    bool // Run is on the stack
	stopping bool
	closed   bool
}

// Options configure New. The zero value picks the best poller and
// measures nothing.
type Options struct {
	// Poller is "epoll", "kqueue", "poll" or "" for the best this OS has.
	Poller string
	// Stats makes the loop time every callback and every wait, for
	// Loop.Stats: its longest callback, a histogram of their durations,
	// its time asleep. It costs a clock read per callback, and a few per turn.
	Stats bool
	// Trace, if not nil, is called at the end of every turn with what the
	// turn did (see Iteration), on the loop's goroutine. It implies Stats.
	// It must be quick: it runs on the loop, between turns.
	Trace func(*Iteration)
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
		poller:  p,
		start:   time.Now(),
		closers: make(map[future.Runner]struct{}),
		onPanic: defaultPanicHandler,
	}
	if o.Stats || o.Trace != nil {
		l.obs = newObserver(l, o.Trace)
		l.poller = &observedPoller{Poller: p, o: l.obs}
	}
	l.executor.init()
	return l, nil
}

// PollerName says which poller this loop runs on.
func (l *Loop) PollerName() string { return l.poller.Name() }

// Time is the loop's clock: a monotonic duration since the loop was created.
// Deadlines given to CallAt are on this clock. Each call reads the clock.
func (l *Loop) Time() time.Duration { return time.Since(l.start) }

// TurnTime is the loop's clock as this turn read it: once after the wait
// for I/O, for the readers and writers of ready fds, and once more when
// timers are checked, for the callbacks that run after them — each time
// only if someone asks (a timer to check, a TurnTime call). Every callback
// of a turn sees the same few values, and they cost nothing more: a read
// of the real clock costs 20 to 40 ns, and a request's timeouts would read
// it half a dozen times. It runs behind the real clock by as long as the
// turn has run so far: use it for deadlines and timeouts, which do not
// care about microseconds, and Time to measure. This is libuv's rule
// (uv_now is the loop's cached time, uv_hrtime the clock). Outside a turn
// — before Run, say — it reads the clock.
func (l *Loop) TurnTime() time.Duration {
	if !l.inTurn {
		return l.Time()
	}
	if !l.turnTimeRead {
		l.turnTime, l.turnTimeRead = l.Time(), true
	}
	return l.turnTime
}

// CallSoon schedules fn to run on the loop, after the callbacks already
// scheduled (FIFO). It implements future.Scheduler.
func (l *Loop) CallSoon(fn func()) {
	l.ready = append(l.ready, callSoon(fn))
}

// Schedule is CallSoon for a callback that carries its own state: the loop
// calls r.Run. A future schedules itself this way to run its callbacks,
// and a due timer too — a pointer in the queue instead of a closure made
// for the purpose, which would be an allocation each time. It implements
// future.RunnerScheduler.
func (l *Loop) Schedule(r future.Runner) {
	l.ready = append(l.ready, r)
}

// callSoon is a plain func in the ready queue. A func value is a single
// pointer, so storing one in an interface allocates nothing.
type callSoon func()

func (fn callSoon) Run() { fn() }

var _ future.RunnerScheduler = (*Loop)(nil)

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
	if l.obs != nil {
		l.obs.begin(timeout)
	}

	// 2 and 3. Wait for I/O, then run the callbacks of the ready fds.
	if timeout != 0 || l.pollsSkipped == skipPollsWhileBusy {
		l.pollsSkipped = 0
		events, err := l.poller.Wait(timeout)
		if err != nil {
			return fmt.Errorf("loop: waiting for I/O: %w", err)
		}
		if len(events) > 0 {
			l.inTurn, l.turnTimeRead = true, false
			l.dispatch(events)
		}
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
	l.inTurn, l.turnTimeRead = true, false
	timers := l.readyDueTimers()
	posted := l.takePosted()

	// 5. Run what is ready now; what that schedules waits for the next turn.
	l.runReady()
	l.inTurn = false
	if l.obs != nil {
		l.obs.end(timers, posted, len(l.batch))
	}
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
	for i := 0; i < len(l.batch); {
		i = l.runReadyFrom(i)
	}
}

// runReadyFrom runs l.batch from i on. It returns len(l.batch), or, if a
// callback panicked, the index after that one, for runReady to go on
// from. One deferred recover guards the whole batch instead of one per
// callback: a defer is cheap, not free, and a turn can run thousands of
// callbacks. The stack the panic handler gets is still the panicking
// callback's: recover runs in a deferred call, on top of the frames of
// the panic (see runGuarded).
func (l *Loop) runReadyFrom(i int) (next int) {
	defer l.recoverPanic(&i, &next)
	for ; i < len(l.batch); i++ {
		r := l.batch[i]
		l.batch[i] = nil // let the closure be collected
		l.runCallback(r)
	}
	return i
}
