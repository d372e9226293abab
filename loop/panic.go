package loop

import (
	"fmt"
	"os"
	"runtime/debug"
)

// PanicInfo describes a callback that panicked.
type PanicInfo struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack, taken inside recover
}

func (p PanicInfo) String() string {
	return fmt.Sprintf("loop: callback panicked: %v\n%s", p.Value, p.Stack)
}

// SetPanicHandler replaces the handler that hears of panicking callbacks
// (asyncio's exception handler). The default prints to stderr. Either way
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

// runCallback runs one callback for the loop. A panic in it goes to the
// panic handler, and runCallback returns normally: the loop goes on.
func (l *Loop) runCallback(fn func()) {
	defer func() {
		if v := recover(); v != nil {
			l.onPanic(PanicInfo{Value: v, Stack: debug.Stack()})
		}
	}()
	fn()
}
