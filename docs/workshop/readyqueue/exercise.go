package readyqueue

// RunOnce runs one turn of the queue: see README.md for the rule. It
// returns how many callbacks it ran.
func (q *Queue) RunOnce() int {
	// TODO: run the callbacks queued before this call, in order; those
	// they queue wait for the next RunOnce.
	return 0
}
