package event

// Set sets the flag and wakes every waiter: see README.md for the rule.
func (e *Event) Set() {
	// TODO: set the flag, complete each waiting future once, skip those
	// already done, and forget the ones you have woken.
}
