package wakeup

// Post queues fn for the loop and makes sure the loop will wake up to take
// it. Any goroutine may call it. It returns the bell's error, if ringing
// it failed: a lost wake-up must not go unnoticed.
func (in *Inbox) Post(fn func()) error {
	in.add(fn)
	// TODO: ring the bell — once, however many posts arrive before the
	// loop takes them. in.pending is yours to use.
	return nil
}

// Take is what the loop calls after its wait returned: it silences the
// bell, re-arms it for the next post, and returns the posted callbacks in
// the order they were posted.
func (in *Inbox) Take() ([]func(), error) {
	// TODO: silence the bell and re-arm it, in the right order, around
	// in.takeAll().
	return in.takeAll(), nil
}
