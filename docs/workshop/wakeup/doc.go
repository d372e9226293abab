// Package wakeup is workshop exercise 20: the loop's one door for other
// goroutines, CallSoonThreadsafe, and its deduplicated wake-up. README.md
// says what to build; exercise.go is yours to edit. This file holds what
// you need and need not change: the Bell, the Inbox and its list of posts.
package wakeup

import (
	"sync"
	"sync/atomic"
)

// Bell is what wakes a sleeping loop. In loopkit it is an eventfd (or a
// pipe) that the poller watches: Ring writes to it, which makes the
// loop's epoll_wait return, and Silence reads it empty again. Both are
// system calls; Ring may be called from any goroutine, Silence only by
// the loop.
type Bell interface {
	Ring() error
	Silence() error
}

// Inbox holds the callbacks other goroutines post to a loop, and rings the
// loop's bell so that it wakes up to take them.
type Inbox struct {
	bell Bell
	//lint:ignore U1000 Post and Take, which you write, keep it
	pending flag // a ring is on its way, and the loop has not taken the posts yet

	mu  sync.Mutex
	fns []func()

	afterTakeAll func() // for the tests: see export_test.go
}

// New returns an empty inbox that rings bell.
func New(bell Bell) *Inbox { return &Inbox{bell: bell} }

// add queues fn under the lock. Post calls it.
func (in *Inbox) add(fn func()) {
	in.mu.Lock()
	in.fns = append(in.fns, fn)
	in.mu.Unlock()
}

// takeAll takes every callback queued, in the order they were posted.
// Take calls it. (The tests may run a post right after it, to play one
// that lands there; use takeAll, not a lock of your own, or they cannot.)
func (in *Inbox) takeAll() []func() {
	in.mu.Lock()
	fns := in.fns
	in.fns = nil
	in.mu.Unlock()
	if in.afterTakeAll != nil {
		in.afterTakeAll()
	}
	return fns
}

// flag is an atomic.Bool with a hook for the tests: use it as you would
// one (Load, Store, CompareAndSwap, Swap). The hook runs just after a
// method that reads the flag, once, to play a post from another goroutine
// that lands right there: between your read of pending and your write.
//
//lint:file-ignore U1000 Post and Take, which you write, use flag's methods
type flag struct {
	b         atomic.Bool
	afterRead func() // for the tests: see export_test.go
}

func (f *flag) Load() bool {
	v := f.b.Load()
	f.read()
	return v
}

func (f *flag) Store(v bool) { f.b.Store(v) }

func (f *flag) CompareAndSwap(old, new bool) bool {
	swapped := f.b.CompareAndSwap(old, new)
	f.read()
	return swapped
}

func (f *flag) Swap(v bool) bool {
	old := f.b.Swap(v)
	f.read()
	return old
}

func (f *flag) read() {
	if hook := f.afterRead; hook != nil {
		f.afterRead = nil
		hook()
	}
}
