//go:build solution

package wakeup

// Post queues fn for the loop and makes sure the loop will wake up to take
// it. Only the first post after each Take rings: a thousand posts in a
// burst cost one system call, not a thousand.
func (in *Inbox) Post(fn func()) error {
	in.add(fn)
	if !in.pending.CompareAndSwap(false, true) {
		// A ring is on its way and the loop has not re-armed yet, so its
		// Take is still to come, and fn is already queued for it.
		return nil
	}
	if err := in.bell.Ring(); err != nil {
		in.pending.Store(false) // nothing rang: let the next post try again
		return err
	}
	return nil
}

// Take silences the bell, then re-arms it, then takes the posts — in that
// order. Re-armed before silencing, a post in between would ring a bell
// that Silence then empties, leaving pending set: every later post would
// skip its ring, and the loop would sleep through them all. Taking before
// re-arming, a post in between would skip its ring and wait, untaken, for
// some unrelated wake-up.
func (in *Inbox) Take() ([]func(), error) {
	if err := in.bell.Silence(); err != nil {
		return nil, err
	}
	in.pending.Store(false)
	return in.takeAll(), nil
}
