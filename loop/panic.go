package loop

import (
	"fmt"
	"os"
	"runtime/debug"

	"loopkit/future"
)

// PanicInfo describes a callback that panicked, or a misuse of the loop
// that the loop caught outside any callback (an fd closed while watched):
// then Value is an error that says what, and names the fd.
type PanicInfo struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack, taken inside recover
}

func (p PanicInfo) String() string {
	if _, ok := p.Value.(misuse); ok {
		return fmt.Sprintf("%v\n%s", p.Value, p.Stack)
	}
	return fmt.Sprintf("loop: callback panicked: %v\n%s", p.Value, p.Stack)
}

// misuse is the Value of a PanicInfo that reports a caller's bug rather
// than a panic.
type misuse struct{ error }

// reportMisuse tells the panic handler about a caller's bug that the loop
// found by itself. The stack is the loop's, where it noticed: the caller's
// mistake (a close) happened earlier, elsewhere.
func (l *Loop) reportMisuse(err error) {
	l.onPanic(PanicInfo{Value: misuse{err}, Stack: debug.Stack()})
}

// SetPanicHandler replaces the handler that hears of panicking callbacks,
// and of misuse the loop catches (asyncio's exception handler). The
// default prints to stderr. Either way
// the loop goes on with the next callback: one bad callback must not take
// every other connection down with it.
func (l *Loop) SetPanicHandler(h func(PanicInfo)) {
	if h == nil {
		h = defaultPanicHandler
	}
	l.onPanic = h
}

func defaultPanicHandler(p PanicInfo) {
	fmt.Fprintln(os.Stderr, p.String())
}

// runCallback runs one callback for the loop — timed, if the loop is
// observed. Unobserved, it does not catch a panic: its caller runs it
// under a recover that guards many callbacks at once (runReadyFrom,
// dispatchFrom). Observed, each callback has a recover of its own, so
// that one that panics is timed and counted like any other.
func (l *Loop) runCallback(r future.Runner) {
	if l.obs != nil {
		l.obs.timedCallback(l, r)
		return
	}
	r.Run()
}

// recoverPanic, deferred by a function that runs callbacks one after
// another from position *at, catches the panic of the one at *at, gives
// it to the panic handler with the panicking goroutine's stack, and makes
// the function return *at+1 in *next: its caller calls it again from
// there, and the loop goes on with the next callback. (recover must be
// called by the deferred function itself, hence this one.)
func (l *Loop) recoverPanic(at, next *int) {
	if v := recover(); v != nil {
		l.onPanic(PanicInfo{Value: v, Stack: debug.Stack()})
		*next = *at + 1
	}
}

// runGuarded runs one callback on its own, as runCallback does, with a
// recover of its own: for the callbacks that run outside a batch (Close's).
func (l *Loop) runGuarded(r future.Runner) {
	if l.obs != nil {
		l.obs.timedCallback(l, r)
		return
	}
	l.callGuarded(r)
}

func (l *Loop) callGuarded(r future.Runner) {
	at, next := 0, 0
	defer l.recoverPanic(&at, &next)
	r.Run()
}
