package wakeup

import (
	"sync"
	"sync/atomic"
)

// Inbox holds the callbacks other goroutines post to a loop, and rings the
// loop's bell so that it wakes up to take them.
type Inbox struct {
	bell Bell
	//lint:ignore U1000 yours to use
	pending atomic.Bool // a ring is on its way, and the loop has not taken the posts yet
	mu      sync.Mutex
	fns     []func()
}

// New returns an empty inbox that rings bell.
func New(bell Bell) *Inbox { return &Inbox{bell: bell} }

// Post queues fn for the loop and makes sure the loop will wake up to take
// it. Any goroutine may call it. It returns the bell's error, if ringing
// it failed: a lost wake-up must not go unnoticed.
func (in *Inbox) Post(fn func()) error {
	in.mu.Lock()
	in.fns = append(in.fns, fn)
	in.mu.Unlock()
	// TODO: ring the bell — once, however many posts arrive before the
	// loop takes them.
	return nil
}

// Take is what the loop calls after its wait returned: it silences the
// bell, re-arms it for the next post, and returns the posted callbacks in
// the order they were posted.
func (in *Inbox) Take() ([]func(), error) {
	// TODO: silence the bell and re-arm it, in the right order.
	in.mu.Lock()
	fns := in.fns
	in.fns = nil
	in.mu.Unlock()
	return fns, nil
}
