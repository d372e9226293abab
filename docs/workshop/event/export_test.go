//go:build workshop

package event

// Waiting is how many futures e still keeps: those in its list, and those
// its list's array still points at beyond the list's length. A list cut to
// e.waiters[:0] is empty, but its array keeps every future it held alive
// until new waiters overwrite them.
func Waiting(e *Event) int {
	n := 0
	for _, f := range e.waiters[:cap(e.waiters)] {
		if f != nil {
			n++
		}
	}
	return n
}
