package loop

import (
	"time"

	"loopkit/netpoll"
)

// Iteration is one turn of the loop, as Options.Trace hears of it when the
// turn ends. Read in field order it is the turn in time order: the timeout
// chosen, the wait, what the wait returned, the callbacks run, and the
// system calls those callbacks made through the loop.
//
// The record and its slices are reused: they are valid only during the
// call to the trace function (copy what you keep; AppendJSON writes it).
type Iteration struct {
	N     uint64        // this loop's turn number, from 1
	Start time.Duration // on the loop's clock (Loop.Time)
	End   time.Duration
	// Outside marks a record of what happened outside any turn — before
	// Run, between two Runs, or in Close — so that no system call is
	// missing from a trace. Such a record has only Ops and callback
	// counts; N is the number of the turn that came before it.
	Outside bool

	Timeout time.Duration // what the wait was given: -1 forever, 0 "poll only"
	Polled  bool          // false: a busy turn skipped its zero-timeout poll
	Asleep  time.Duration // time inside the poller's Wait
	Ready   []Ready       // what the wait returned, in its order

	IO        int           // reader and writer callbacks run
	Timers    int           // timers that came due
	Posted    int           // callbacks that other goroutines posted (each woke the poller)
	Callbacks int           // every callback run: IO, then the ready queue
	Busy      time.Duration // time spent in them
	Longest   time.Duration // the longest of them
	// LongestFunc names the function that ran for Longest.
	LongestFunc string
	// Calls are the callbacks run, one by one, in order: what a trace
	// viewer draws as the turn's slices (cmd/crawl --trace_events).
	// AppendJSON leaves them out: its line is the turn in summary.
	Calls []Call

	// Ops are the system calls made through the loop during the turn, in
	// order: the poller's Register, Modify and Deregister, and the socket
	// calls of SockConnect, SockSendAll, SockRecv, SockAccept and SockClose.
	// Sockets a program reads and writes itself (netpoll.Read in a reader
	// callback) show only as the callback that ran.
	Ops []Op
}

// Call is one callback the loop ran. Its Start is the previous
// callback's End (or the wait's, or the turn's start): the loop reads
// its clock once per callback, and the little bookkeeping between two
// callbacks is counted in the second.
type Call struct {
	// Func names the function, as Stats.LongestFunc does.
	Func       string
	Start, End time.Duration // on the loop's clock
	pc         uintptr       // Func's code, named when the turn is emitted
}

// Ready is one fd that a wait reported ready.
type Ready struct {
	FD          int
	Read, Write bool
	Invalid     bool // poll(2) found the fd closed while registered
}

// Op is one system call made through the loop.
type Op struct {
	// Name is "register", "modify" or "deregister" (the poller: epoll_ctl
	// ADD, MOD and DEL on Linux), or "socket", "connect", "getsockopt"
	// (the connect's outcome, SO_ERROR), "listen" (socket, bind and
	// listen in one), "accept", "read", "write", "close".
	Name        string
	FD          int
	Read, Write bool // register and modify: the interest asked for
	// N is the bytes a read or write moved (a read of 0 is the peer's
	// EOF), or the fd that accept returned. (For socket and listen, FD is
	// the new fd.)
	N int
	// Err is the error as strace names it ("EAGAIN", "EINPROGRESS",
	// "ECONNREFUSED"), or "" for success.
	Err string
}

// begin opens the record of a turn. Anything recorded since the last turn
// ended happened outside one, and goes out first, on its own.
func (o *observer) begin(timeout time.Duration) {
	if o.it.Callbacks > 0 || len(o.it.Ops) > 0 {
		o.it.Outside = true
		o.emit()
	}
	o.stats.Iterations++
	o.inTurn = true
	o.last = o.now()
	o.it.N = o.stats.Iterations
	o.it.Start = o.last
	o.it.Timeout = timeout
}

// end closes the record of a turn: ready is how many callbacks ran from
// the ready queue, so the rest, run before them, were readers and writers.
func (o *observer) end(timers, posted, ready int) {
	o.it.Timers, o.it.Posted = timers, posted
	o.it.IO = o.it.Callbacks - ready
	o.it.End = o.last
	o.inTurn = false
	o.emit()
}

// flush sends what happened outside any turn (Close's deregistrations and
// closes), if anything did.
func (o *observer) flush() {
	if o.it.Callbacks > 0 || len(o.it.Ops) > 0 {
		o.it.Outside = true
		o.emit()
	}
}

func (o *observer) emit() {
	if o.trace != nil {
		if o.it.Outside {
			o.it.N = o.stats.Iterations
			o.it.Start = o.now()
			o.it.End = o.it.Start
		}
		o.it.LongestFunc = o.funcName(o.itPC)
		for i := range o.it.Calls {
			o.it.Calls[i].Func = o.funcName(o.it.Calls[i].pc)
		}
		o.trace(&o.it)
	}
	o.it = Iteration{Ready: o.it.Ready[:0], Ops: o.it.Ops[:0], Calls: o.it.Calls[:0]}
	o.itPC = 0
}

// note records a system call made through the loop, when tracing. (Small
// enough to be inlined: untraced, it is one nil check.)
func (l *Loop) note(name string, fd, n int, err error) {
	if l.obs != nil {
		l.obs.note(name, fd, n, err)
	}
}

func (o *observer) note(name string, fd, n int, err error) {
	if o.trace != nil {
		o.it.Ops = append(o.it.Ops, Op{Name: name, FD: fd, N: n, Err: netpoll.ErrName(err)})
	}
}

// observedPoller stands between an observed loop and its poller: it times
// each Wait, and, when tracing, records what the wait returned and every
// change of interest. An unobserved loop talks to its poller directly.
type observedPoller struct {
	netpoll.Poller
	o *observer
}

func (p *observedPoller) Wait(timeout time.Duration) ([]netpoll.Event, error) {
	start := p.o.now()
	events, err := p.Poller.Wait(timeout)
	p.o.last = p.o.now()
	asleep := p.o.last - start
	p.o.stats.Waits++
	p.o.stats.Asleep += asleep
	it := &p.o.it
	it.Polled, it.Asleep = true, asleep
	if p.o.trace != nil {
		for _, ev := range events {
			it.Ready = append(it.Ready, Ready{
				FD:      int(uint32(ev.Token)),
				Read:    ev.Ready&netpoll.Readable != 0,
				Write:   ev.Ready&netpoll.Writable != 0,
				Invalid: ev.Ready == netpoll.Invalid,
			})
		}
	}
	return events, err
}

func (p *observedPoller) Register(fd int, tok netpoll.Token, in netpoll.Interest) error {
	err := p.Poller.Register(fd, tok, in)
	p.ctl("register", fd, in, err)
	return err
}

func (p *observedPoller) Modify(fd int, tok netpoll.Token, in netpoll.Interest) error {
	err := p.Poller.Modify(fd, tok, in)
	p.ctl("modify", fd, in, err)
	return err
}

func (p *observedPoller) Deregister(fd int) error {
	err := p.Poller.Deregister(fd)
	p.ctl("deregister", fd, 0, err)
	return err
}

func (p *observedPoller) ctl(name string, fd int, in netpoll.Interest, err error) {
	if p.o.trace != nil {
		p.o.it.Ops = append(p.o.it.Ops, Op{Name: name, FD: fd,
			Read: in&netpoll.Readable != 0, Write: in&netpoll.Writable != 0, Err: netpoll.ErrName(err)})
	}
}
