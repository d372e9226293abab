//go:build solution

package event

// Set sets the flag and completes every waiting future. A waiter that
// cancelled its future is already done: completing it again would panic.
// The list is taken first and dropped, so a second Set finds nobody.
func (e *Event) Set() {
	e.set = true
	waiters := e.waiters
	e.waiters = nil
	for _, f := range waiters {
		if !f.Done() {
			f.SetResult(struct{}{})
		}
	}
}
