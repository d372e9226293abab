package task

// Event is a flag that tasks can wait for (asyncio.Event).
type Event struct {
	set     bool
	waiters waiters
}

// Set sets the flag and wakes every waiting task.
func (e *Event) Set() {
	e.set = true
	e.waiters.wakeAll()
}

// Clear resets the flag.
func (e *Event) Clear() { e.set = false }

// IsSet reports the flag.
func (e *Event) IsSet() bool { return e.set }

// Wait returns once the flag is set (at once if it is).
func (e *Event) Wait(y Yield) error {
	if e.set {
		return nil
	}
	_, err := Await(y, e.waiters.park(y))
	return err
}
